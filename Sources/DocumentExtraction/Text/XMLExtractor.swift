#if canImport(Glibc)
import Glibc
#endif
import CXML
import ExtractionProtocol

/// XML through libxml2's streaming parser: text nodes and CDATA, Dublin Core `dc:title`,
/// `dc:creator`, `dc:subject` and `dc:description`. No entity is expanded and nothing is
/// loaded (no DTD, no external entity, no network): see CXML.h.
enum XMLExtractor {
    static func read(_ source: DocumentSource) throws(ExtractionFailure) -> ExtractedDocument {
        let (bytes, isComplete) = try source.prefix(maxBytes: source.rawLimit(factor: 16))
        var parsed = cxml_document()
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cxml_extract_xml($0.baseAddress, $0.count, source.textLimit, &parsed) }
        }
        defer { cxml_document_clear(&parsed) }
        return try HTMLExtractor.document(from: parsed, isComplete: isComplete, format: "XML")
    }
}
