/// A small picture of an item, as encoded image bytes.
public struct Thumbnail: Hashable, Sendable {
    /// The encoding of ``bytes``, such as `webp`, `png` or `jpeg`.
    public var format: String
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// The encoded image.
    public var bytes: [UInt8]

    /// A thumbnail of `width` × `height` pixels, encoded as `format`.
    public init(format: String, width: Int, height: Int, bytes: [UInt8]) {
        self.format = format
        self.width = width
        self.height = height
        self.bytes = bytes
    }
}
