/// What a worker is asked to extract from a file.
///
/// New kinds (plain text, PDF text, office documents) get new raw values; a
/// worker answers a kind it does not know with ``ExtractionFailureCode/unsupported``.
public enum ExtractionKind: UInt8, Sendable, Hashable {
    /// A small WebP picture; the request's `limit` is the longest edge in pixels.
    case thumbnail = 1
    /// Reserved: searchable text; the request's `limit` will be the maximum bytes of text.
    case text = 2
}
