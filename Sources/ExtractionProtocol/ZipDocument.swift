/// A document that is a ZIP package (OOXML, OpenDocument, EPUB), known by the parts its
/// central directory lists: the office evidence of ``TypeEvidence``.
///
/// libmagic names such a package by its first member (`[Content_Types].xml`, `mimetype`);
/// when a tool wrote other members first it says "Zip archive data" or "data". The central
/// directory, at the end of the file, lists every member's name: read from there (bounded),
/// with no decompression.
struct ZipDocument: Equatable {
    /// The document's MIME type, as libmagic prints it.
    var contentType: String
    /// libmagic's description of such a document.
    var kind: String
    /// Every one of these members must be present…
    var requiredMembers: [String]
    /// …and at least one member's name must start with this.
    var memberPrefix: String

    /// The document a name's extension promises; nil for other extensions.
    static func expected(forExtension fileExtension: String) -> ZipDocument? {
        let ooxml = "application/vnd.openxmlformats-officedocument."
        let odf = "application/vnd.oasis.opendocument."
        func office(_ type: String, _ kind: String, _ prefix: String) -> ZipDocument {
            ZipDocument(contentType: ooxml + type, kind: kind, requiredMembers: ["[Content_Types].xml"], memberPrefix: prefix)
        }
        func openDocument(_ type: String, _ kind: String) -> ZipDocument {
            ZipDocument(contentType: odf + type, kind: kind, requiredMembers: ["mimetype"], memberPrefix: "content.xml")
        }
        switch fileExtension {
        case "docx": return office("wordprocessingml.document", "Microsoft Word 2007+", "word/")
        case "dotx": return office("wordprocessingml.template", "Microsoft Word 2007+", "word/")
        case "xlsx": return office("spreadsheetml.sheet", "Microsoft Excel 2007+", "xl/")
        case "xltx": return office("spreadsheetml.template", "Microsoft Excel 2007+", "xl/")
        case "pptx": return office("presentationml.presentation", "Microsoft PowerPoint 2007+", "ppt/")
        case "potx": return office("presentationml.template", "Microsoft PowerPoint 2007+", "ppt/")
        case "ppsx": return office("presentationml.slideshow", "Microsoft PowerPoint 2007+", "ppt/")
        case "odt": return openDocument("text", "OpenDocument Text")
        case "ott": return openDocument("text-template", "OpenDocument Text Template")
        case "ods": return openDocument("spreadsheet", "OpenDocument Spreadsheet")
        case "ots": return openDocument("spreadsheet-template", "OpenDocument Spreadsheet Template")
        case "odp": return openDocument("presentation", "OpenDocument Presentation")
        case "otp": return openDocument("presentation-template", "OpenDocument Presentation Template")
        case "odg": return openDocument("graphics", "OpenDocument Drawing")
        case "epub":
            return ZipDocument(contentType: "application/epub+zip", kind: "EPUB document", requiredMembers: ["mimetype"],
                               memberPrefix: "META-INF/container.xml")
        default: return nil
        }
    }

    /// Whether the members `names` make this document.
    func isHeld(in names: Set<String>) -> Bool {
        requiredMembers.allSatisfy(names.contains) && names.contains { $0.hasPrefix(memberPrefix) }
    }

    /// The largest central directory read: a package of thousands of parts.
    static let maximumDirectorySize = 4 << 20

    /// The names of a ZIP file's members, from its central directory; nil when the end of
    /// the file holds no end-of-central-directory record, or a ZIP64 one (such packages are
    /// huge and libmagic names them anyway), or the directory is damaged.
    /// - Parameters:
    ///   - size: the file's size in bytes.
    ///   - read: the file's bytes at an offset, up to a length.
    static func memberNames(size: Int, read: (Int, Int) -> [UInt8]?) -> Set<String>? {
        // The end record (22 bytes) and a comment of at most 65 535 bytes.
        let tailLength = min(size, 22 + 0xFFFF)
        guard let tail = read(size - tailLength, tailLength), tail.count >= 22 else { return nil }
        var end = tail.count - 22
        while end >= 0, !(tail[end] == 0x50 && tail[end + 1] == 0x4B && tail[end + 2] == 0x05 && tail[end + 3] == 0x06) {
            end -= 1
        }
        guard end >= 0 else { return nil }
        let directorySize = Int(LittleEndian.uint32(tail, end + 12))
        let directoryOffset = Int(LittleEndian.uint32(tail, end + 16))
        guard directorySize <= maximumDirectorySize, directoryOffset != 0xFFFF_FFFF, directoryOffset + directorySize <= size,
              let directory = read(directoryOffset, directorySize), directory.count == directorySize
        else { return nil }
        var names = Set<String>()
        var at = 0
        while at + 46 <= directory.count {
            guard directory[at] == 0x50, directory[at + 1] == 0x4B, directory[at + 2] == 0x01, directory[at + 3] == 0x02 else {
                return nil
            }
            let nameLength = Int(LittleEndian.uint16(directory, at + 28))
            let extraLength = Int(LittleEndian.uint16(directory, at + 30))
            let commentLength = Int(LittleEndian.uint16(directory, at + 32))
            guard at + 46 + nameLength <= directory.count else { return nil }
            names.insert(String(decoding: directory[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self))
            at += 46 + nameLength + extraLength + commentLength
        }
        return names
    }
}
