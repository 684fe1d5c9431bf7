import ExtractionProtocol

/// Plain text and source code in any encoding, CSV, JSON: the text as it is.
///
/// A file libmagic calls plain text that begins with RFC 5322 headers is an e-mail message
/// saved without a telling name: it is read by ``MailExtractor``.
enum PlainTextExtractor {
    static func read(_ source: DocumentSource) throws(ExtractionFailure) -> ExtractedDocument {
        // Two bytes per character at most in common encodings (UTF-16): enough for the limit.
        let (bytes, isComplete) = try source.prefix(maxBytes: source.rawLimit(factor: 2))
        if MailMessage.looksLikeMessage(bytes) {
            return try MailExtractor.read(source)
        }
        let decoded = try TextDecoding.decode(bytes, isComplete: isComplete)
        return ExtractedDocument(text: decoded.text, isTextTruncated: !isComplete)
    }
}
