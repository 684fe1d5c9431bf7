import ExtractionProtocol

/// Reads EPUB books: `META-INF/container.xml` names the package document (OPF), whose
/// metadata gives title, creators, subjects and dates, and whose spine lists the XHTML
/// documents read for text, in reading order.
///
/// Each spine document is inflated whole, within ``ArchiveLimits``, then read as XHTML
/// (`XHTMLText`); reading stops at the text limit, so a long book costs only the chapters
/// that fit. Stateless: it may run on several threads at once, each with its own descriptor.
///
/// ```swift
/// let book = try EPUBExtractor.extract(descriptor: fd, textLimit: 1 << 20)
/// print(book.title ?? "untitled", book.authors)
/// ```
public enum EPUBExtractor {
    /// Reads the EPUB open at `descriptor`: its metadata, and at most `textLimit` bytes of text.
    ///
    /// A spine document missing from the archive is skipped; the first `dc:title` and `dc:date`
    /// are kept, every `dc:creator` is an author and every `dc:subject` a keyword.
    ///
    /// - Throws: ``ExtractionFailure`` `encrypted` for a book under DRM, `tooLarge` for an archive
    ///   beyond `limits`, `decodeFailed` for a damaged one.
    /// - Parameters:
    ///   - descriptor: A file open for reading; it is neither closed nor moved.
    ///   - textLimit: The most UTF-8 bytes of text kept.
    ///   - limits: What the archive may hold; the defaults admit any real book.
    /// - Returns: The book's metadata and the text of its spine, a break after each document.
    public static func extract(
        descriptor: Int32, textLimit: Int, limits: ArchiveLimits = ArchiveLimits()
    ) throws(ExtractionFailure) -> ExtractedDocument {
        let package = try ZipPackage(descriptor: descriptor, limits: limits)
        if package.contains("META-INF/encryption.xml"), try hasEncryptedContent(try package.requiredData("META-INF/encryption.xml")) {
            throw ExtractionFailure(.encrypted, "encrypted EPUB (DRM): its text cannot be read")
        }
        let opfPath = try rootFile(try package.requiredData("META-INF/container.xml"))
        var result = ExtractedDocument()
        let spine = try readPackage(try package.requiredData(opfPath), name: opfPath, into: &result)
        let base = opfPath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        var text = TextCollector(limit: textLimit)
        for href in spine where !text.isFull {
            let path = resolve(href, against: base)
            guard let bytes = try package.data(path) else { continue }
            try XHTMLText.read(bytes, name: path, into: &text)
            text.appendBreak()
        }
        result.setText(text)
        return result
    }

    /// `META-INF/encryption.xml` also lists obfuscated fonts, which hide no text: only
    /// encrypted (X)HTML documents count.
    ///
    /// - Returns: Whether some `CipherReference` names an `.xhtml`, `.html` or `.htm` document.
    /// - Throws: ``ExtractionFailure`` `decodeFailed` when the XML is malformed.
    static func hasEncryptedContent(_ bytes: [UInt8]) throws(ExtractionFailure) -> Bool {
        try XMLReader(bytes, name: "META-INF/encryption.xml").firstElement { reader -> Bool? in
            guard reader.isNamed("CipherReference"), let uri = reader.attribute("URI"),
                  uri.hasSuffix(".xhtml") || uri.hasSuffix(".html") || uri.hasSuffix(".htm") else { return nil }
            return true
        } ?? false
    }

    /// The `full-path` of the first `rootfile`.
    ///
    /// - Throws: ``ExtractionFailure`` `decodeFailed` when no `rootfile` names a path, or the XML
    ///   is malformed.
    static func rootFile(_ container: [UInt8]) throws(ExtractionFailure) -> String {
        let path = try XMLReader(container, name: "META-INF/container.xml").firstElement { reader in
            reader.isNamed("rootfile") ? reader.attribute("full-path").flatMap { $0.isEmpty ? nil : $0 } : nil
        }
        if let path { return path }
        throw ExtractionFailure(.decodeFailed, "META-INF/container.xml names no package document")
    }

    /// Reads the OPF's metadata into `result` and returns the spine's documents (hrefs).
    ///
    /// Dublin Core elements are matched by namespace, whatever their prefix. A spine entry whose
    /// id is not in the manifest is dropped.
    ///
    /// - Parameters:
    ///   - bytes: The package document's XML.
    ///   - name: Its path in the archive, for errors.
    ///   - result: Where the metadata goes.
    /// - Returns: The spine's hrefs, in reading order, relative to the package document's folder.
    /// - Throws: ``ExtractionFailure`` `decodeFailed` when the XML is malformed.
    static func readPackage(_ bytes: [UInt8], name: String, into result: inout ExtractedDocument) throws(ExtractionFailure) -> [String] {
        let reader = try XMLReader(bytes, name: name)
        var manifest: [String: String] = [:]
        var spine: [String] = []
        while try reader.read() {
            guard reader.kind == .element else { continue }
            if reader.isDublinCore {
                switch reader.localName {
                case "title": if result.title == nil { result.title = try reader.elementValue() }
                case "creator":
                    if let creator = try reader.elementValue() { result.authors.append(creator) }
                case "subject":
                    if let subject = try reader.elementValue() { result.keywords.append(subject) }
                case "description": if result.subject == nil { result.subject = try reader.elementValue() }
                case "date": if result.creationDate == nil { result.creationDate = DocumentDate.parse(try reader.elementText()) }
                default: break
                }
            } else if reader.isNamed("meta"), reader.attribute("property") == "dcterms:modified" {
                result.modificationDate = DocumentDate.parse(try reader.elementText())
            } else if reader.isNamed("item"), let id = reader.attribute("id"), let href = reader.attribute("href") {
                manifest[id] = href
            } else if reader.isNamed("itemref"), let id = reader.attribute("idref") {
                spine.append(id)
            }
        }
        return spine.compactMap { manifest[$0] }
    }

    /// An href relative to the OPF's folder as a path inside the archive (`%20` decoded,
    /// `..` and `.` removed, fragments dropped).
    ///
    /// `..` never climbs above the archive's root: at the top it is dropped.
    ///
    /// ```swift
    /// EPUBExtractor.resolve("../Text/ch%201.xhtml#p3", against: "OEBPS/content")  // "OEBPS/Text/ch 1.xhtml"
    /// ```
    static func resolve(_ href: String, against base: String) -> String {
        let withoutFragment = href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? href
        var components = base.isEmpty ? [] : base.split(separator: "/").map(String.init)
        for component in percentDecoded(withoutFragment).split(separator: "/") {
            switch component {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(String(component))
            }
        }
        return components.joined(separator: "/")
    }

    /// `text` with each `%XX` replaced by its byte; a `%` not followed by two hex digits stays.
    /// Bytes that do not form UTF-8 become U+FFFD.
    static func percentDecoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == 0x25, iterator.count >= 2,
               let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
