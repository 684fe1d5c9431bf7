/// What a worker is asked to extract from a file.
///
/// New kinds (plain text, PDF text, office documents) get new raw values; a
/// worker answers a kind it does not know with ``ExtractionFailure/Reason-swift.enum/unsupported``.
public enum ExtractionKind: UInt8, Sendable, Hashable {
    /// A small WebP picture; the request's `limit` is the longest edge in pixels.
    case thumbnail = 1
    /// What is inside a document (title, authors, text...), answered with an
    /// ``ExtractedDocument``; the request's `limit` is the maximum bytes of text and its
    /// `contentType` (libmagic's MIME type) chooses the ``DocumentFormat``.
    case text = 2
    /// Text recognised (OCR) in an image or in the pages of a PDF that have no text layer,
    /// answered with an ``ExtractedDocument`` whose `text` is what was read (empty when the
    /// picture holds no text, is too small, or the PDF has a text layer); the request's
    /// `limit` is the maximum bytes of text and its `contentType` tells a PDF from an image.
    case ocr = 3
    /// A PNG picture, the format of the freedesktop thumbnail cache that desktops read
    /// (`searchlight-desktop`); the request's `limit` is the longest edge in pixels.
    case pngThumbnail = 4
    /// Vectors of texts (the multilingual embedding model of search by meaning), answered with
    /// ``EmbeddedTexts``; the request carries no file, its ``ExtractionRequest/embedding`` says
    /// what to embed.
    case embed = 5
}
