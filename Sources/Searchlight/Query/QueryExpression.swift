/// A parsed query: predicates combined with `&&`, `||` and `!`.
///
/// ```swift
/// let expression = try QueryExpression(parsing: #"title == "report*"cd && size > 1000"#)
/// ```
public indirect enum QueryExpression: Hashable, Sendable, CustomStringConvertible {
    /// One test (`title == "report*"cd`).
    case predicate(QueryPredicate)
    /// Every operand holds (`&&`).
    case and([QueryExpression])
    /// Some operand holds (`||`).
    case or([QueryExpression])
    /// The operand does not hold (`!`).
    case not(QueryExpression)

    /// Parses a query string.
    ///
    /// - Throws: ``QueryParseError`` with the column where the query went wrong.
    public init(parsing queryString: String) throws(QueryParseError) {
        self = try QueryParser.parse(queryString)
    }

    /// The expression as a query string, fully parenthesized; parsing it gives the same expression.
    public var description: String {
        switch self {
        case .predicate(let predicate): predicate.description
        case .and(let operands): "(" + operands.map(\.description).joined(separator: " && ") + ")"
        case .or(let operands): "(" + operands.map(\.description).joined(separator: " || ") + ")"
        case .not(let operand): "!" + operand.description
        }
    }

    /// The predicates of the expression, in order.
    public var predicates: [QueryPredicate] {
        switch self {
        case .predicate(let predicate): [predicate]
        case .and(let operands), .or(let operands): operands.flatMap(\.predicates)
        case .not(let operand): operand.predicates
        }
    }
}
