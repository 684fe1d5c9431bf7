/// Where an item is in an index: its domain and its identifier, the pair that identifies it
/// (Docs/Contract.md#what-is-indexed). What a search that prints paths returns instead of the items.
public struct ItemReference: Hashable, Sendable {
    /// The item's domain (for the file indexer, its root's domain).
    public var domain: String
    /// The item's identifier in its domain (for the file indexer, its path relative to the root).
    public var identifier: ItemIdentifier

    /// The item `identifier` of `domain`.
    public init(domain: String, identifier: ItemIdentifier) {
        self.domain = domain
        self.identifier = identifier
    }
}

extension SearchableItem {
    /// Where the item is: its domain and identifier.
    public var reference: ItemReference { ItemReference(domain: domainIdentifier, identifier: uniqueIdentifier) }
}
