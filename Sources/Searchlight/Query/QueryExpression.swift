/// A parsed query: predicates combined with `&&`, `||` and `!`.
///
/// ```swift
/// let expression = try QueryExpression(parsing: #"title == "report*"cd && size > 1000"#)
/// ```
///
/// ## Overview
///
/// The expression is what every backend receives: ``SearchableIndex/query(_:domain:limit:)``
/// and the PostgreSQL index compile it to SQL, ``matches(_:now:calendar:)`` evaluates it in
/// memory, and the query string of ``SearchWords`` (a search box's `kind:` and `tag:` words)
/// is parsed into one. It is a
/// value (`Hashable`, `Sendable`): parse once, run many times. Relative dates stay relative
/// (``QueryDate``): they are resolved each time the expression runs.
///
/// An expression can be built without parsing, and prints as a query string that parses
/// back to it:
///
/// ```swift
/// let pictures = QueryExpression.and([
///     .predicate(QueryPredicate(attribute: .contentTypeTree, test: .comparison(.equal, .exactString("image")))),
///     .not(.predicate(QueryPredicate(attribute: .pixelWidth, test: .comparison(.less, .number(1000))))),
/// ])
/// print(pictures)   // (contentTypeTree == 'image' && !pixelWidth < 1000)
/// ```
///
/// ## Topics
///
/// ### Making an expression
///
/// - ``init(parsing:)``
/// - ``predicate(_:)``
/// - ``and(_:)``
/// - ``or(_:)``
/// - ``not(_:)``
///
/// ### Reading it
///
/// - ``predicates``
/// - ``description``
/// - ``matches(_:now:calendar:)``
/// - ``explanation(for:now:calendar:)``
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
