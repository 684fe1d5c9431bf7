import ExtractionProtocol

/// Reads DOCX, XLSX and PPTX files (Office Open XML): metadata from `docProps/core.xml` and
/// `docProps/app.xml`, text from the document, the sheets (with their shared strings) or
/// the slides.
///
/// A password-protected OOXML file is not a ZIP archive at all but an OLE2 container holding
/// an `EncryptedPackage` stream; ``RichDocumentExtractor`` recognises those before coming here.
public enum OfficeOpenXMLExtractor {
    /// Reads the DOCX, XLSX or PPTX file open at `descriptor`: its metadata, and at most
    /// `textLimit` bytes of text.
    /// - Throws: ``ExtractionFailure`` `tooLarge` for an archive beyond `limits`, `decodeFailed`
    ///   for a damaged one.
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
