import Foundation
import GRDB

extension SearchableIndex {
    /// Items whose name words contain, for every query word, a word that starts with it.
    ///
    /// Query words are split like names (`quarterlyRep` counts as `quarterly rep`); matching
    /// ignores case and diacritics. Results are ranked: items where every word matches a whole
    /// word come before prefix matches; then matches in the name before the title, keywords and
    /// folder names; then the most recently modified; then by identifier.
    ///
    /// - Parameters:
    ///   - words: The query words.
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many results, when given.
    /// - Throws: ``SearchlightError`` `.invalidQuery` when the words hold no letter or digit.
    public func search(words: [String], domain: String? = nil, limit: Int? = nil) throws -> [IndexedItem] {
        try rankedMatches(words: words, domain: domain, limit: limit) { db, matches in
            try Self.fetchItems(ids: matches.map(\.id), in: db)
        }
    }

    /// The domains and identifiers of what ``search(words:domain:limit:)`` returns, in the same
    /// order, without fetching the items: for output that prints paths only.
    public func searchIdentifiers(words: [String], domain: String? = nil, limit: Int? = nil) throws -> [ItemIdentifier] {
        try rankedMatches(words: words, domain: domain, limit: limit) { _, matches in matches.map(\.identifier) }
    }

    /// The ranked matches of a name query, best first, handed to `body` inside the read.
    private func rankedMatches<T>(words: [String], domain: String?, limit: Int?,
                                  _ body: (Database, [NameMatch]) throws -> T) throws -> T {
        let tokens = try Self.nameQueryTokens(words)
        return try read { db in
            if let limit, limit > 0, let best = try Self.bestMatchesByDate(tokens, domain: domain, limit: limit, in: db) {
                return try body(db, best)
            }
            var candidates = try Self.nameCandidates(tokens, domain: domain, in: db)
            candidates.sort()
            if let limit, candidates.count > limit { candidates.removeLast(candidates.count - limit) }
            return try body(db, candidates)
        }
    }

    /// The number of items ``search(words:domain:limit:)`` would return without a limit.
    public func countMatches(words: [String], domain: String? = nil) throws -> Int {
        let tokens = try Self.nameQueryTokens(words)
        return try read { db in
            try Int.fetchOne(db, sql: """
                SELECT count(*) FROM item_words JOIN item ON item.id = item_words.rowid
                WHERE item_words MATCH :match AND \(Self.inDomain) AND \(Self.notExpired)
                """, arguments: Self.nameArguments(tokens, domain: domain)) ?? 0
        }
    }

    static let inDomain = "(:domain IS NULL OR item.domainId = (SELECT id FROM domain WHERE name = :domain))"

    /// The folded words of a name query.
    static func nameQueryTokens(_ words: [String]) throws -> [String] {
        let tokens = words.flatMap(NameTokenizer.words(in:))
        guard !tokens.isEmpty else {
            throw SearchlightError(.invalidQuery, "the search words contain no letter or digit")
        }
        return tokens
    }

    /// An FTS5 query asking every token as a prefix of a word in any column.
    static func nameMatchExpression(_ tokens: [String]) -> String {
        tokens.map { quoted($0) + "*" }.joined(separator: " AND ")
    }

