import ExtractionProtocol
import SystemCalls

/// Reads what is inside a PDF, an office document, an EPUB, an RTF file or a photo: the one
/// entry point the worker calls for these formats of ``DocumentFormat`` (the text formats
/// have readers of their own in the worker).
///
/// ```swift
/// let extractor = RichDocumentExtractor(textLimit: 1 << 20)
/// if let format = DocumentFormat(contentType: "application/pdf", fileName: Array("a.pdf".utf8)) {
///     let document = try extractor.extract(descriptor: fd, format: format)
/// }
/// ```
public struct RichDocumentExtractor: Sendable {
    /// The most bytes of UTF-8 text kept per document.
    public var textLimit: Int
    /// Bounds on ZIP-based documents (zip bombs).
    public var archiveLimits: ArchiveLimits
    /// How long a converter program (legacy Office) may run: less than the indexer's deadline
    /// for a whole extraction (10 s by default), so that the worker kills its converter
    /// before the indexer kills the worker.
    public var converterDeadline: Duration
    /// How long a PDF's pages may be read before the text so far is kept (marked truncated).
    public var pdfTimeBudget: Duration = .seconds(5)
    /// RTF files larger than this are read only this far.
    public var maximumRTFSize: Int

    /// An extractor with the worker's defaults: 1 MiB of text, ``ArchiveLimits``' bounds, 8 s per
    /// converter, 64 MiB of RTF.
    public init(
        textLimit: Int = 1 << 20, archiveLimits: ArchiveLimits = ArchiveLimits(),
        converterDeadline: Duration = .seconds(8), maximumRTFSize: Int = 64 << 20
    ) {
        self.textLimit = textLimit
        self.archiveLimits = archiveLimits
        self.converterDeadline = converterDeadline
        self.maximumRTFSize = maximumRTFSize
    }

    /// Extracts the document readable from `descriptor` (an open regular file; not closed).
    /// Photos need libvips started (`cvips_initialize`) first.
    ///
    /// Runs in the worker process, on its thread, for as long as the format's reader takes:
    /// a PDF stops at ``pdfTimeBudget`` with what it has read, a legacy Office converter is
    /// killed at ``converterDeadline``; the indexer's deadline bounds the rest. An encrypted
    /// Office Open XML file is recognised before it is opened as a ZIP archive.
    ///
    /// - Parameters:
    ///   - descriptor: The file, open for reading.
    ///   - format: The format the indexer's content type and name gave it.
    /// - Returns: The text (at most ``textLimit`` bytes) and the metadata found.
    /// - Throws: ``ExtractionFailure``: `encrypted` for a document that needs a password,
    ///   `tooLarge` for an archive beyond ``archiveLimits``, `decodeFailed` for a damaged
    ///   file, and what each reader says.
    public func extract(descriptor: Int32, format: DocumentFormat) throws(ExtractionFailure) -> ExtractedDocument {
        switch format {
        case .pdf:
            return try PDFExtractor.extract(descriptor: descriptor, textLimit: textLimit, timeBudget: pdfTimeBudget)
        case .officeOpenXML:
            if try CompoundFile.isEncryptedPackage(descriptor: descriptor) {
                throw ExtractionFailure(.encrypted, "encrypted Office document: a password is needed to read it")
            }
            return try OfficeOpenXMLExtractor.extract(descriptor: descriptor, textLimit: textLimit, limits: archiveLimits)
        case .openDocument:
            return try OpenDocumentExtractor.extract(descriptor: descriptor, textLimit: textLimit, limits: archiveLimits)
        case .iWork:
            return try IWorkExtractor.extract(descriptor: descriptor, textLimit: textLimit, limits: archiveLimits)
        case .epub:
            return try EPUBExtractor.extract(descriptor: descriptor, textLimit: textLimit, limits: archiveLimits)
        case .rtf:
            return try RTFExtractor.extract(bytes: try readPrefix(descriptor, maximumRTFSize), textLimit: textLimit)
        case .word:
            return try legacy(descriptor, .word)
        case .excel:
            return try legacy(descriptor, .excel)
        case .powerPoint:
            return try legacy(descriptor, .powerPoint)
        case .photo:
            // libvips reads the header by name (/proc/self/fd/N).
            let reopenable = try WorkerFile.reopenable(descriptor)
            defer { SystemCall.close(reopenable) }
            return try PhotoMetadataExtractor.extract(descriptor: reopenable)
        case .zipArchive:
            return try extract(descriptor: descriptor, format: try ZipPackage.documentFormat(descriptor: descriptor, limits: archiveLimits))
        case .compoundFile:
            if try CompoundFile.isEncryptedPackage(descriptor: descriptor) {
                throw ExtractionFailure(.encrypted, "encrypted Office document: a password is needed to read it")
            }
            throw ExtractionFailure(.unsupported, "an OLE2 compound file of no known document type")
        case .plainText, .markdown, .roff, .html, .xml, .mail, .mbox, .archive:
            throw ExtractionFailure(.unsupported, "\(format) is read by the worker's text readers")
        }
    }

    private func legacy(_ descriptor: Int32, _ format: LegacyOfficeExtractor.Format) throws(ExtractionFailure) -> ExtractedDocument {
        // libgsf and the converters read the file by name (/proc/self/fd/N).
        let reopenable = try WorkerFile.reopenable(descriptor)
        defer { SystemCall.close(reopenable) }
        return try LegacyOfficeExtractor.extract(descriptor: reopenable, format: format, textLimit: textLimit, deadline: converterDeadline)
    }
}

/// Reads up to `limit` bytes from the start of the file. The corresponding C function is `pread(2)`.
func readPrefix(_ descriptor: Int32, _ limit: Int) throws(ExtractionFailure) -> [UInt8] {
    do {
        return try SystemCall.readBytes(descriptor, limit: limit, at: 0)
    } catch {
        throw ExtractionFailure(.unreadable, "read: \(error)")
    }
}
