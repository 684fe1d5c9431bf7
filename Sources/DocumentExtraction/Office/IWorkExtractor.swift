import ExtractionProtocol

/// Reads Keynote, Pages and Numbers documents (`.key`, `.pages`, `.numbers`) in both of
/// their packages, under the same ``ArchiveLimits`` as other ZIP documents:
///
/// - the XML package of iWork '05–'09: `index.apxl` (Keynote) or `index.xml` (Pages,
///   Numbers), read with libxml2's reader: `sf:metadata`/`key:metadata` (title, authors,
///   keywords, comment), the text of slides, notes, bodies, headers, footers and text boxes,
///   table cells (`sf:ct`'s text, `sf:n`'s values); style sheets and themes skipped; slides
///   counted;
/// - the 2013+ package: `Index/*.iwa` parts (Snappy-framed protobuf), whose text fields are
///   collected by ``IWorkArchive``.
///
/// A password-protected package keeps its parts in a compression method of Apple's own: it is
/// recorded as encrypted.
///
/// Stateless: it may run on several threads at once, each with its own descriptor. The
/// 2013+ package gives text only: its metadata lives in parts this reader does not decode.
///
/// ```swift
/// let deck = try IWorkExtractor.extract(descriptor: fd, textLimit: 1 << 20)
/// print(deck.pageCount ?? 0)   // slides, for an '09 Keynote deck
/// ```
public enum IWorkExtractor {
    /// Reads the Pages, Numbers or Keynote package open at `descriptor`: its metadata, and at most
    /// `textLimit` bytes of text.
    ///
    /// The XML package is tried first; else the `.iwa` parts, else an `Index.zip` inside the
    /// package (Keynote 2013–2018), whose parts are read under the same limits.
    ///
    /// - Parameters:
    ///   - descriptor: A file open for reading; it is neither closed nor moved.
    ///   - textLimit: The most UTF-8 bytes of text kept.
    ///   - limits: What the archive, and an inner `Index.zip`, may hold.
    /// - Returns: For the XML package, metadata, slide count and text; for the 2013+ package,
    ///   text only.
    /// - Throws: ``ExtractionFailure`` `encrypted` for a password-protected package, `tooLarge`
    ///   for an archive beyond `limits`, `decodeFailed` for a damaged one, `unsupported` for a
    ///   package with no part this reader knows. Only the XML package's main part is checked for
    ///   Apple's compression method: an `.iwa` part stored that way fails as `decodeFailed`.
    public static func extract(
        descriptor: Int32, textLimit: Int, limits: ArchiveLimits = ArchiveLimits()
    ) throws(ExtractionFailure) -> ExtractedDocument {
        let package = try ZipPackage(descriptor: descriptor, limits: limits)
        for name in ["index.apxl", "index.xml"] where package.contains(name) {
            let bytes: [UInt8]
            do {
                bytes = try package.requiredData(name)
            } catch where error.reason == .decodeFailed && error.message.contains("invalidCompressionMethod") {
                throw ExtractionFailure(.encrypted, "encrypted iWork document: a password is needed to read it")
            }
            return try readXML(bytes, name: name, textLimit: textLimit)
        }
        var text = TextCollector(limit: textLimit)
        if !(try collectIWA(package, into: &text)) {
            // Keynote 2013–2018 may keep its parts in an `Index.zip` inside the package.
            guard let inner = package.paths.first(where: { $0 == "Index.zip" || $0.hasSuffix("/Index.zip") }) else {
                throw ExtractionFailure(.unsupported, "an iWork package with neither index.xml nor Index/*.iwa")
            }
            let index = try ZipPackage(bytes: try package.requiredData(inner), limits: limits)
            _ = try collectIWA(index, into: &text)
        }
        var result = ExtractedDocument()
        result.setText(text)
        return result
    }

    /// Collects the text of the package's `Index/*.iwa` parts; false when it has none. Master
    /// and template slides are left out: their text is the theme's placeholders.
    ///
    /// Parts are read in ``IWorkArchive/readingOrder`` until the text is full.
    ///
    /// - Throws: ``ExtractionFailure`` for a part that is too large or cannot be decoded.
    static func collectIWA(_ package: ZipPackage, into text: inout TextCollector) throws(ExtractionFailure) -> Bool {
        let parts = package.paths.filter { path in
            guard path.hasSuffix(".iwa"), path.hasPrefix("Index/") || path.contains("/Index/") else { return false }
            let name = path.split(separator: "/").last ?? ""
            return !name.hasPrefix("MasterSlide") && !name.hasPrefix("TemplateSlide")
        }.sorted(by: IWorkArchive.readingOrder)
        for part in parts where !text.isFull {
            try IWorkArchive.collectText(try package.requiredData(part), name: part, into: &text)
        }
        return !parts.isEmpty
    }

