/// A Word, Excel or PowerPoint 97–2003 document known by the streams its OLE2 compound file
/// (CFB, [MS-CFB]) names: the other office evidence of ``TypeEvidence``.
///
/// libmagic names such a file by its summary information; when it cannot read that section it
/// says "Composite Document File V2 Document, Cannot read section info" (`application/CDFV2`)
/// and the document went unread. The directory's entries name the streams: `WordDocument`,
/// `Workbook` (or `Book`), `PowerPoint Document`. Read by following the directory's chain of
/// sectors through the FAT, bounded, with no stream read.
struct CompoundDocument: Equatable {
    var contentType: String
    var kind: String
    /// One of these streams must be in the directory.
    var streams: Set<String>

    /// The document a name's extension promises; nil for other extensions.
    static func expected(forExtension fileExtension: String) -> CompoundDocument? {
        switch fileExtension {
        case "doc", "dot":
            CompoundDocument(contentType: "application/msword", kind: "Microsoft Word 97-2003 document", streams: ["WordDocument"])
        case "xls", "xlt":
            CompoundDocument(contentType: "application/vnd.ms-excel", kind: "Microsoft Excel 97-2003 workbook",
                             streams: ["Workbook", "Book"])
        case "ppt", "pot", "pps":
            CompoundDocument(contentType: "application/vnd.ms-powerpoint", kind: "Microsoft PowerPoint 97-2003 presentation",
                             streams: ["PowerPoint Document"])
        default: nil
        }
    }

    /// The signature a compound file starts with.
    static let signature: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]

    /// The most directory sectors followed: thousands of entries.
    static let maximumDirectorySectors = 64

    /// The names of a compound file's directory entries; nil when the header or the chain is
    /// damaged, or the directory lies where the header's 109 FAT sectors do not reach.
    /// - Parameters:
    ///   - head: the file's first bytes (the 512-byte header at least).
    ///   - read: the file's bytes at an offset, up to a length.
    static func entryNames(head: [UInt8], read: (Int, Int) -> [UInt8]?) -> Set<String>? {
        guard head.count >= 512, head.starts(with: signature) else { return nil }
        let shift = Int(LittleEndian.uint16(head, 0x1E))
        guard shift == 9 || shift == 12 else { return nil }
        let sectorSize = 1 << shift
        let perSector = sectorSize / 4
        func sector(_ number: UInt32) -> [UInt8]? {
            guard number < 0xFFFF_FFFA, let bytes = read((Int(number) + 1) * sectorSize, sectorSize), bytes.count == sectorSize
            else { return nil }
            return bytes
        }
        /// The sector after `number` in its chain, by the FAT sector the header's DIFAT names.
        func next(_ number: UInt32) -> UInt32? {
            let index = Int(number) / perSector
            guard index < 109 else { return nil }
            let fatSector = LittleEndian.uint32(head, 0x4C + 4 * index)
            guard let fat = sector(fatSector) else { return nil }
            return LittleEndian.uint32(fat, (Int(number) % perSector) * 4)
        }
        var names = Set<String>()
        var current = LittleEndian.uint32(head, 0x30)
        var followed = 0
        while current != 0xFFFF_FFFE {
            guard followed < maximumDirectorySectors, let directory = sector(current) else { return names.isEmpty ? nil : names }
            for entry in stride(from: 0, to: sectorSize, by: 128) {
                let length = min(64, Int(LittleEndian.uint16(directory, entry + 0x40)))
                guard length >= 2 else { continue }
                let units = stride(from: entry, to: entry + length - 2, by: 2).map { UInt16(directory[$0]) | UInt16(directory[$0 + 1]) << 8 }
                names.insert(String(decoding: units, as: UTF16.self))
            }
            followed += 1
            guard let following = next(current) else { return names }
            current = following
        }
        return names
    }
}
