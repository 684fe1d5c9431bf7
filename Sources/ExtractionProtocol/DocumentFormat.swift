/// The document formats whose content a worker reads, and the one rule that routes a file
/// to its format.
///
/// The indexer asks for an ``ExtractionKind/text`` extraction only when a file has a format
/// (so binary files cost no round trip), and the worker reads the file as that format: both
/// call ``init(contentType:fileName:)``, so they cannot disagree. When only libmagic's
/// description says a file is text, the indexer sends the type that
/// ``readableType(contentType:fileName:description:)`` gives (see DocumentFormat+Description.swift).
/// A new format is a new case, a line in ``init(contentType:fileName:)`` and, in the worker, a
/// file that reads it.
///
/// ```swift
/// DocumentFormat(contentType: "text/plain", fileName: Array("notes.md".utf8))         // .markdown
/// DocumentFormat(contentType: "application/xml", fileName: Array("page.xhtml".utf8))  // .html
/// DocumentFormat(contentType: "image/png", fileName: Array("icon.png".utf8))          // nil: no text
/// ```
public enum DocumentFormat: String, Sendable, Hashable, CaseIterable {
    /// Plain text and source code in any encoding, CSV, JSON, subtitles, scripts, settings —
    /// every file libmagic types or describes as text; a plain-text file that is an RFC 5322
    /// message is read as ``mail`` by the worker, which sniffs its headers.
    case plainText
    /// Markdown: a title from front matter or the first heading, text without markup.
    case markdown
    /// A manual page (man(7), mdoc(7)) or another roff document: the text it prints, titled
    /// `name(section)`. libmagic's `text/troff` and the `application/x-troff…` types, and text
    /// named as a manual page is (`.1`, `.3pm`, `.n`, `.man`; the worker reads it as plain
    /// text when it does not look like roff).
    case roff
    /// HTML and XHTML: `<title>`, `meta` author, keywords and description, visible text.
    case html
    /// XML: text nodes, Dublin Core title, creators, subjects and description.
    case xml
    /// An e-mail message (`.eml`): Subject, From, Date, decoded bodies, attachment names.
    case mail
    /// A mailbox of messages (mbox).
    case mbox
    /// PDF: Info and XMP metadata, pages, text page by page.
    case pdf
    /// DOCX, XLSX, PPTX (and their templates and macro-enabled variants).
    case officeOpenXML
    /// ODT, ODS, ODP (and their templates).
    case openDocument
    /// EPUB: OPF metadata, the spine's documents.
    case epub
    /// RTF: `\info` and text.
    case rtf
    /// Word, Excel and PowerPoint 97–2003.
    case word, excel, powerPoint
    /// A photo's EXIF: camera, date taken, position, description.
    case photo
    /// A ZIP archive libmagic could not name: read when its parts make it an office document
    /// or an EPUB.
    case zipArchive
    /// An OLE2 compound file libmagic could not name, such as a password-protected DOCX
    /// (recorded as encrypted).
    case compoundFile
    /// Keynote, Pages, Numbers (`.key`, `.pages`, `.numbers`): the XML package of iWork '09 or
    /// the `.iwa` parts of iWork 2013+.
    case iWork
    /// An archive (ZIP, tar, 7z, RAR): its members' names and the text of its text and
    /// document members; or a compressed file (gzip, bzip2, xz, zstd, lz4…): the one file
    /// inside it, read by its own type (a `.tar.gz` is an archive).
    case archive

