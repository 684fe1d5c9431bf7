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
public enum IWorkExtractor {
    /// Reads the Pages, Numbers or Keynote package open at `descriptor`: its metadata, and at most
    /// `textLimit` bytes of text.
    /// - Throws: ``ExtractionFailure`` `encrypted` for a password-protected package, `tooLarge`
    ///   for an archive beyond `limits`, `decodeFailed` for a damaged one.
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
    static let skippedElements: Set<String> = [
        "styles", "anon-styles", "stylesheet", "theme-list", "master-slides", "calc-engine", "headers-footers-settings",
    ]

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
