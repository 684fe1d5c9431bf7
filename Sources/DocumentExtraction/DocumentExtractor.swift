import ExtractionProtocol

/// Answers ``ExtractionKind/text`` requests, the worker's one entry point for documents: routes the file to the reader of its
/// ``DocumentFormat`` and gives every format's result the same finish (text capped on a
/// UTF-8 boundary, CJK word breaks marked, metadata tidied).
///
/// A new format is a case of ``DocumentFormat`` (in ExtractionProtocol, so that the indexer
/// asks for it), a line in ``read(_:as:)`` and a file with a `read(_:)` that returns an
/// ``ExtractedDocument``, as ``HTMLExtractor`` does.
public enum DocumentExtractor {
    /// Extracts what `request` asks for from the file it names.
    ///
    /// The format comes from the request's content type and file name; a type no reader knows
    /// is `unsupported`. The file is opened as the request says (the descriptor it carries, or
    /// its path) and closed before this returns. Every result then gets the same finish: the
    /// text cut at the request's limit on a UTF-8 boundary (``ExtractedDocument/isTextTruncated``
    /// set), U+200B marked between the words of scripts written without spaces (Han, kana,
    /// Thai, Lao, Khmer, Myanmar), the title, subject, authors and keywords tidied.
    ///
    /// - Parameter request: The worker's request: the path, the content type, the text limit.
    /// - Returns: The document, or why it could not be read; never throws.
    public static func extract(_ request: ExtractionRequest) -> Result<ExtractedDocument, ExtractionFailure> {
        let name = request.path.split(separator: UInt8(ascii: "/")).last.map(Array.init) ?? []
        guard let format = DocumentFormat(contentType: request.contentType, fileName: name) else {
            return .failure(ExtractionFailure(.unsupported, "no text in files of type \(request.contentType.isEmpty ? "unknown" : request.contentType)"))
        }
        let source: DocumentSource
        do {
            source = try DocumentSource(request)
        } catch {
            return .failure(error)
        }
        defer { source.close() }
        do {
            return .success(finished(try read(source, as: format), limit: source.textLimit))
        } catch {
            return .failure(error)
        }
    }

    /// Reads `source` as `format`.
    static func read(_ source: DocumentSource, as format: DocumentFormat) throws(ExtractionFailure) -> ExtractedDocument {
        switch format {
        case .plainText: try PlainTextExtractor.read(source)
        case .markdown: try MarkdownExtractor.read(source)
        case .roff: try RoffExtractor.read(source)
        case .html: try HTMLExtractor.read(source)
        case .xml: try XMLExtractor.read(source)
        case .mail: try MailExtractor.read(source)
        case .mbox: try MboxExtractor.read(source)
        case .archive: try ArchiveExtractor.read(source)
        case .pdf, .officeOpenXML, .openDocument, .epub, .rtf, .word, .excel, .powerPoint, .photo, .zipArchive, .compoundFile, .iWork:
            try RichDocumentExtractor(textLimit: source.textLimit).extract(descriptor: source.descriptor, format: format)
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
