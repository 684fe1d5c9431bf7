import Foundation

/// An item as the index holds it: the item, plus what the index knows about it.
public struct IndexedItem: Hashable, Sendable {
    /// The item and its attributes. Its thumbnail carries bytes only when asked for.
    public var item: SearchableItem
    /// The thumbnail's format and size, without its bytes, when the item has one.
    public var thumbnailInfo: ThumbnailInfo?

    /// An item as read from an index, with what is known of its thumbnail.
    public init(item: SearchableItem, thumbnailInfo: ThumbnailInfo?) {
        self.item = item
        self.thumbnailInfo = thumbnailInfo
    }
}

/// What is known of a stored thumbnail without loading it.
public struct ThumbnailInfo: Hashable, Sendable {
    /// The encoding, such as `webp`.
    public var format: String
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// The size of the encoded image, in bytes.
    public var byteCount: Int
}
