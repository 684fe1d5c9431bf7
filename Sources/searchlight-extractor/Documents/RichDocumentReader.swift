import DocumentExtraction
import ExtractionProtocol

/// Reads PDFs, office documents, EPUBs, RTF files and photos' EXIF through the
/// DocumentExtraction module, under the request's text limit.
enum RichDocumentReader {
    static func read(_ source: DocumentSource, as format: DocumentFormat) throws(DocumentExtractionError) -> ExtractedDocument {
        do {
            return try RichDocumentExtractor(textLimit: source.textLimit).extract(descriptor: source.descriptor, format: format)
        } catch {
            // The wire has no code for "encrypted": the message says so, and it is a file's
            // failure like a damaged one (recorded quietly, not retried until the file changes).
            throw DocumentExtractionError(error.failureCode, error.message)
        }
    }
}
