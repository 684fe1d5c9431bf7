import Foundation

/// An item as the index holds it: the item, plus what the index knows about it.
public struct IndexedItem: Hashable, Sendable {
    /// The item and its attributes. Its thumbnail carries bytes only when asked for.
    public var item: SearchableItem
    /// The thumbnail's format and size, without its bytes, when the item has one.
    public var thumbnailInfo: ThumbnailInfo?

    public init(item: SearchableItem, thumbnailInfo: ThumbnailInfo?) {
        self.item = item
        self.thumbnailInfo = thumbnailInfo
    }
}

/// What is known of a stored thumbnail without loading it.
public struct ThumbnailInfo: Hashable, Sendable {
    public var format: String
    public var width: Int
    public var height: Int
    /// The size of the encoded image, in bytes.
    public var byteCount: Int
}
