import Foundation

/// Decides whether a string (or a list of strings, or identifier bytes) satisfies a string
/// comparison of a query. The SQL function `searchlight_test` and the Swift evaluator both
/// use it, so that the database and explanations agree.
///
/// - Without `w` or `t`, `==` matches the whole value against the pattern (`*` matches any run
///   of characters); `c` folds case, `d` removes diacritics, on both sides.
/// - With `w`, the value's words match whole, consecutive words of the text (``NameTokenizer``'s
///   words, which split on case changes); `*` inside a word is a wildcard (`"rep*"w`). With `t`, each word of the value
///   starts some word of the text, in any order. Words are compared folded; without `c` (or `d`)
///   each literal piece of the value must also appear in the text with its case (or diacritics).
///   On an item's text, one plain word under `w`, `c` and `d` (``textWord(of:_:)``, what
///   Finder asks) is a word of the text as the full-text index has it (``TextWords``: every
///   run of word characters whole — `iPhone` is `iphone` — and every part name search splits
///   off): the index alone answers it, on both backends, for the most common words too.
/// - `<`, `>`, `<=`, `>=` compare the (folded) UTF-8 bytes, as SQLite's `BINARY` collation does;
///   `*` is literal there.
/// - On a list, a predicate holds when it holds for some element; `!=` holds when no element
///   equals the value. A missing value (or an empty list) satisfies no predicate.
struct QueryTextMatcher: Sendable {
    static let listSeparator = SearchableIndex.keywordSeparator

    let op: QueryPredicate.Operator
    let modifiers: QueryStringModifiers
    let isList: Bool
    /// The original pattern, for byte-wise matching of identifiers.
    private let rawTokens: [WildcardMatcher.Token<UInt8>]
    /// The pattern folded as the modifiers say.
    private let tokens: [WildcardMatcher.Token<UInt8>]
    /// The value's words (``words(of:)``), each as a whole-word and as a prefix pattern.
    private let words: [(whole: [WildcardMatcher.Token<UInt8>], prefix: [WildcardMatcher.Token<UInt8>])]
    /// The value's words of Han or kana characters, folded: found anywhere in a run of such
    /// characters (the indexer has no ICU to split runs into words; ``ContentWords``).
    private let cjkWords: [[WildcardMatcher.Token<UInt8>]]
    /// Literal pieces that must appear in the text when `w`/`t` matching is case- or diacritic-sensitive.
    private let requiredPieces: [String]
    private let orderingKey: [UInt8]
    /// The one word of the value, when the value is a text's and that word alone decides.
    private let textWord: String?

    init(op: QueryPredicate.Operator, pattern: QueryPattern, modifiers: QueryStringModifiers, isList: Bool,
         isText: Bool = false) {
        self.op = op
        self.modifiers = modifiers
        self.isList = isList
        self.textWord = isText && !isList ? Self.textWord(of: pattern, modifiers) : nil
        self.rawTokens = pattern.byteTokens
        self.tokens = pattern.mapLiterals { Self.fold($0, modifiers) }.byteTokens
        let allWords = Self.words(of: pattern)
        self.words = allWords.filter { !Self.isCJK($0) }.map { ($0.byteTokens, $0.byteTokens + [.wildcard]) }
        self.cjkWords = allWords.filter(Self.isCJK).map { [.wildcard] + $0.byteTokens + [.wildcard] }
        if modifiers.isSuperset(of: [.caseInsensitive, .diacriticInsensitive]) {
            requiredPieces = []
        } else {
            requiredPieces = pattern.components.flatMap { component -> [String] in
                guard case .literal(let text) = component else { return [] }
                return text.split(whereSeparator: \.isWhitespace).map { Self.fold(String($0), modifiers) }
            }
        }
        orderingKey = Array(Self.fold(pattern.text, modifiers).utf8)
    }

    /// Whether `text` (a stored column value; a list joined by ``listSeparator`` when ``isList``) matches.
    func matches(_ text: String) -> Bool {
        if isList {
            return matches(elements: text.split(separator: Self.listSeparator).map(String.init))
        }
        return matchesOne(text)
    }

    /// Whether a list of values matches: some element for `==` and orderings, none for `!=`.
    func matches(elements: [String]) -> Bool {
        guard !elements.isEmpty else { return false }
        if op == .notEqual { return !elements.contains(where: isEqual) }
        return elements.contains(where: matchesOne)
    }

    /// Whether identifier bytes match; compared as bytes unless modifiers ask for folding or words.
    func matches(bytes: [UInt8]) -> Bool {
        guard modifiers.isEmpty else { return matches(String(decoding: bytes, as: UTF8.self)) }
        switch op {
        case .equal: return WildcardMatcher.matches(bytes, rawTokens)
        case .notEqual: return !WildcardMatcher.matches(bytes, rawTokens)
        default: return compare(bytes)
        }
    }

    private func matchesOne(_ text: String) -> Bool {
        switch op {
        case .equal: isEqual(text)
        case .notEqual: !isEqual(text)
        default: compare(Array(Self.fold(text, modifiers).utf8))
        }
    }

    private func compare(_ key: [UInt8]) -> Bool {
        switch op {
        case .less: key.lexicographicallyPrecedes(orderingKey)
        case .lessOrEqual: !orderingKey.lexicographicallyPrecedes(key)
        case .greater: orderingKey.lexicographicallyPrecedes(key)
        case .greaterOrEqual: !key.lexicographicallyPrecedes(orderingKey)
        case .equal, .notEqual: false
        }
    }

