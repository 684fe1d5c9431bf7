import ExtractionProtocol

/// Reads DOCX, XLSX and PPTX files (Office Open XML): metadata from `docProps/core.xml` and
/// `docProps/app.xml`, text from the document, the sheets (with their shared strings) or
/// the slides.
///
/// A password-protected OOXML file is not a ZIP archive at all but an OLE2 container holding
/// an `EncryptedPackage` stream; ``RichDocumentExtractor`` recognises those before coming here.
///
/// The archive is read through ``ArchiveLimits``, so a ZIP bomb fails instead of filling
/// the memory of the worker; each part is inflated whole, then read with a streaming XML
/// reader that stops as soon as the text limit is reached. Formatting, comments, headers
/// and footers of a Word document, formulas of a sheet and speaker notes of a presentation
/// are not read. The extractor holds no state: it may run on several threads at once, each
/// with its own descriptor.
///
/// ```swift
/// let document = try OfficeOpenXMLExtractor.extract(descriptor: fd, textLimit: 1 << 20)
/// print(document.title ?? "untitled", document.pageCount ?? 0)
/// ```
///
/// ## Topics
///
/// ### Extracting
///
/// - ``extract(descriptor:textLimit:limits:)``
public enum OfficeOpenXMLExtractor {
    /// Reads the DOCX, XLSX or PPTX file open at `descriptor`: its metadata, and at most
    /// `textLimit` bytes of text.
    ///
    /// Which kind of document it is comes from its main part (`word/document.xml`,
    /// `xl/workbook.xml`, `ppt/presentation.xml`), not from the file's name. Metadata first,
    /// then text: a Word document's paragraphs, a workbook's sheet names then each sheet's
    /// cells row by row (shared strings looked up), a presentation's slides in their numeric
    /// order. A presentation without a slide count in `app.xml` gets the number of its slides.
    ///
    /// - Throws: ``ExtractionFailure`` `tooLarge` for an archive beyond `limits`, `decodeFailed`
    ///   for a damaged one.
    /// - Parameters:
    ///   - descriptor: A file open for reading; it is neither closed nor moved.
    ///   - textLimit: The most UTF-8 bytes of text kept; the rest is cut and the document says so
    ///     (``ExtractionProtocol/ExtractedDocument/isTextTruncated``).
    ///   - limits: What the archive may hold; the defaults admit any real document.
    /// - Returns: The title, authors, keywords, subject, dates, page count and text found.
    public static func extract(
        descriptor: Int32, textLimit: Int, limits: ArchiveLimits = ArchiveLimits()
    ) throws(ExtractionFailure) -> ExtractedDocument {
        let package = try ZipPackage(descriptor: descriptor, limits: limits)
        var result = ExtractedDocument()
        if let core = try package.data("docProps/core.xml") {
            try readCoreProperties(core, into: &result)
        }
        if let app = try package.data("docProps/app.xml") {
            result.pageCount = try readPageCount(app)
        }
        var text = TextCollector(limit: textLimit)
        if package.contains("word/document.xml") {
            try readWordText(try package.requiredData("word/document.xml"), into: &text)
        } else if package.contains("xl/workbook.xml") {
            try readWorkbookText(package, into: &text)
        } else if package.contains("ppt/presentation.xml") {
            let slides = numberedParts(in: package, prefix: "ppt/slides/slide", suffix: ".xml")
            for slide in slides where !text.isFull {
                try readDrawingText(try package.requiredData(slide), name: slide, into: &text)
                text.appendBreak()
            }
            if result.pageCount == nil { result.pageCount = slides.count }
        } else {
            throw ExtractionFailure(.decodeFailed, "not a Word, Excel or PowerPoint document (no main part)")
        }
        result.setText(text)
        return result
    }

    /// `dc:title`, `dc:creator`, `cp:keywords`, `dc:subject`, `dc:description`,
    /// `dcterms:created` and `dcterms:modified`.
    ///
    /// Elements are matched by local name, whatever their prefix. Authors and keywords are split
    /// as ``MetadataList`` splits them (`;` or `,` lists); the description is the subject only
    /// when there is no `dc:subject`.
    ///
    /// - Throws: ``ExtractionFailure`` `decodeFailed` when the XML is malformed.
    static func readCoreProperties(_ bytes: [UInt8], into result: inout ExtractedDocument) throws(ExtractionFailure) {
        let reader = try XMLReader(bytes, name: "docProps/core.xml")
        while try reader.read() {
            guard reader.kind == .element else { continue }
            switch reader.localName {
            case "title": result.title = try reader.elementValue()
            case "creator":
                result.authors = MetadataList.authors(try reader.elementText())
            case "keywords":
                result.keywords = MetadataList.keywords(try reader.elementText())
            case "subject": if let value = try reader.elementValue() { result.subject = value }
            case "description": if result.subject == nil { result.subject = try reader.elementValue() }
            case "created": result.creationDate = DocumentDate.parse(try reader.elementText())
            case "modified": result.modificationDate = DocumentDate.parse(try reader.elementText())
            default: break
            }
        }
    }

    /// `Pages` (Word) or `Slides` (PowerPoint) of `docProps/app.xml`.
    ///
    /// - Returns: The first positive count found; `nil` when there is none (a workbook).
    /// - Throws: ``ExtractionFailure`` `decodeFailed` when the XML is malformed.
    static func readPageCount(_ bytes: [UInt8]) throws(ExtractionFailure) -> Int? {
        let reader = try XMLReader(bytes, name: "docProps/app.xml")
        while try reader.read() {
            guard reader.kind == .element else { continue }
            if reader.isNamed("Pages") || reader.isNamed("Slides"), let count = Int(try reader.elementText().trimmingWhitespace()), count > 0 {
                return count
            }
        }
        return nil
    }

