
/// Ranks candidates of a name query from the UTF-8 bytes of their fields, as ``NameMatch``
/// ranks split words, with no allocation for an ASCII field (most of them).
///
/// For each field (name, title, keywords, folders) it keeps two bits per query word: whether
/// a word of the field is the query word, and whether one starts with it. An ASCII field is
/// checked on its bytes; any other is split into folded words, as ranking did before.
struct CandidateRank {
    /// The folded query words.
    private let tokens: [String]
    /// The same, as UTF-8.
    private let tokenBytes: [[UInt8]]
    /// Whether every query word is ASCII: then a field's folded text that holds none of them
    /// has no word matching one (see ``NameFolds/foldedScalars(of:)``).
    private let asciiTokens: Bool
    /// Folds met so far: candidates share words (their folders' above all).
    private var folds = NameFolds()
    /// The last candidate's folders and their matches: candidates come in row order, in
    /// which the items of one folder follow each other (a scan adds a folder's files
    /// together), and comparing bytes costs less than splitting the folders into words again.
    private var lastFolders: [UInt8] = []
    private var lastFolderMatches: (whole: UInt64, prefix: UInt64)?
    /// The matches of keywords that are a kind's alone (``CandidateKeywords/Key``): a common
    /// word's candidates have a few dozen kinds.
    private var kindMatches = KindTable<(whole: UInt64, prefix: UInt64)>()
    private var lastKindMatches: (kind: CandidateKeywords.Key, matches: (whole: UInt64, prefix: UInt64))?

    /// The bits of the compound tokens (``CompoundWords``): matched on a field's words, in order.
    private let compounds: UInt64
    /// For each token, the bytes a field that matches it must hold when folded: a plain
    /// token's, a compound's first part's.
    private let heldBytes: [[UInt8]]

    /// A ranker for `tokens`, or `nil` when they are too many for one bit each.
    init?(_ tokens: [String]) {
        guard tokens.count <= 64 else { return nil }
        self.tokens = tokens
        tokenBytes = tokens.map { Array($0.utf8) }
        asciiTokens = tokenBytes.allSatisfy { $0.allSatisfy { $0 < 0x80 } }
        var compounds: UInt64 = 0
        for (index, token) in tokens.enumerated() where CompoundWords.isCompound(token) { compounds |= 1 << index }
        self.compounds = compounds
        heldBytes = tokens.map { Array(CompoundWords.parts(of: $0)[0].utf8) }
    }

    /// `(prefixOnlyCount, fieldRank)` of ``NameMatch`` for these fields, as UTF-8; `nil` when
    /// a compound matches in none of them (its parts are there, but not in order).
    ///
    /// - Parameter kind: What the keywords are when they are their kind's alone: then their
    ///   matches are worked out once per kind.
    mutating func rank(name: UnsafeBufferPointer<UInt8>, title: UnsafeBufferPointer<UInt8>,
                       keywords: UnsafeBufferPointer<UInt8>, kind: CandidateKeywords.Key? = nil,
                       folders: UnsafeBufferPointer<UInt8>)
        -> (prefixOnlyCount: Int, fieldRank: Int)? {
        let inName = matches(in: name)
        let inTitle = matches(in: title)
        let inKeywords: (whole: UInt64, prefix: UInt64)
        if let kind, let last = lastKindMatches, last.kind == kind {
            inKeywords = last.matches
        } else if let kind, let known = kindMatches[kind] {
            inKeywords = known
            lastKindMatches = (kind, known)
        } else {
            inKeywords = matches(in: keywords)
            if let kind {
                kindMatches[kind] = inKeywords
                lastKindMatches = (kind, inKeywords)
            }
        }
        let inFolders = folderMatches(in: folders)
        let whole = (inName.whole, inTitle.whole, inKeywords.whole, inFolders.whole)
        let prefix = (inName.prefix, inTitle.prefix, inKeywords.prefix, inFolders.prefix)
        var prefixOnly = 0
        var rank = 0
        for index in tokens.indices {
            let bit = UInt64(1) << index
            let wholeField = Self.firstField(with: bit, in: whole)
            if wholeField == nil { prefixOnly += 1 }
            let field = wholeField ?? Self.firstField(with: bit, in: prefix)
            if field == nil, compounds & bit != 0 { return nil }
            rank += field ?? 4
        }
        return (prefixOnly, rank)
    }

    /// The bits of the query words that are a word of `bytes`, and of those that start one.
    mutating func matches(in bytes: UnsafeBufferPointer<UInt8>) -> (whole: UInt64, prefix: UInt64) {
        var whole: UInt64 = 0
        var prefix: UInt64 = 0
        let isASCII = NameTokenizer.forEachASCIIWord(in: bytes) { range in
            for (index, token) in tokenBytes.enumerated() where token.count <= range.count {
                guard NameTokenizer.bytes(bytes, at: range.lowerBound, startWith: token) else { continue }
                prefix |= 1 << index
                if token.count == range.count { whole |= 1 << index }
            }
        }
        if isASCII {
            guard compounds != 0, bytes.count > 0 else { return (whole, prefix) }
            // A compound's parts in order: on the words, as strings (compound queries are few).
            let words = NameTokenizer.words(in: String(decoding: bytes, as: UTF8.self))
            for (index, token) in tokens.enumerated() where compounds & (1 << index) != 0 {
                let found = CompoundWords.match(token, in: words)
                if found.whole { whole |= 1 << index }
                if found.prefix { prefix |= 1 << index }
            }
            return (whole, prefix)
        }
        if asciiTokens {
            let folded = folds.foldedScalars(of: bytes)
            guard heldBytes.contains(where: { folded.contains($0) }) else { return (0, 0) }
        }
        let words = NameTokenizer.words(in: String(decoding: bytes, as: UTF8.self)) { folds.fold($0) }
        for (index, token) in tokens.enumerated() {
            let found = CompoundWords.match(token, in: words)
            if found.whole { whole |= 1 << index }
            if found.prefix { prefix |= 1 << index }
        }
        return (whole, prefix)
    }

    /// ``matches(in:)`` of a candidate's folders, remembered for the next candidate.
    private mutating func folderMatches(in folders: UnsafeBufferPointer<UInt8>) -> (whole: UInt64, prefix: UInt64) {
        if let last = lastFolderMatches, lastFolders.count == folders.count,
           lastFolders.elementsEqual(folders) {
            return last
        }
        let found = matches(in: folders)
        lastFolders.removeAll(keepingCapacity: true)
        lastFolders.append(contentsOf: folders)
        lastFolderMatches = found
        return found
    }

    /// The first of the four fields whose bits hold `bit`.
    private static func firstField(with bit: UInt64, in bits: (UInt64, UInt64, UInt64, UInt64)) -> Int? {
        if bits.0 & bit != 0 { return 0 }
        if bits.1 & bit != 0 { return 1 }
        if bits.2 & bit != 0 { return 2 }
        if bits.3 & bit != 0 { return 3 }
        return nil
    }
}
