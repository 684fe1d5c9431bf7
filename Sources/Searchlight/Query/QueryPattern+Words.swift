extension QueryPattern {
    /// The pattern's words as `w` and `t` match them (split like names, folded; a wildcard
    /// stays in the word it touches): for query compilers outside this module (PostgreSQL).
    public var words: [QueryPattern] { QueryTextMatcher.words(of: self) }

    /// Whether this word holds Han or kana: it is then found anywhere in a run of such
    /// characters, spaces between them left out, rather than as a whole word (no word
    /// splitter for those scripts in the indexer).
    public var isCJKWord: Bool { QueryTextMatcher.isCJK(self) }

    /// The folded word the value stands for when it is matched against an item's text and the
    /// full-text index alone decides (``QueryTextMatcher/textWord(of:_:)``: one plain word under
    /// `cdw`); `nil` otherwise.
    public func textWord(_ modifiers: QueryStringModifiers) -> String? { QueryTextMatcher.textWord(of: self, modifiers) }
}

extension QueryValue {
    /// A string value as a pattern and its modifiers (a single-quoted string is a literal
    /// without modifiers); `nil` for numbers and dates. For query compilers outside this module.
    public var patternAndModifiers: (pattern: QueryPattern, modifiers: QueryStringModifiers)? { stringPattern }
}
