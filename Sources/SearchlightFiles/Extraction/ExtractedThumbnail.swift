import ExtractionProtocol
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
    /// Whether the picture still reads at an icon's size (a photo, a slide), rather than the
    /// even blank a page of text becomes: what a desktop search row shows.
    public var legibleAsIcon = false

    /// A thumbnail and the original's size; the picture flags are set after, from the worker's answer.
    public init(thumbnail: Thumbnail, pixelWidth: Int? = nil, pixelHeight: Int? = nil) {
        self.thumbnail = thumbnail
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
    }
}

extension ExtractedThumbnail {
    /// The thumbnail a worker's `response` carries, with what it learnt of the original.
    init(_ response: ExtractionResponse, thumbnail: Thumbnail) {
        self.init(thumbnail: thumbnail,
                  pixelWidth: response.originalWidth > 0 ? response.originalWidth : nil,
                  pixelHeight: response.originalHeight > 0 ? response.originalHeight : nil)
        mayHoldText = response.mayHoldText
        legibleAsIcon = response.legibleAsIcon
    }
}