    private func isEqual(_ text: String) -> Bool {
        if let textWord { return TextWords.words(of: text).contains(textWord) }
        guard modifiers.isWordMatch else { return WildcardMatcher.matches(Array(Self.fold(text, modifiers).utf8), tokens) }
        guard !words.isEmpty || !cjkWords.isEmpty else { return false }
        if !requiredPieces.isEmpty {
            let folded = Self.fold(text, modifiers)
            guard requiredPieces.allSatisfy({ folded.contains($0) }) else { return false }
        }
        if !cjkWords.isEmpty {
            let joined = Array(NameTokenizer.fold(ContentWords.joinedCJK(text)).utf8)
            guard cjkWords.allSatisfy({ WildcardMatcher.matches(joined, $0) }) else { return false }
            if words.isEmpty { return true }
        }
        let textWords = NameTokenizer.words(in: text).map { Array($0.utf8) }
        if modifiers.contains(.wordBased) {
            guard textWords.count >= words.count else { return false }
            let found = (0...(textWords.count - words.count)).contains { start in
                words.indices.allSatisfy { j in
                    let candidate = textWords[start + j]
                    return WildcardMatcher.matches(candidate, words[j].whole)
                }
            }
            guard found else { return false }
        }
        if modifiers.contains(.tokenized) {
            guard words.allSatisfy({ word in textWords.contains { WildcardMatcher.matches($0, word.prefix) } }) else { return false }
        }
        return true
    }

    /// The folded word a text's value stands for when the full-text index alone decides: `w`
    /// with `c` and `d` (not `t`), and the value one word without wildcard, the same to name
    /// search's splitting and the index's (`"invoice"`, not `"iPhone"` nor `"report2024"`,
    /// which are two words to name search), and of no script written without spaces.
    static func textWord(of pattern: QueryPattern, _ modifiers: QueryStringModifiers) -> String? {
        guard modifiers.isSuperset(of: [.caseInsensitive, .diacriticInsensitive]), modifiers.contains(.wordBased),
              !modifiers.contains(.tokenized), !pattern.hasWildcard else { return nil }
        let words = words(of: pattern)
        guard words.count == 1, let word = words.first, !isCJK(word),
              TextWords.words(of: pattern.text) == [word.text] else { return nil }
        return word.text
    }

    /// Folds `text` as the modifiers say: `c` lowercases, `d` removes diacritics.
    static func fold(_ text: String, _ modifiers: QueryStringModifiers) -> String {
        switch (modifiers.contains(.caseInsensitive), modifiers.contains(.diacriticInsensitive)) {
        case (true, true): return NameTokenizer.fold(text)
        case (true, false): return text.lowercased()
        case (false, true):
            var scalars = String.UnicodeScalarView()
            for scalar in UnicodeNormalization.normalized(text, .D).unicodeScalars
            where scalar.properties.generalCategory != .nonspacingMark {
                scalars.append(scalar)
            }
            return String(scalars)
        case (false, false): return text
        }
    }

    /// The words of a pattern, split like names (``NameTokenizer``) and folded; a wildcard stays
    /// inside the word it touches (`"quart* rep"` → `quart*`, `rep`).
    static func words(of pattern: QueryPattern) -> [QueryPattern] {
        var words: [QueryPattern] = []
        var current: [QueryPattern.Component] = []
        func flush() {
            if !current.isEmpty { words.append(QueryPattern(current)) }
            current = []
        }
        func isWordCharacter(_ character: Character?) -> Bool {
            character.map { $0.isLetter || $0.isNumber } ?? false
        }
        for component in pattern.components {
            switch component {
            case .wildcard:
                current.append(.wildcard)
            case .literal(let text):
                let pieces = NameTokenizer.words(in: text)
                for (index, piece) in pieces.enumerated() {
                    if index == 0, current.last == .wildcard, isWordCharacter(text.first) {
                        current.append(.literal(piece))
                    } else {
                        flush()
                        current = [.literal(piece)]
                    }
                }
                if pieces.isEmpty || !isWordCharacter(text.last) { flush() }
            }
        }
        flush()
        return words
    }

    static func isCJK(_ word: QueryPattern) -> Bool {
        word.text.unicodeScalars.contains(where: ContentWords.isSplitCJK)
    }

    /// FTS5 terms for the value's words, which a text the value matches with `w` or `t` has:
    /// a word without wildcard is a whole term under `w` (`"paris"`), else its literal prefix
    /// is a prefix term (`"rep"*`); a word that starts with a wildcard gives none. They let
    /// the full-text index preselect candidates.
    static func fullTextTerms(of pattern: QueryPattern, _ modifiers: QueryStringModifiers, forText: Bool) -> [String] {
        words(of: pattern).compactMap { word in
            let prefix = word.literalPrefix
            // A word that starts with a wildcard gives no term (its literal start is empty).
            guard !prefix.isEmpty else { return nil }
            // Found anywhere in a name's run: no name term holds it; in text, its characters.
            if isCJK(word) { return forText ? ContentSearch.term(prefix, whole: true) : nil }
            let quoted = SearchableIndex.quoted(prefix)
            return modifiers.contains(.wordBased) && !word.hasWildcard ? quoted : quoted + "*"
        }
    }
}
