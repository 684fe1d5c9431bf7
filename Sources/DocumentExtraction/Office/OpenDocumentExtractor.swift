import ExtractionProtocol

/// Reads ODT, ODS and ODP files (OpenDocument): metadata from `meta.xml`, text from
/// `content.xml` (paragraphs, headings, spans, tabs, line breaks, table cells).
///
/// A password-protected OpenDocument file keeps its manifest readable but its parts
/// encrypted; the manifest's `manifest:encryption-data` tells so before anything is parsed.
///
/// `content.xml` is inflated whole, within ``ArchiveLimits``, and read once with a streaming
/// XML reader. Stateless: it may run on several threads at once, each with its own
/// descriptor.
///
/// ```swift
/// let document = try OpenDocumentExtractor.extract(descriptor: fd, textLimit: 1 << 20)
/// ```
public enum OpenDocumentExtractor {
    /// Reads the ODT, ODS or ODP file open at `descriptor`: its metadata, and at most `textLimit`
    /// bytes of text.
    ///
    /// The page count is the document statistics' (a text document), else the number of
    /// `draw:page` elements (a presentation or drawing); a spreadsheet usually has neither.
    ///
    /// - Throws: ``ExtractionFailure`` `encrypted` for a password-protected file, `tooLarge` for
    ///   an archive beyond `limits`, `decodeFailed` for a damaged one.
    /// - Parameters:
    ///   - descriptor: A file open for reading; it is neither closed nor moved.
    ///   - textLimit: The most UTF-8 bytes of text kept.
    ///   - limits: What the archive may hold; the defaults admit any real document.
    /// - Returns: The title, author, keywords, subject, dates, page count and text found.
    public static func extract(
        descriptor: Int32, textLimit: Int, limits: ArchiveLimits = ArchiveLimits()
    ) throws(ExtractionFailure) -> ExtractedDocument {
        let package = try ZipPackage(descriptor: descriptor, limits: limits)
        if let manifest = try package.data("META-INF/manifest.xml"), try isEncrypted(manifest) {
            throw ExtractionFailure(.encrypted, "encrypted OpenDocument file: a password is needed to read it")
        }
        var result = ExtractedDocument()
        if let meta = try package.data("meta.xml") {
            try readMeta(meta, into: &result)
        }
        var text = TextCollector(limit: textLimit)
        let drawPages = try readContent(try package.requiredData("content.xml"), into: &text)
        // Presentations and drawings have no page count in their statistics: count their pages.
        if drawPages > 0 { result.pageCount = drawPages }
        result.setText(text)
        return result
    }

    /// Whether the manifest describes an encryption of some part (`manifest:encryption-data`).
    ///
    /// - Throws: ``ExtractionFailure`` `decodeFailed` when the XML is malformed.
    static func isEncrypted(_ manifest: [UInt8]) throws(ExtractionFailure) -> Bool {
        try XMLReader(manifest, name: "META-INF/manifest.xml").firstElement { $0.isNamed("encryption-data") ? true : nil } ?? false
    }

    /// `dc:title`, `meta:initial-creator` (else `dc:creator`), `meta:keyword`, `dc:subject`,
    /// `dc:description`, `meta:creation-date`, `dc:date`, `meta:document-statistic`'s pages.
    ///
    /// The author is one person: the initial creator when there is one, else the last to edit.
    ///
    /// - Throws: ``ExtractionFailure`` `decodeFailed` when the XML is malformed.
    static func readMeta(_ bytes: [UInt8], into result: inout ExtractedDocument) throws(ExtractionFailure) {
        let reader = try XMLReader(bytes, name: "meta.xml")
        var initialCreator: String?
        var lastCreator: String?
        while try reader.read() {
            guard reader.kind == .element else { continue }
            switch reader.localName {
            case "title": result.title = try reader.elementValue()
            case "initial-creator": initialCreator = try reader.elementValue()
            case "creator": lastCreator = try reader.elementValue()
            case "keyword":
                if let keyword = try reader.elementValue() { result.keywords.append(keyword) }
            case "subject": if let value = try reader.elementValue() { result.subject = value }
            case "description": if result.subject == nil { result.subject = try reader.elementValue() }
            case "creation-date": result.creationDate = DocumentDate.parse(try reader.elementText())
            case "date": result.modificationDate = DocumentDate.parse(try reader.elementText())
            case "document-statistic":
                if let pages = reader.attribute("page-count").flatMap({ Int($0) }), pages > 0 { result.pageCount = pages }
            default: break
            }
        }
        if let author = initialCreator ?? lastCreator { result.authors = [author] }
    }

    /// The text of `content.xml`; returns the number of `draw:page` elements (slides).
    ///
    /// The whole part is read even once the text is full, so that every page is counted. A
    /// `text:s` gives one space, whatever its `text:c` count.
    ///
    /// - Throws: ``ExtractionFailure`` `decodeFailed` when the XML is malformed.
    static func readContent(_ bytes: [UInt8], into text: inout TextCollector) throws(ExtractionFailure) -> Int {
        let reader = try XMLReader(bytes, name: "content.xml")
        var drawPages = 0
        // Only text inside the body: styles and font declarations come before it.
        var inBody = false
        while try reader.read() {
            switch reader.kind {
            case .element:
                if reader.isNamed("body") {
                    inBody = true
                } else if reader.isNamed("page") {
                    drawPages += 1
                } else if inBody && !text.isFull {
                    if reader.isNamed("tab") {
                        text.append("\t")
                    } else if reader.isNamed("s") {
                        text.append(" ")
                    } else if reader.isNamed("line-break") {
                        text.appendBreak()
                    }
                }
            case .text, .whitespace:
                if inBody && !text.isFull { text.append(reader.value) }
            case .endElement:
                if reader.isNamed("p") || reader.isNamed("h") || reader.isNamed("table-row") || reader.isNamed("page") {
                    text.appendBreak()
                } else if reader.isNamed("table-cell") {
                    text.appendSpace()
                } else if reader.isNamed("body") {
                    inBody = false
                }
            case .other:
                break
            }
        }
        return drawPages
    }
}