    /// Elements whose text is not the document's: styles, themes (their master slides'
    /// placeholders), and the package's own bookkeeping.
    ///
    /// Matched by local name; an element's whole subtree is skipped.
    static let skippedElements: Set<String> = [
        "styles", "anon-styles", "stylesheet", "theme-list", "master-slides", "calc-engine", "headers-footers-settings",
    ]

    /// Reads the XML package's main part: metadata, the text of every element outside
    /// ``skippedElements`` (cells' text and values followed by a space, a break after each
    /// paragraph, list item, slide and table), and the number of slides.
    ///
    /// The whole part is read even once the text is full, so that every slide is counted.
    ///
    /// - Parameters:
    ///   - bytes: The part's XML.
    ///   - name: Its path in the archive, for errors.
    ///   - textLimit: The most UTF-8 bytes of text kept.
    /// - Returns: The metadata, slide count and text.
    /// - Throws: ``ExtractionFailure`` `decodeFailed` when the XML is malformed.
    static func readXML(_ bytes: [UInt8], name: String, textLimit: Int) throws(ExtractionFailure) -> ExtractedDocument {
        let reader = try XMLReader(bytes, name: name)
        var result = ExtractedDocument()
        var text = TextCollector(limit: textLimit)
        var skipDepth: Int?
        var slides = 0
        while try reader.read() {
            if let depth = skipDepth {
                if reader.kind == .endElement && reader.depth == depth { skipDepth = nil }
                continue
            }
            switch reader.kind {
            case .element:
                let local = reader.localName
                if skippedElements.contains(local) {
                    if !reader.isEmptyElement { skipDepth = reader.depth }
                    continue
                }
                switch local {
                case "metadata":
                    try readMetadata(reader, into: &result)
                case "slide":
                    slides += 1
                case "ct":
                    if let cell = reader.attribute("s") { text.append(cell); text.appendSpace() }
                case "n":
                    if let value = reader.attribute("v") { text.append(value); text.appendSpace() }
                case "tab":
                    text.append("\t")
                case "br", "lnbr", "pgbr", "sectbr", "crbr", "intratopicbr":
                    text.appendBreak()
                default:
                    break
                }
            case .text:
                if !text.isFull { text.append(reader.value) }
            case .whitespace:
                break
            case .endElement:
                if reader.isNamed("p") || reader.isNamed("li") || reader.isNamed("slide") || reader.isNamed("tabular-model") {
                    text.appendBreak()
                } else if reader.isNamed("t") || reader.isNamed("f") || reader.isNamed("d") {
                    text.appendSpace()
                }
            case .other:
                break
            }
        }
        if slides > 0 { result.pageCount = slides }
        result.setText(text)
        return result
    }

    /// `sf:metadata` (or `key:metadata`): each of its fields holds `sf:string sfa:string="…"`
    /// values, an array of them for authors and keywords.
    ///
    /// Reads from the reader's position to the end of the metadata element, leaving the reader
    /// there. Keywords are split at commas; the comment becomes the subject.
    ///
    /// - Throws: ``ExtractionFailure`` `decodeFailed` when the XML is malformed.
    static func readMetadata(_ reader: XMLReader, into result: inout ExtractedDocument) throws(ExtractionFailure) {
        guard !reader.isEmptyElement else { return }
        let depth = reader.depth
        var field: String?
        while try reader.read() {
            if reader.kind == .endElement && reader.depth == depth { return }
            guard reader.kind == .element else { continue }
            if reader.depth == depth + 1 {
                field = reader.localName
                continue
            }
            guard reader.isNamed("string"), let value = reader.attribute("string")?.trimmingWhitespace(), !value.isEmpty else {
                continue
            }
            switch field {
            case "title": result.title = value
            case "authors", "author": result.authors.append(value)
            case "keywords": result.keywords += value.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
            case "comment": result.subject = value
            default: break
            }
        }
    }
}
