/// How the result set of a live query changed: what `mdfind -live` prints.
public struct QueryResultChange: Hashable, Sendable {
    /// Whether this is the first change, whose ``added`` holds every result at the start.
    public var isInitial: Bool
    /// Items that entered the result set, in result order.
    public var added: [IndexedItem]
    /// Items that left it, as they were last seen.
    public var removed: [IndexedItem]
    /// Items still in the result set whose attributes changed, as they are now.
    public var updated: [IndexedItem]

    /// A change of a live query's results.
    public init(isInitial: Bool, added: [IndexedItem], removed: [IndexedItem], updated: [IndexedItem]) {
        self.isInitial = isInitial
        self.added = added
        self.removed = removed
        self.updated = updated
    }
}
