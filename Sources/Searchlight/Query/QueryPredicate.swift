/// One test of a query: `attribute op value`, or `InRange(attribute, low, high)`.
public struct QueryPredicate: Hashable, Sendable, CustomStringConvertible {
    /// A comparison operator.
    public enum Operator: String, Hashable, Sendable, CaseIterable {
        /// `==`, `!=`, `<`, `>`, `<=` and `>=`, as written in queries.
        case equal = "==", notEqual = "!=", less = "<", greater = ">", lessOrEqual = "<=", greaterOrEqual = ">="
    }

    /// What the predicate checks of the attribute.
    public enum Test: Hashable, Sendable {
        /// `attribute op value`.
        case comparison(Operator, QueryValue)
        /// `InRange(attribute, low, high)`: `low <= attribute <= high` (for a period, up to its end).
        case inRange(QueryValue, QueryValue)
    }

    /// The attribute tested.
    public var attribute: QueryAttribute
    /// The test.
    public var test: Test

    /// A predicate that applies `test` to `attribute`.
    public init(attribute: QueryAttribute, test: Test) {
        self.attribute = attribute
        self.test = test
    }

    /// The predicate as written in a query.
    public var description: String {
        switch test {
        case .comparison(let op, let value): "\(attribute) \(op.rawValue) \(value)"
        case .inRange(let low, let high): "InRange(\(attribute), \(low), \(high))"
        }
    }
}