    /// `w:t` runs, `w:tab` as a tab, `w:br`/`w:cr` as line breaks, a break after each `w:p`.
    ///
    /// Only the main document part: footnotes, headers and comments live in other parts.
    ///
    /// - Throws: ``ExtractionFailure`` `decodeFailed` when the XML is malformed.
    static func readWordText(_ bytes: [UInt8], into text: inout TextCollector) throws(ExtractionFailure) {
        let reader = try XMLReader(bytes, name: "word/document.xml")
        while !text.isFull, try reader.read() {
            switch reader.kind {
            case .element:
                if reader.isNamed("t") {
                    text.append(try reader.elementText())
                } else if reader.isNamed("tab") {
                    text.append("\t")
                } else if reader.isNamed("br") || reader.isNamed("cr") {
                    text.appendBreak()
                }
            case .endElement where reader.isNamed("p"):
                text.appendBreak()
            default:
                break
            }
        }
    }

    /// Every sheet's cells in order, a space between cells and a break after each row; shared
    /// strings are looked up, inline strings and values read as they are. Sheet names first.
    ///
    /// Sheets are read in the numeric order of their part names (`sheet1.xml`, `sheet2.xml`…),
    /// which is usually, not always, the order of their tabs. Formulas are skipped; their cached
    /// values are read. Phonetic guides of shared strings are left out.
    ///
    /// - Throws: ``ExtractionFailure`` for a part that is missing, too large or malformed.
    static func readWorkbookText(_ package: ZipPackage, into text: inout TextCollector) throws(ExtractionFailure) {
        let workbook = try XMLReader(try package.requiredData("xl/workbook.xml"), name: "xl/workbook.xml")
        while try workbook.read() {
            if workbook.kind == .element, workbook.isNamed("sheet"), let name = workbook.attribute("name") {
                text.append(name)
                text.appendBreak()
            }
        }
        var shared: [String] = []
        if let strings = try package.data("xl/sharedStrings.xml") {
            let reader = try XMLReader(strings, name: "xl/sharedStrings.xml")
            var current = ""
            while try reader.read() {
                switch reader.kind {
                case .element where reader.isNamed("si"):
                    current = ""
                    if reader.isEmptyElement { shared.append("") }
                case .element where reader.isNamed("t"):
                    current += try reader.elementText()
                case .element where reader.isNamed("rPh"):
                    // Phonetic guides repeat the text in kana: skip them.
                    _ = try reader.elementText()
                case .endElement where reader.isNamed("si"):
                    shared.append(current)
                default:
                    break
                }
            }
        }
        for sheet in numberedParts(in: package, prefix: "xl/worksheets/sheet", suffix: ".xml") where !text.isFull {
            let reader = try XMLReader(try package.requiredData(sheet), name: sheet)
            var cellType: String?
            while !text.isFull, try reader.read() {
                switch reader.kind {
                case .element where reader.isNamed("c"):
                    cellType = reader.attribute("t")
                case .element where reader.isNamed("v"):
                    let value = try reader.elementText()
                    if cellType == "s" {
                        if let index = Int(value), shared.indices.contains(index) { text.append(shared[index]) }
                    } else {
                        text.append(value)
                    }
                    text.appendSpace()
                case .element where reader.isNamed("t"):
                    // An inline string (`t="inlineStr"`: `<is><t>…</t></is>`).
                    text.append(try reader.elementText())
                    text.appendSpace()
                case .element where reader.isNamed("f"):
                    _ = try reader.elementText()
                case .endElement where reader.isNamed("row"):
                    text.appendBreak()
                default:
                    break
                }
            }
            text.appendBreak()
        }
    }

    /// DrawingML text (`a:t`), a break after each paragraph (`a:p`): slides, notes, shapes.
    ///
    /// - Parameters:
    ///   - bytes: The part's XML.
    ///   - name: The part's path, for errors.
    ///   - text: Where the text goes.
    /// - Throws: ``ExtractionFailure`` `decodeFailed` when the XML is malformed.
    static func readDrawingText(_ bytes: [UInt8], name: String, into text: inout TextCollector) throws(ExtractionFailure) {
        let reader = try XMLReader(bytes, name: name)
        while !text.isFull, try reader.read() {
            switch reader.kind {
            case .element where reader.isNamed("t"):
                text.append(try reader.elementText())
            case .element where reader.isNamed("br"):
                text.appendBreak()
            case .endElement where reader.isNamed("p"):
                text.appendBreak()
            default:
                break
            }
        }
    }

    /// Parts named `prefix` + number + `suffix` (`ppt/slides/slide12.xml`), in numeric order.
    ///
    /// A name whose middle is not a whole number (`slideLayout1.xml` under the prefix `slide`) is
    /// left out.
    static func numberedParts(in package: ZipPackage, prefix: String, suffix: String) -> [String] {
        package.paths.compactMap { path -> (Int, String)? in
            guard path.hasPrefix(prefix), path.hasSuffix(suffix) else { return nil }
            let number = path.dropFirst(prefix.count).dropLast(suffix.count)
            guard let value = Int(number) else { return nil }
            return (value, path)
        }
        .sorted { $0.0 < $1.0 }
        .map(\.1)
    }
}
