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
