/// What a worker is asked to extract from a file.
///
/// New kinds (plain text, PDF text, office documents) get new raw values; a
/// worker answers a kind it does not know with ``ExtractionFailureCode/unsupported``.
public enum ExtractionKind: UInt8, Sendable, Hashable {
    /// A small WebP picture; the request's `limit` is the longest edge in pixels.
    case thumbnail = 1
    /// What is inside a document (title, authors, text...), answered with an
    /// ``ExtractedDocument``; the request's `limit` is the maximum bytes of text and its
    /// `contentType` (libmagic's MIME type) chooses the ``DocumentFormat``.
    case text = 2
    /// A PNG picture, the format of the freedesktop thumbnail cache that desktops read
    /// (`searchlight-desktop`); the request's `limit` is the longest edge in pixels.
    case pngThumbnail = 3
}
