/// A malformed query: where it went wrong, what was expected there and what was found.
///
/// Prints as one line; ``caretDisplay`` shows the query with a caret under the column:
///
/// ```
/// title == "report
///          ^
/// ```
public struct QueryParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The query string.
    public var query: String
    /// The 1-based column (in characters) where the query went wrong.
    public var column: Int
    /// What the parser expected there, such as "an operator (==, !=, <, >, <=, >=)".
    public var expected: String
    /// What it found, such as "`foo`" or "end of query".
    public var found: String

    /// An error in `query` at `column` (1-based, in characters): `expected` was expected, `found`
    /// was found.
    public init(query: String, column: Int, expected: String, found: String) {
        self.query = query
        self.column = column
        self.expected = expected
        self.found = found
    }

    /// `invalid query at column 9: expected …, found …`.
    public var description: String {
        "invalid query at column \(column): expected \(expected), found \(found)"
    }

    /// Two lines: the query (tabs and line breaks shown as spaces), then a caret under ``column``.
    public var caretDisplay: String {
        let line = String(query.map { $0.isNewline || $0 == "\t" ? " " : $0 })
        return line + "\n" + String(repeating: " ", count: max(0, column - 1)) + "^"
    }
}
