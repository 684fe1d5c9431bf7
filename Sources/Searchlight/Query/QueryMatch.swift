/// A predicate of a query that holds for an item, and the attributes that satisfied it:
/// what `searchlight query --explain` shows for each result.
public struct QueryMatch: Hashable, Sendable, CustomStringConvertible {
    /// The predicate, as parsed.
    public var predicate: QueryPredicate
    /// The attributes that satisfied it: the predicate's own, or for `*` the text attributes that matched.
    public var attributes: [QueryAttribute]

    /// A match of `predicate`, satisfied by `attributes`.
    public init(predicate: QueryPredicate, attributes: [QueryAttribute]) {
        self.predicate = predicate
        self.attributes = attributes
    }

    /// `title == "report*"cd (title)`.
    public var description: String {
        "\(predicate) (\(attributes.map(\.name).joined(separator: ", ")))"
    }
}
