extension QueryPattern {
    /// The pattern's words as `w` and `t` match them (split like names, folded; a wildcard
    /// stays in the word it touches): for query compilers outside this module (PostgreSQL).
    public var words: [QueryPattern] { QueryTextMatcher.words(of: self) }
}

extension QueryValue {
    /// A string value as a pattern and its modifiers (a single-quoted string is a literal
    /// without modifiers); `nil` for numbers and dates. For query compilers outside this module.
    public var patternAndModifiers: (pattern: QueryPattern, modifiers: QueryStringModifiers)? { stringPattern }
}
