import CLibZlib
import Foundation

/// An item's text as the index stores it: UTF-8, at most ``maximumBytes``, compressed with
/// zlib (the `item_text.text` column).
///
/// The full-text index of content is contentless (see ``SearchableIndex/contentTableSQL``), so
/// the index keeps the text itself for snippets, `show --text` and phrase checks; compressed,
/// it takes about half the room (Benchmarks/README.md, "Content index").
enum StoredContent {
    /// The most text an item keeps: 1 MiB of UTF-8, as Tracker's default.
    static let maximumBytes = 1 << 20

    /// `text` cut at ``maximumBytes`` on a character boundary.
    static func capped(_ text: String) -> String {
        guard text.utf8.count > maximumBytes else { return text }
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: maximumBytes)
        // Back to the start of a scalar: UTF-8 continuation bytes are 10xxxxxx.
        while end > text.utf8.startIndex, (text.utf8[end] & 0xC0) == 0x80 { end = text.utf8.index(before: end) }
        return String(text.utf8[..<end])!
    }

    /// The compressed form of `text` (capped).
    static func compress(_ text: String) -> Data {
        let bytes = Array(capped(text).utf8)
        var length = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(length) + 4)
        // A 4-byte little-endian length first: inflating then needs no guessing.
        let count = UInt32(bytes.count)
        for shift in 0..<4 { output[shift] = UInt8(truncatingIfNeeded: count >> (8 * UInt32(shift))) }
        // Level 4: on Tika's test documents' 4 MB of text, 3 % larger than level 6 for 40 % less
        // time (the writer's thread compresses every text of a content pass).
        let status = output.withUnsafeMutableBufferPointer { out in
            compress2(out.baseAddress! + 4, &length, bytes, uLong(bytes.count), 4)
        }
        precondition(status == Z_OK, "compress2 failed with a buffer of compressBound's size")
        return Data(output[..<(4 + Int(length))])
    }

    /// The first `limit` bytes (or fewer, at a character boundary) of the text of a compressed
    /// value, inflating no more than that: what ranking reads of long texts.
    static func decompressPrefix(_ data: Data, limit: Int) -> String? {
        data.withUnsafeBytes { decompressPrefix($0.bindMemory(to: UInt8.self), limit: limit) }
    }

    /// ``decompressPrefix(_:limit:)`` of a value's bytes in place (a column of the current
    /// row): the compressed text is not copied, whatever its length.
    static func decompressPrefix(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> String? {
        guard bytes.count >= 4, let base = bytes.baseAddress else { return nil }
        let count = (0..<4).reduce(0) { $0 | Int(bytes[$1]) << (8 * $1) }
        guard count > limit else { return decompress(bytes) }
        var output = [UInt8](repeating: 0, count: limit)
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        let produced: Int = output.withUnsafeMutableBufferPointer { out in
            stream.next_in = UnsafeMutablePointer(mutating: base + 4)
            stream.avail_in = uInt(bytes.count - 4)
            stream.next_out = out.baseAddress
            stream.avail_out = uInt(limit)
            let status = inflate(&stream, Z_SYNC_FLUSH)
            return status == Z_OK || status == Z_STREAM_END ? limit - Int(stream.avail_out) : -1
        }
        guard produced >= 0 else { return nil }
        // A character cut at the end is left out (it would be repaired as U+FFFD).
        var end = produced
        var lead = produced - 1
        while lead > 0 && output[lead] & 0xC0 == 0x80 { lead -= 1 }
        if lead >= 0 && output[lead] >= 0xC0 {
            let length = output[lead] >= 0xF0 ? 4 : output[lead] >= 0xE0 ? 3 : 2
            if lead + length > produced { end = lead }
        }
        return String(decoding: output[..<end], as: UTF8.self)
    }

    /// The text of a compressed value, or `nil` when it is not one (a damaged row).
    static func decompress(_ data: Data) -> String? {
        data.withUnsafeBytes { decompress($0.bindMemory(to: UInt8.self)) }
    }

    /// ``decompress(_:)`` of a value's bytes in place.
    static func decompress(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.count >= 4, let base = bytes.baseAddress else { return nil }
        let count = (0..<4).reduce(0) { $0 | Int(bytes[$1]) << (8 * $1) }
        guard count <= maximumBytes * 4 else { return nil }
        var output = [UInt8](repeating: 0, count: max(count, 1))
        var length = uLong(count)
        let status = uncompress(&output, &length, base + 4, uLong(bytes.count - 4))
        guard status == Z_OK, Int(length) == count else { return nil }
        return String(decoding: output[..<count], as: UTF8.self)
    }
}