    /// A token as an FTS5 string: never query syntax.
    static func quoted(_ token: String) -> String {
        "\"" + token.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func nameArguments(_ tokens: [String], domain: String?) -> StatementArguments {
        ["match": nameMatchExpression(tokens), "domain": domain, "now": Date().timeIntervalSince1970]
    }

    static func nameCandidates(_ tokens: [String], domain: String?, in db: Database) throws -> [NameMatch] {
        // The full-text index knows which items have every word whole in their name, the best
        // rank: those need no splitting of their fields here.
        let wholeInName = Set(try Int64.fetchAll(db, sql: "SELECT rowid FROM item_words WHERE item_words MATCH ?",
                                                 arguments: ["name : (" + tokens.map(quoted).joined(separator: " AND ") + ")"]))
        let cursor = try Row.fetchCursor(db, sql: """
            SELECT item.id, item.identifier, item.displayName, item.title, content_kind.keywords, item.modificationDate
            FROM item_words JOIN item ON item.id = item_words.rowid JOIN content_kind ON content_kind.id = item.kindId
            WHERE item_words MATCH :match AND \(Self.inDomain) AND \(Self.notExpired)
            """, arguments: nameArguments(tokens, domain: domain))
        var matches: [NameMatch] = []
        while let row = try cursor.next() {
            let identifier: Data = row[1]
            let id = ItemIdentifier(bytes: Array(identifier))
            let rowID: Int64 = row[0]
            if wholeInName.contains(rowID) {
                matches.append(NameMatch(best: rowID, identifier: id, modificationDate: row[5] ?? 0))
                continue
            }
            // The stored title and keywords lack only what the name gives (``StoredText``):
            // words that rank at least as well from the name.
            let title: String? = row[3]
            let keywords: String? = row[4]
            matches.append(NameMatch(id: row[0], identifier: id, modificationDate: row[5] ?? 0, tokens: tokens,
                                     name: NameTokenizer.words(in: (row[2] as String?) ?? "")) {
                [NameTokenizer.words(in: title ?? ""), NameTokenizer.words(in: keywords ?? ""),
                 id.parentComponents.flatMap(NameTokenizer.words(in:))]
            })
        }
        return matches
    }

    /// The first `limit` results when the best rank alone fills them, else `nil`.
    ///
    /// Items with every word whole in their name rank first, and among them the most recently
    /// modified: SQLite walks the modification-date index newest first and stops after `limit`
    /// such items, instead of ranking every candidate (a common word matches a large part of
    /// a big index). Items that tie with the last one on date are all fetched, so that the
    /// order by identifier among them is exact.
    static func bestMatchesByDate(_ tokens: [String], domain: String?, limit: Int, in db: Database) throws -> [NameMatch]? {
        let whole = "name : (" + tokens.map(quoted).joined(separator: " AND ") + ")"
        let best = Set(try Int64.fetchAll(db, sql: "SELECT rowid FROM item_words WHERE item_words MATCH ?", arguments: [whole]))
        guard best.count >= limit else { return nil }
        var domainID: Int64?
        if let domain {
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM domain WHERE name = ?", arguments: [domain]) else {
                return []
            }
            domainID = id
        }
        let now = Date().timeIntervalSince1970
        // The date index alone (it holds the row ids): only hits are looked up in the table.
        let newestFirst = try Row.fetchCursor(db, sql: """
            SELECT id, modificationDate FROM item INDEXED BY item_by_modification_date
            WHERE modificationDate > 0 ORDER BY modificationDate DESC
            """)
        let details = try db.cachedStatement(sql: "SELECT identifier, domainId, expirationDate FROM item WHERE id = ?")
        var matches: [NameMatch] = []
        var boundary: Double?
        while let row = try newestFirst.next() {
            let id: Int64 = row[0]
            let date: Double = row[1]
            if let boundary, date < boundary { break }
            guard best.contains(id), let detail = try Row.fetchOne(details, arguments: [id]) else { continue }
            if let domainID, detail[1] as Int64 != domainID { continue }
            if let expiration: Double = detail[2], expiration <= now { continue }
            let identifier: Data = detail[0]
            matches.append(NameMatch(best: id, identifier: ItemIdentifier(bytes: Array(identifier)), modificationDate: date))
            // Keep going through the items dated like the last one: ties are ordered by identifier.
            if matches.count == limit { boundary = date }
        }
        guard boundary != nil else { return nil }
        matches.sort()
        return Array(matches.prefix(limit))
    }

    /// Full items for `ids`, in the order of `ids`.
    static func fetchItems(ids: [Int64], in db: Database) throws -> [IndexedItem] {
        guard !ids.isEmpty else { return [] }
        var byID: [Int64: IndexedItem] = [:]
        for chunk in stride(from: 0, to: ids.count, by: 500).map({ ids[$0..<min($0 + 500, ids.count)] }) {
            let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ",")
            let rows = try Row.fetchAll(db, sql: """
                SELECT item.id AS rowID, \(itemColumns) FROM item \(itemJoins) WHERE item.id IN (\(placeholders))
                """, arguments: StatementArguments(Array(chunk)))
            for row in rows { byID[row["rowID"]] = IndexedItem(row: row) }
        }
        return ids.compactMap { byID[$0] }
    }
}

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

    /// Ranks a candidate. Most candidates match every word as a whole word of their name, the
    /// best rank there is: the other fields are only split into words when that is not so.
    init(id: Int64, identifier: ItemIdentifier, modificationDate: Double, tokens: [String], name: [String],
         otherFields: () -> [[String]]) {
        self.id = id
        self.identifier = identifier
        self.modificationDate = modificationDate
        if tokens.allSatisfy(name.contains) {
            prefixOnlyCount = 0
            fieldRank = 0
            return
        }
        let fields = [name] + otherFields()
        var prefixOnly = 0
        var rank = 0
        for token in tokens {
            let whole = fields.firstIndex { $0.contains(token) }
            let prefix = fields.firstIndex { $0.contains { $0.hasPrefix(token) } }
            if whole == nil { prefixOnly += 1 }
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
