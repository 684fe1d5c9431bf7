import CLibSnappy
import ExtractionProtocol

/// The text of one `.iwa` part of an iWork 2013+ package: Snappy-framed protobuf, read with a
/// small wire-format reader of our own (no generated code, no schema).
///
/// A part is a run of chunks, each a `0x00` byte, a 3-byte little-endian length and a raw
/// Snappy block. Inflated, it is a run of archives: a varint length, an `ArchiveInfo`
/// (field 2: `MessageInfo`s, each with its message's type in field 1 and length in field 3),
/// then the messages. Text lives in two kinds of messages, known by their type numbers in
/// every iWork application:
/// - `TSWP.StorageArchive` (2001, 2005): field 3, the text of a body, a text box, a slide's
///   title or notes, a cell's rich text;
/// - `TST.TableDataList` (6005): field 3, its entries, each with a string in field 3 (the
///   strings of a table's cells).
enum IWorkArchive {
    static let storageTypes: Set<UInt64> = [2001, 2005]
    static let tableDataListType: UInt64 = 6005
    /// The most bytes one part may inflate to (Snappy blocks are at most 64 KiB each).
    static let maximumInflatedSize = 64 << 20

    /// `Index/Document.iwa` first, then the others by name with their numbers in numeric order
    /// (`Slide-2` before `Slide-10`), so that text comes in the document's order as far as
    /// names tell it.
    static func readingOrder(_ a: String, _ b: String) -> Bool {
        func key(_ path: String) -> (Int, String, Int) {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            let stem = name.prefix { !$0.isNumber }
            let number = Int(name.drop { !$0.isNumber }.prefix { $0.isNumber }) ?? 0
            return (name == "Document.iwa" ? 0 : 1, String(stem), number)
        }
        return key(a) < key(b)
    }

    /// Appends the text of the part `bytes` (named `name`, for errors) to `text`.
    static func collectText(_ bytes: [UInt8], name: String, into text: inout TextCollector) throws(ExtractionFailure) {
        let inflated = try inflate(bytes, name: name)
        var reader = ProtobufReader(inflated[...])
        while !reader.isAtEnd && !text.isFull {
            guard let infoLength = reader.varint(), let info = reader.bytes(count: Int(clamping: infoLength)) else {
                throw ExtractionFailure(.decodeFailed, "\(name): a damaged archive header")
            }
            for message in messageInfos(info) {
                guard let payload = reader.bytes(count: message.length) else {
                    throw ExtractionFailure(.decodeFailed, "\(name): a message runs past the part's end")
                }
                if storageTypes.contains(message.type) {
                    for field in ProtobufReader.fields(payload) where field.number == 3 {
                        if case .bytes(let value) = field.value { appendText(value, to: &text) }
                    }
                } else if message.type == tableDataListType {
                    for entry in ProtobufReader.fields(payload) where entry.number == 3 {
                        guard case .bytes(let value) = entry.value else { continue }
                        for field in ProtobufReader.fields(value) where field.number == 3 {
                            if case .bytes(let string) = field.value { appendText(string, to: &text) }
                        }
                    }
                }
            }
        }
    }

    /// The (type, length) of each message an `ArchiveInfo` announces.
    static func messageInfos(_ info: ArraySlice<UInt8>) -> [(type: UInt64, length: Int)] {
        ProtobufReader.fields(info).compactMap { field in
            guard field.number == 2, case .bytes(let message) = field.value else { return nil }
            var type: UInt64 = 0
            var length = 0
            for part in ProtobufReader.fields(message) {
                if part.number == 1, case .varint(let value) = part.value { type = value }
                if part.number == 3, case .varint(let value) = part.value { length = Int(clamping: value) }
            }
            return (type, length)
        }
    }

    /// Text as iWork stores it: U+FFFC marks an attachment (a picture, a table) and U+2028 or
    /// U+2029 separate lines and paragraphs.
    private static func appendText(_ bytes: ArraySlice<UInt8>, to text: inout TextCollector) {
        let string = String(decoding: bytes, as: UTF8.self)
        let cleaned = String(string.unicodeScalars.map { scalar -> Character in
            switch scalar.value {
            case 0xFFFC, 0x0000...0x0008, 0x000B, 0x000C, 0x000E...0x001F: " "
            case 0x2028, 0x2029, 0x000D: "\n"
            default: Character(scalar)
            }
        })
        guard cleaned.contains(where: { $0.isLetter || $0.isNumber }) else { return }
        text.append(cleaned)
        text.appendBreak()
    }

    /// Inflates a part's Snappy chunks, bounded by ``maximumInflatedSize``.
    /// The corresponding C functions are `snappy_uncompressed_length` and `snappy_uncompress`.
    static func inflate(_ bytes: [UInt8], name: String) throws(ExtractionFailure) -> [UInt8] {
        var output: [UInt8] = []
        var offset = 0
        while offset < bytes.count {
            guard offset + 4 <= bytes.count, bytes[offset] == 0 else {
                throw ExtractionFailure(.decodeFailed, "\(name): not a Snappy-framed iWork part")
            }
            let length = Int(bytes[offset + 1]) | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]) << 16
            let start = offset + 4
            guard start + length <= bytes.count else {
                throw ExtractionFailure(.decodeFailed, "\(name): a Snappy chunk runs past the part's end")
            }
            // The closure cannot throw a typed error: it answers nil for a damaged chunk.
            let room = maximumInflatedSize - output.count
            let chunk: [UInt8]?? = bytes[start..<(start + length)].withUnsafeBytes { raw in
                let compressed = raw.baseAddress?.assumingMemoryBound(to: CChar.self)
                var size = 0
                guard snappy_uncompressed_length(compressed, raw.count, &size) == SNAPPY_OK else { return .some(nil) }
                guard size <= room else { return nil }
                var inflated = [UInt8](repeating: 0, count: size)
                let status = inflated.withUnsafeMutableBytes { out in
                    snappy_uncompress(compressed, raw.count, out.baseAddress?.assumingMemoryBound(to: CChar.self), &size)
                }
                return status == SNAPPY_OK ? Array(inflated.prefix(size)) : .some(nil)
            }
            guard let chunk else {
                throw ExtractionFailure(.tooLarge, "\(name) inflates to more than \(maximumInflatedSize) bytes")
            }
            guard let chunk else { throw ExtractionFailure(.decodeFailed, "\(name): a damaged Snappy chunk") }
            output += chunk
            offset = start + length
        }
        return output
    }
}
