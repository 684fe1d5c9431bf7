/// A string value of a query: literal text with `*` wildcards.
///
/// `"report*"` is the literal `report` followed by a wildcard; `"a\*b"` is the literal `a*b`.
///
/// Patterns compare by their normalized components, so `"a**b"` and `"a*b"` are equal. The
/// parser makes them (``QueryParser``); the SQLite index binds their encoded form, the
/// PostgreSQL index writes them as `LIKE` patterns or regular expressions, and
/// ``QueryExpression/matches(_:now:calendar:)`` matches them in memory, byte for byte.
///
/// ```swift
/// let pattern = QueryPattern([.literal("report"), .wildcard])
/// pattern.hasWildcard   // true
/// pattern.description   // "report*", quotes included
/// ```
public struct QueryPattern: Hashable, Sendable, CustomStringConvertible {
    /// A piece of a pattern.
    public enum Component: Hashable, Sendable {
        /// Text matched as written (under the string's modifiers).
        case literal(String)
        /// `*`: any run of characters, possibly empty.
        case wildcard
    }

    /// The pieces, with adjacent literals merged and runs of wildcards collapsed.
    public let components: [Component]

    /// Creates a pattern, normalizing its components.
    ///
    /// Empty literals are dropped, adjacent literals joined, and consecutive wildcards kept as one.
    public init(_ components: [Component]) {
        var normalized: [Component] = []
        for component in components {
            switch (normalized.last, component) {
            case (.wildcard, .wildcard): continue
            case (.literal(let previous), .literal(let text)): normalized[normalized.count - 1] = .literal(previous + text)
            case (_, .literal(let text)) where text.isEmpty: continue
            default: normalized.append(component)
            }
        }
        self.components = normalized
    }

    /// A pattern without wildcards.
    public init(literal: String) { self.init([.literal(literal)]) }

    /// Whether the pattern has a wildcard.
    public var hasWildcard: Bool { components.contains(.wildcard) }

    /// The text with wildcards written as `*`: what ordering comparisons use.
    ///
    /// A literal `*` and a wildcard read the same here: an ordering (`<`, `>=`) compares text, and
    /// a pattern has no meaning there.
    public var text: String {
        components.map { if case .literal(let text) = $0 { text } else { "*" } }.joined()
    }

    /// The literal text before the first wildcard.
    var literalPrefix: String {
        if case .literal(let text) = components.first { text } else { "" }
    }

    /// Whether the pattern is a non-empty literal followed by one wildcard: `"abc*"`.
    var isPrefixPattern: Bool {
        components.count == 2 && components[1] == .wildcard && !literalPrefix.isEmpty
    }

    /// The pattern with each literal transformed.
    ///
    /// Used to fold a pattern's literals (case, diacritics) while keeping its wildcards.
    func mapLiterals(_ transform: (String) -> String) -> QueryPattern {
        QueryPattern(components.map { if case .literal(let text) = $0 { .literal(transform(text)) } else { .wildcard } })
    }

    /// The pattern as one string, where `*` is a wildcard and `\*` and `\\` are literals:
    /// the form bound to SQL parameters.
    var encoded: String {
        written(wildcard: "*", escaping: ["*", "\\"])
    }

    /// The pattern written with `wildcard` for each wildcard and a backslash before each
    /// character of a literal in `special`: the one writer of the encoded form, the query
    /// string and a backend's `LIKE` pattern.
    package func written(wildcard: String, escaping special: Set<Character>) -> String {
        var result = ""
        for component in components {
            switch component {
            case .wildcard: result += wildcard
            case .literal(let text):
                for character in text {
                    if special.contains(character) { result.append("\\") }
                    result.append(character)
                }
            }
        }
        return result
    }

    /// Decodes ``encoded``.
    ///
    /// A trailing lone backslash is dropped.
    init(encoded: String) {
        var components: [Component] = []
        var literal = ""
        var escaped = false
        for character in encoded {
            if escaped {
                literal.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "*" {
                components.append(.literal(literal))
                literal = ""
                components.append(.wildcard)
            } else {
                literal.append(character)
            }
        }
        components.append(.literal(literal))
        self.init(components)
    }

    /// The pattern as a double-quoted query string (without modifiers).
    ///
    /// Parses back to the same pattern: `*`, `\` and `"` of the literals are escaped.
    public var description: String {
        "\"" + written(wildcard: "*", escaping: ["*", "\\", "\""]) + "\""
    }

    /// Whether `text` matches the whole pattern, comparing UTF-8 bytes (as SQLite's `=` does).
    ///
    /// No folding: a caller that wants `c` or `d` folds both sides first (``mapLiterals(_:)``).
    func matches(_ text: String) -> Bool {
        WildcardMatcher.matches(Array(text.utf8), byteTokens)
    }

    /// Whether `bytes` match the whole pattern, comparing literals by their UTF-8 bytes.
    func matches(bytes: [UInt8]) -> Bool {
        WildcardMatcher.matches(bytes, byteTokens)
    }

    /// The pattern as UTF-8 bytes and wildcards. UTF-8 is self-synchronizing, so a literal
    /// never matches inside another character and byte matching equals character matching.
    var byteTokens: [WildcardMatcher.Token<UInt8>] {
        components.flatMap { component -> [WildcardMatcher.Token<UInt8>] in
            switch component {
            case .wildcard: [.wildcard]
            case .literal(let text): text.utf8.map { .element($0) }
            }
        }
    }
}
