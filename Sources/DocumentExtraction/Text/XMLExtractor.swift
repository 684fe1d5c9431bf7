import CShimXML2
import ExtractionProtocol

/// XML through libxml2's streaming parser: text nodes and CDATA, Dublin Core `dc:title`,
/// `dc:creator`, `dc:subject` and `dc:description`. No entity is expanded and nothing is
/// loaded (no DTD, no external entity, no network): see CShimXML2.h.
enum XMLExtractor {
    static func read(_ source: DocumentSource) throws(ExtractionFailure) -> ExtractedDocument {
        var (bytes, isComplete) = try source.prefix(maxBytes: source.rawLimit(factor: 16))
        var decodedHere = false
        if isMisencoded(bytes) || declaresLegacyEncoding(bytes),
           let decoded = try? TextDecoding.decode(bytes, declared: declaredEncoding(bytes), isComplete: isComplete) {
            // Parsed as the UTF-8 it now is, whatever its declaration says.
            bytes = Array(decoded.text.utf8)
            decodedHere = true
        }
        var parsed = cxml_document()
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                cxml_extract_xml($0.baseAddress, $0.count, source.textLimit, decodedHere ? 1 : 0, &parsed)
            }
        }
        defer { cxml_document_clear(&parsed) }
        return try HTMLExtractor.document(from: parsed, isComplete: isComplete, format: "XML")
    }

    /// The encoding an XML document's declaration names, normalized; nil when none.
    static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        HTMLExtractor.declaredCharset(bytes.prefix(1024)).map(TextDecoding.normalized)
    }

    /// Whether XML declares an encoding other than UTF-8 and UTF-16 (with no BOM to overrule
    /// it): read by ``TextDecoding`` rather than libxml2's converters, which stop at the first
    /// byte they refuse (a TIS-620 page with Windows-874's quotation marks lost every word
    /// after the first one) and know no Johab; and which trust a declaration the bytes belie.
    static func declaresLegacyEncoding(_ bytes: [UInt8]) -> Bool {
        guard TextDecoding.byteOrderMark(bytes) == nil, let declared = declaredEncoding(bytes) else { return false }
        return !["utf-8", "utf-16", "utf-16le", "utf-16be", "us-ascii"].contains(declared)
    }

    /// Whether XML that says it is UTF-8 (by declaring no other encoding and having no BOM) is
    /// not: a feed or an export saved in Latin-1 or Windows-1252, which libxml2 would read with
    /// U+FFFD for every accented letter. Such text is decoded as plain text is.
    static func isMisencoded(_ bytes: [UInt8]) -> Bool {
        guard TextDecoding.byteOrderMark(bytes) == nil,
              (HTMLExtractor.declaredCharset(bytes.prefix(1024)).map(TextDecoding.normalized) ?? "utf-8") == "utf-8"
        else { return false }
        // A character cut at the end is a file cut short, not one in another encoding.
        return UTF8Scan(bytes, isComplete: false).invalid > 0
    }
}
