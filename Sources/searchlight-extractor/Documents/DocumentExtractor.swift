#if canImport(Glibc)
import Glibc
#endif
import ExtractionProtocol

/// Answers ``ExtractionKind/text`` requests: routes the file to the reader of its
/// ``DocumentFormat`` and gives every format's result the same finish (text capped on a
/// UTF-8 boundary, CJK word breaks marked, metadata tidied).
///
/// A new format is a case of ``DocumentFormat`` (in ExtractionProtocol, so that the indexer
/// asks for it), a line in ``read(_:as:)`` and a file with a `read(_:)` that returns an
/// ``ExtractedDocument``, as ``HTMLExtractor`` does.
enum DocumentExtractor {
    /// Extracts what `request` asks for from the file it names.
    static func extract(_ request: ExtractionRequest) -> Result<ExtractedDocument, DocumentExtractionError> {
        let name = request.path.split(separator: UInt8(ascii: "/")).last.map(Array.init) ?? []
        guard let format = DocumentFormat(contentType: request.contentType, fileName: name) else {
            return .failure(DocumentExtractionError(.unsupported, "no text in files of type \(request.contentType.isEmpty ? "unknown" : request.contentType)"))
        }
        let source: DocumentSource
        do {
            source = try DocumentSource(path: request.path, textLimit: Int(request.limit), contentType: request.contentType)
        } catch {
            return .failure(DocumentExtractionError(.unreadable, error.description))
        }
        defer { source.close() }
        do {
            return .success(finished(try read(source, as: format), limit: source.textLimit))
        } catch {
            return .failure(error)
        }
    }

    /// Reads `source` as `format`.
    static func read(_ source: DocumentSource, as format: DocumentFormat) throws(DocumentExtractionError) -> ExtractedDocument {
        switch format {
        case .plainText: try PlainTextExtractor.read(source)
        case .markdown: try MarkdownExtractor.read(source)
        case .html: try HTMLExtractor.read(source)
        case .xml: try XMLExtractor.read(source)
        case .mail: try MailExtractor.read(source)
        case .mbox: try MboxExtractor.read(source)
        case .archive: try ArchiveExtractor.read(source)
        case .pdf, .officeOpenXML, .openDocument, .epub, .rtf, .word, .excel, .powerPoint, .photo, .zipArchive, .compoundFile, .iWork:
            try RichDocumentReader.read(source, as: format)
        }
    }

    /// The same finish for every format.
    static func finished(_ document: ExtractedDocument, limit: Int) -> ExtractedDocument {
        var document = document
        var text = DocumentText.capped(document.text, toBytes: limit)
        if DocumentText.mayNeedWordBreaks(text.text) {
            text = DocumentText.capped(DocumentText.markingWordBreaks(text.text), toBytes: limit)
        }
        document.text = text.text
        document.isTextTruncated = document.isTextTruncated || text.wasCut
        document.title = document.title.flatMap(DocumentText.metadataLine)
        document.subject = document.subject.flatMap(DocumentText.metadataLine)
        document.authors = DocumentText.metadataList(document.authors)
        document.keywords = DocumentText.metadataList(document.keywords)
        return document
    }
}

/// Why a document could not be read, with the failure code the response carries.
struct DocumentExtractionError: Error, CustomStringConvertible {
    var code: ExtractionFailureCode
    var message: String

    init(_ code: ExtractionFailureCode, _ message: String) {
        self.code = code
        self.message = message
    }

    var description: String { message }
}
