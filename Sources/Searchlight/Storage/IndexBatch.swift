/// Changes to apply to an index in one transaction: all of them land, or none.
///
/// ```swift
/// var batch = IndexBatch()
/// batch.upsert(item)
/// batch.delete("old-note", domain: "notes")
/// try index.apply(batch)
/// ```
public struct IndexBatch: Sendable {
    /// One change.
    public enum Change: Sendable {
        /// Insert the item, or replace every attribute (and the thumbnail) of the item with its identifier.
        case upsert(SearchableItem)
        /// Delete one item.
        case delete(domain: String, identifier: ItemIdentifier)
        /// Delete the item `identifier` and every item below it (`identifier/…`), as when a folder is deleted.
        case deleteTree(domain: String, identifier: ItemIdentifier)
        /// Re-key the item `from` and every item below it (`from/…`) to `to`, keeping their attributes,
        /// as when a file or folder is renamed or moved. Items already at the new keys are replaced.
        /// `rename`, when not `nil`, gives the moved item a new display name; its descendants
        /// keep theirs.
        case move(domain: String, from: ItemIdentifier, to: ItemIdentifier, rename: Rename? = nil)
    }

    /// A new display name for a moved item.
    public struct Rename: Sendable, Equatable {
        /// The new display name.
        public var displayName: String
        /// Whether a title and keywords that the caller derives from the name follow it: the
        /// ones the index holds as ``AttributeSet/title(fromFileName:)`` and
        /// ``AttributeSet/nameKeywords(of:)`` of the old name are rebuilt from the new one (a
        /// file indexer's rule: a file's title is its name). When `false`, the title and
        /// keywords are kept as they were.
        public var derivedAttributesFollow: Bool

        public init(displayName: String, derivedAttributesFollow: Bool = false) {
            self.displayName = displayName
            self.derivedAttributesFollow = derivedAttributesFollow
        }
    }

    /// The changes, applied in order.
    public var changes: [Change] = []
    /// Per-domain state to store with the batch (an indexer's bookmark), applied last.
    public var domainStates: [String: String] = [:]

    public init() {}

    /// The number of changes.
    public var count: Int { changes.count }
    /// Whether there is nothing to apply.
    public var isEmpty: Bool { changes.isEmpty && domainStates.isEmpty }

    /// Whether a change may remove an item (a move replaces what it lands on).
    var removesItems: Bool {
        changes.contains { change in
            if case .upsert = change { false } else { true }
        }
    }

    public mutating func upsert(_ item: SearchableItem) { changes.append(.upsert(item)) }
    public mutating func delete(_ identifier: ItemIdentifier, domain: String) {
        changes.append(.delete(domain: domain, identifier: identifier))
    }
    public mutating func deleteTree(_ identifier: ItemIdentifier, domain: String) {
        changes.append(.deleteTree(domain: domain, identifier: identifier))
    }
    /// Re-keys `from` and its descendants to `to`, keeping every attribute; `rename`, when
    /// given, renames the moved item itself (the library never derives a name from an identifier).
    public mutating func move(_ from: ItemIdentifier, to: ItemIdentifier, domain: String, rename: Rename? = nil) {
        changes.append(.move(domain: domain, from: from, to: to, rename: rename))
    }
}
