import Searchlight

/// A thumbnail made by an extraction worker, with what the decoder learnt of the original.
public struct ExtractedThumbnail: Sendable, Hashable {
    /// The encoded picture (WebP, longest edge at most the requested size).
    public var thumbnail: Thumbnail
    /// The original image's width in pixels; nil when unknown (PDF, SVG).
    public var pixelWidth: Int?
    /// The original image's height in pixels; nil when unknown (PDF, SVG).
    public var pixelHeight: Int?
    /// Whether the picture looks like it may hold text: an image OCR should read.
    public var mayHoldText = false

    public init(thumbnail: Thumbnail, pixelWidth: Int? = nil, pixelHeight: Int? = nil) {
        self.thumbnail = thumbnail
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
    }
}
