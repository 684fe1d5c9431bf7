/// Ranks a candidate of a name query from the UTF-8 bytes of its fields, without making
/// strings, when every field is ASCII (most are).
///
/// For each field (name, title, keywords, folders) and each query word it keeps two bits,
/// whether a word of the field is the query word and whether one starts with it, then ranks
/// the way ``NameMatch`` does on split words: no allocation per candidate.
struct ASCIIFieldRank {
    /// The folded query words, as UTF-8.
    private let tokens: [[UInt8]]

    /// A ranker for `tokens`, or `nil` when they are too many for one bit each.
    init?(_ tokens: [String]) {
        guard tokens.count <= 64 else { return nil }
        self.tokens = tokens.map { Array($0.utf8) }
    }

    /// `(prefixOnlyCount, fieldRank)` of ``NameMatch`` for these fields, as UTF-8; `nil` when
    /// one of them is not all ASCII.
    func rank(name: UnsafeBufferPointer<UInt8>, title: UnsafeBufferPointer<UInt8>,
              keywords: UnsafeBufferPointer<UInt8>, folders: UnsafeBufferPointer<UInt8>)
        -> (prefixOnlyCount: Int, fieldRank: Int)? {
        guard let inName = matches(in: name), let inTitle = matches(in: title),
              let inKeywords = matches(in: keywords), let inFolders = matches(in: folders) else { return nil }
        let whole = (inName.whole, inTitle.whole, inKeywords.whole, inFolders.whole)
        let prefix = (inName.prefix, inTitle.prefix, inKeywords.prefix, inFolders.prefix)
        var prefixOnly = 0
        var rank = 0
        for index in tokens.indices {
            let bit = UInt64(1) << index
            let wholeField = Self.firstField(with: bit, in: whole)
            if wholeField == nil { prefixOnly += 1 }
            rank += wholeField ?? Self.firstField(with: bit, in: prefix) ?? 4
        }
        return (prefixOnly, rank)
    }

    /// The bits of the query words that are a word of `bytes`, and of those that start one;
    /// `nil` when `bytes` is not all ASCII.
    private func matches(in bytes: UnsafeBufferPointer<UInt8>) -> (whole: UInt64, prefix: UInt64)? {
        var whole: UInt64 = 0
        var prefix: UInt64 = 0
        let isASCII = NameTokenizer.forEachASCIIWord(in: bytes) { range in
            for (index, token) in tokens.enumerated() where token.count <= range.count {
                guard Self.word(bytes, at: range.lowerBound, startsWith: token) else { continue }
                prefix |= 1 << index
                if token.count == range.count { whole |= 1 << index }
            }
        }
        return isASCII ? (whole, prefix) : nil
    }

    /// The first of the four fields whose bits hold `bit`.
    private static func firstField(with bit: UInt64, in bits: (UInt64, UInt64, UInt64, UInt64)) -> Int? {
        if bits.0 & bit != 0 { return 0 }
        if bits.1 & bit != 0 { return 1 }
        if bits.2 & bit != 0 { return 2 }
        if bits.3 & bit != 0 { return 3 }
        return nil
    }

    /// Whether the word at `start` of `bytes` (ASCII, any case) starts with `token` (folded),
    /// which it is no shorter than.
    private static func word(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, startsWith token: [UInt8]) -> Bool {
        for index in token.indices where NameTokenizer.lowercased(bytes[start + index]) != token[index] { return false }
        return true
    }
}
