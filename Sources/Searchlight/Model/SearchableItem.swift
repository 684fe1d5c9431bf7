import Foundation

/// An item to index: an identifier unique within its domain, and its attributes.
///
/// The shape of CoreSpotlight's `CSSearchableItem`.
///
/// ```swift
/// var attributes = AttributeSet(contentType: "text/plain")
/// attributes.displayName = "Shopping list"
/// let item = SearchableItem(uniqueIdentifier: "list-1", domainIdentifier: "notes", attributeSet: attributes)
/// ```
///
/// ## Overview
///
/// An item is a value that describes one thing to be found; it is not tied to an index. The
/// pair of ``domainIdentifier`` and ``uniqueIdentifier`` is its identity in an index: writing
/// an item of the same pair again (``SearchableIndex/indexItems(_:)``,
/// ``IndexBatch/upsert(_:)``) replaces every stored attribute of the earlier one, its
/// ``AttributeSet/userTags`` and thumbnail included, so an application writes the whole item
/// each time, never a difference. A domain is created by its first item and goes with
/// ``SearchableIndex/deleteAllItems(inDomains:)``.
///
/// Reading gives the item back inside an ``IndexedItem``, with what the index knows of its
/// thumbnail; a list or a search leaves out the text and the thumbnail's bytes, which
/// ``SearchableIndex/item(_:domain:)`` reads.
///
/// ```swift
/// var attributes = AttributeSet(contentType: "text/markdown")
/// attributes.displayName = "2024.md"
/// attributes.textContent = "Receipts for the tax return"
/// let receipt = SearchableItem(uniqueIdentifier: "taxes/2024.md", domainIdentifier: "notes",
///                              attributeSet: attributes, identifierIsPath: true)
/// try index.indexItems([receipt])
/// let found = try index.search(words: ["taxes"])   // finds it by its folder's name
/// ```
public struct SearchableItem: Hashable, Sendable {
    /// Unique within ``domainIdentifier``.
    public var uniqueIdentifier: ItemIdentifier
    /// The group the item belongs to; a file indexer uses one domain per root.
    public var domainIdentifier: String
    /// What is searchable about the item.
    public var attributeSet: AttributeSet
    /// When the index forgets the item on its own; `nil` keeps it until deleted.
    public var expirationDate: Date?
    /// An opaque token the indexer stores with the item to tell later whether its source
    /// changed (a file indexer stores inode, size and times). Not searchable.
    public var changeStamp: [UInt8]?
    /// Why deriving the attributes failed, when it did. The item stays searchable by what is known.
    public var failure: String?
    /// Whether ``uniqueIdentifier`` is a `/`-separated path whose folder names describe the
    /// item: then the words of those folder names are words of the item (a search for `taxes`
    /// finds `taxes/2024/receipt.pdf`, matched in its ``SearchResult/Field/folders``). `false`
    /// by default: an identifier is opaque unless the caller says otherwise, so a note whose
    /// identifier is `inbox/note-7` gets no words from it. A file indexer sets it.
    public var identifierIsPath: Bool
    /// Who may read the item's file (a file indexer sets it): a shared index shows the item
    /// only to them (Docs/Contract.md#shared-index). `nil` for content that is no file, which
    /// everyone who may read the index sees.
    public var access: FileAccess?

    /// Creates an item of `domainIdentifier` identified by `uniqueIdentifier`, with its attributes.
    ///
    /// - Parameters:
    ///   - expirationDate: When the index forgets the item; `nil`: never.
    ///   - changeStamp: The indexer's token of the item's source version.
    ///   - failure: Why deriving the attributes failed, when it did.
    ///   - identifierIsPath: Whether the identifier's folder names are words of the item.
    ///   - access: Who may read the item's file, on a shared index.
    public init(
        uniqueIdentifier: ItemIdentifier,
        domainIdentifier: String,
        attributeSet: AttributeSet,
        expirationDate: Date? = nil,
        changeStamp: [UInt8]? = nil,
        failure: String? = nil,
        identifierIsPath: Bool = false,
        access: FileAccess? = nil
    ) {
        self.uniqueIdentifier = uniqueIdentifier
        self.domainIdentifier = domainIdentifier
        self.attributeSet = attributeSet
        self.expirationDate = expirationDate
        self.changeStamp = changeStamp
        self.failure = failure
        self.identifierIsPath = identifierIsPath
        self.access = access
    }
}