    /// The format of a file, from libmagic's MIME type and the file's name; nil when the
    /// file has no text to read.
    ///
    /// Pure and cheap (a few string comparisons): it opens nothing, so both the indexer and the
    /// worker may call it for every file. The extension decides only where the type leaves a
    /// choice (XML or XHTML, a ZIP or an office document, text or Markdown).
    ///
    /// - Parameters:
    ///   - contentType: libmagic's MIME type, such as `text/html` (parameters ignored).
    ///   - fileName: the last component of the file's path, as bytes.
    public init?(contentType: String, fileName: some BidirectionalCollection<UInt8>) {
        let type = contentType.split(separator: ";", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        let fileExtension = Self.lowercasedExtension(of: fileName)
        switch type {
        case "text/html", "application/xhtml+xml":
            self = .html
        case "text/xml", "application/xml", "image/svg+xml", "application/rss+xml", "application/atom+xml":
            self = fileExtension == "xhtml" || fileExtension == "html" || fileExtension == "htm" ? .html : .xml
        case "message/rfc822", "message/news":
            self = .mail
        case "application/mbox":
            self = .mbox
        case "application/json", "application/javascript", "application/x-ndjson", "application/csv":
            self = .plainText
        case _ where Self.isRoffType(type):
            self = .roff
        case "application/pdf", "application/x-pdf": self = .pdf
        case "application/epub+zip": self = .epub
        case "text/rtf", "application/rtf":
            // Markup with control words, not text to index as it is: RTFExtractor reads it.
            self = .rtf
        case "application/msword": self = .word
        case "application/vnd.ms-excel": self = .excel
        case "application/vnd.ms-powerpoint": self = .powerPoint
        case "application/zip":
            if Self.iWorkExtensions.contains(fileExtension) {
                self = .iWork
            } else {
                self = Self.zipDocumentExtensions.contains(fileExtension) ? .zipArchive : .archive
            }
        case "application/vnd.apple.keynote", "application/vnd.apple.pages", "application/vnd.apple.numbers",
             "application/x-iwork-keynote-sffkey", "application/x-iwork-pages-sffpages", "application/x-iwork-numbers-sffnumbers":
            self = .iWork
        case _ where Self.archiveTypes.contains(type):
            self = .archive
        case "application/octet-stream" where Self.zipDocumentExtensions.contains(fileExtension):
            // libmagic says "Microsoft OOXML" with no MIME type when the parts that name the
            // kind of document come late in the archive: read by what its parts are.
            self = .zipArchive
        case "application/octet-stream" where ["html", "htm", "xhtml"].contains(fileExtension):
            // A few stray bytes make libmagic call an HTML page "data"; libxml2's HTML parser
            // recovers from them.
            self = .html
        case "application/encrypted":
            self = .compoundFile
        case "application/x-ole-storage", "application/cdfv2":
            // Other compound files (installers, Outlook messages) hold nothing we read.
            guard Self.zipDocumentExtensions.contains(fileExtension) else { return nil }
            self = .compoundFile
        // PNG and GIF rarely carry EXIF: no round trip for them.
        case "image/jpeg", "image/tiff", "image/heic", "image/heif", "image/avif", "image/webp", "image/jxl": self = .photo
        case _ where type.hasPrefix("application/vnd.openxmlformats-officedocument."): self = .officeOpenXML
        case _ where type.hasPrefix("application/vnd.oasis.opendocument."): self = .openDocument
        case _ where type.hasPrefix("text/") || Self.textTypes.contains(type):
            if Self.markdownExtensions.contains(fileExtension) || type == "text/markdown" {
                self = .markdown
            } else if fileExtension == "eml" {
                self = .mail
            } else if fileExtension == "mbox" {
                self = .mbox
            } else if type.hasPrefix("text/"), Self.isManualSection(fileExtension) {
                // libmagic calls a few pages C (`text/x-c`) or plain text.
                self = .roff
            } else {
                self = .plainText
            }
        default:
            return nil
        }
    }

    /// Text that libmagic, or the shared MIME database other tools follow, files under
    /// `application/`: subtitles, scripts, settings. libmagic 5.44 says `application/x-subrip`
    /// ("SubRip, ISO-8859 text"), `application/x-kdelnk`, `application/x-mswinurl`,
    /// `application/x-setupscript` (a Windows `.inf`) and `application/x-wine-extension-ini`;
    /// it files most scripts under `text/`, where other versions and tools say `application/x-…`.
    /// (`application/x-gettext-translation` is a compiled `.mo` catalogue, not text.)
    static let textTypes: Set<String> = [
        "application/x-subrip", "application/x-kdelnk", "application/x-mswinurl", "application/x-setupscript",
        "application/x-wine-extension-ini", "application/x-desktop",
        "application/x-sh", "application/x-shellscript", "application/x-csh", "application/x-perl", "application/x-python",
        "application/x-ruby", "application/x-php", "application/x-httpd-php", "application/x-awk", "application/x-tcl",
        "application/x-lua", "application/x-m4", "application/x-tex", "application/x-latex", "application/x-texinfo",
        "application/yaml", "application/x-yaml", "application/toml", "application/sql", "application/x-sql",
    ]

    /// Whether `contentType` (parameters ignored) is roff: libmagic's `text/troff` ("troff or
    /// preprocessor input"), and the types of the shared MIME database (`application/x-troff-man`,
    /// `-me`, `-ms`, `text/x-troff…`).
    public static func isRoffType(_ contentType: String) -> Bool {
        let type = contentType.split(separator: ";", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        return type == "text/troff" || type.hasPrefix("application/x-troff") || type.hasPrefix("text/x-troff")
    }

    /// Whether a name's extension is a manual section: `1` to `9` with an optional suffix
    /// (`1p`, `3pm`, `3perl`, `1ssl`), `0p`, `n`, `l`, `man`, `mdoc`.
    ///
    /// - Parameter fileExtension: The extension, lowercased, without its dot.
    public static func isManualSection(_ fileExtension: String) -> Bool {
        if ["0p", "n", "l", "man", "mdoc"].contains(fileExtension) { return true }
        guard let first = fileExtension.unicodeScalars.first, ("1"..."9").contains(first) else { return false }
        let suffix = fileExtension.unicodeScalars.dropFirst()
        return suffix.count <= 8 && suffix.allSatisfy { ("a"..."z").contains($0) }
    }

    /// Whether a file's name is a manual page's (`ls.1`, `Carp.3pm`), compressed or not
    /// (`ls.1.gz`, `tar.1.xz`).
    public static func isManualPageName(_ name: some BidirectionalCollection<UInt8>) -> Bool {
        var fileExtension = lowercasedExtension(of: name)
        if ["gz", "bz2", "xz", "zst", "lz4", "lz", "lzma", "z"].contains(fileExtension),
           let dot = name.lastIndex(of: UInt8(ascii: ".")) {
            fileExtension = lowercasedExtension(of: name[..<dot])
        }
        return isManualSection(fileExtension)
    }

    /// Names of ZIP-based documents libmagic sometimes calls `application/zip`.
    static let zipDocumentExtensions: Set<String> = [
        "docx", "docm", "dotx", "xlsx", "xlsm", "xltx", "pptx", "pptm", "potx", "ppsx",
        "odt", "ods", "odp", "odg", "ott", "ots", "otp", "epub",
    ]

    /// libmagic's MIME types of the archives and compressed files libarchive reads (ZIP is
    /// routed above, with the documents that are ZIP packages).
    static let archiveTypes: Set<String> = compressedTypes.union([
        "application/x-tar", "application/x-gtar", "application/x-ustar", "application/x-7z-compressed",
        "application/x-rar", "application/vnd.rar", "application/x-cpio", "application/java-archive",
    ])

    /// libmagic's MIME types of compressed files: one compressed stream, a single file (read as
    /// the file inside it) or a tar.
    public static let compressedTypes: Set<String> = [
        "application/gzip", "application/x-gzip", "application/x-bzip2", "application/x-xz", "application/zstd",
        "application/x-zstd", "application/x-lzma", "application/x-lzip", "application/x-lz4", "application/x-compress",
    ]

    /// Names of iWork documents, which libmagic calls `application/zip`.
    static let iWorkExtensions: Set<String> = ["key", "pages", "numbers"]

    /// Names of Markdown files, which libmagic types as plain text.
    static let markdownExtensions: Set<String> = ["md", "markdown", "mdown", "mkd", "mkdn"]

    /// The part of the name after its last dot, lowercased (ASCII); empty when none.
    static func lowercasedExtension(of name: some BidirectionalCollection<UInt8>) -> String {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else { return "" }
        let suffix = name[name.index(after: dot)...]
        guard suffix.count <= 16 else { return "" }
        return String(decoding: suffix.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}
