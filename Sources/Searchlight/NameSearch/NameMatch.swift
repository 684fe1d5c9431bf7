/// How well one item matches a name query; sorts best first.
struct NameMatch: Comparable {
    let id: Int64
    let identifier: ItemIdentifier
    let modificationDate: Double
    /// Query words matched only as a prefix, never as a whole word.
    let prefixOnlyCount: Int
    /// For each query word, the best field it matched (0 name, 1 title, 2 keywords, 3 folders), summed.
    let fieldRank: Int

    /// A candidate known to match every word whole in its name: the best rank.
    init(best id: Int64, identifier: ItemIdentifier, modificationDate: Double) {
        self.id = id
        self.identifier = identifier
        self.modificationDate = modificationDate
        prefixOnlyCount = 0
        fieldRank = 0
    }

    /// A candidate ranked already (by ``CandidateRank``).
    init(id: Int64, identifier: ItemIdentifier, modificationDate: Double, prefixOnlyCount: Int, fieldRank: Int) {
        self.id = id
        self.identifier = identifier
        self.modificationDate = modificationDate
        self.prefixOnlyCount = prefixOnlyCount
        self.fieldRank = fieldRank
    }

    /// Ranks a candidate. Most candidates match every word as a whole word of their name, the
    /// best rank there is: the other fields are only split into words when that is not so.
    /// `nil` when a compound (``CompoundWords``) matches in no field.
    init?(id: Int64, identifier: ItemIdentifier, modificationDate: Double, tokens: [String], name: [String],
          otherFields: () -> [[String]]) {
        self.id = id
        self.identifier = identifier
        self.modificationDate = modificationDate
        if tokens.allSatisfy({ CompoundWords.match($0, in: name).whole }) {
            prefixOnlyCount = 0
            fieldRank = 0
            return
        }
        let fields = [name] + otherFields()
        var prefixOnly = 0
        var rank = 0
        for token in tokens {
            let found = fields.map { CompoundWords.match(token, in: $0) }
            let whole = found.firstIndex { $0.whole }
            let prefix = found.firstIndex { $0.prefix }
            if whole == nil { prefixOnly += 1 }
            if prefix == nil, CompoundWords.isCompound(token) { return nil }
            rank += whole ?? prefix ?? fields.count
        }
        prefixOnlyCount = prefixOnly
        fieldRank = rank
    }

    static func < (lhs: NameMatch, rhs: NameMatch) -> Bool {
        if lhs.prefixOnlyCount != rhs.prefixOnlyCount { return lhs.prefixOnlyCount < rhs.prefixOnlyCount }
        if lhs.fieldRank != rhs.fieldRank { return lhs.fieldRank < rhs.fieldRank }
        if lhs.modificationDate != rhs.modificationDate { return lhs.modificationDate > rhs.modificationDate }
        return lhs.identifier < rhs.identifier
    }

    static func == (lhs: NameMatch, rhs: NameMatch) -> Bool { lhs.id == rhs.id }
}
