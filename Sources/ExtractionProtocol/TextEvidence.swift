/// Whether bytes are text, and in which family of encodings, in libmagic's words: the text
/// evidence of ``TypeEvidence``, with no converter (the indexer links no ICU).
///
/// Text is what has no NUL and next to no control characters (at most one in a thousand
/// bytes, besides tab, line feed, carriage return, form feed, backspace, escape and DOS's
/// end-of-file `^Z`). Its family is then read off the bytes as libmagic's `file_encoding`
/// names it: ASCII, UTF-8 (every multi-byte sequence valid), ISO-8859 (bytes above 0x9F
/// only) or "Non-ISO extended-ASCII" (0x80–0x9F too, as Windows code pages, KOI8 and the
/// Korean and Thai encodings use). Which encoding of the family it is, the worker's decoder
/// finds out.
///
/// ```swift
/// TextEvidence.encoding(of: Array("Grüße".utf8)[...], isComplete: true)        // .utf8
/// TextEvidence.encoding(of: [0x47, 0x72, 0xFC, 0xDF, 0x65][...], isComplete: true)  // .iso8859 (Latin-1)
/// TextEvidence.encoding(of: [0x00, 0x01][...], isComplete: true)               // nil: not text
/// ```
public enum TextEvidence: String, Sendable, Equatable {
    /// Seven-bit bytes only.
    case ascii = "ASCII text"
    /// Valid UTF-8 with at least one multi-byte character.
    case utf8 = "Unicode text, UTF-8 text"
    /// Bytes above 0x9F but none in 0x80–0x9F: an ISO-8859 part (Latin-1, Cyrillic…).
    case iso8859 = "ISO-8859 text"
    /// Bytes in 0x80–0x9F too: a Windows code page, KOI8, or a Korean or Thai encoding.
    case extendedASCII = "Non-ISO extended-ASCII text"

    /// libmagic's description of such text.
    public var description: String { rawValue }

    /// The family of encodings `bytes` are text in; nil when they are not text.
    /// - Parameter isComplete: false when `bytes` is a prefix of the file (a character may be
    ///   cut at its end).
    public static func encoding(of bytes: ArraySlice<UInt8>, isComplete: Bool) -> TextEvidence? {
        var controls = 0
        var high = false
        var inC1Range = false
        for byte in bytes {
            switch byte {
            case 0: return nil
            case 0x08, 0x09, 0x0A, 0x0C, 0x0D, 0x1A, 0x1B: continue
            case 0x01..<0x20, 0x7F: controls += 1
            case 0x80...0x9F:
                high = true
                inC1Range = true
            case 0xA0...0xFF: high = true
            default: continue
            }
        }
        guard controls * 1000 <= bytes.count else { return nil }
        guard high else { return .ascii }
        if isValidUTF8(bytes, isComplete: isComplete) { return .utf8 }
        return inC1Range ? .extendedASCII : .iso8859
    }

    /// Whether every multi-byte sequence of `bytes` is valid UTF-8 (one cut by the end of a
    /// prefix is not an error).
    static func isValidUTF8(_ bytes: ArraySlice<UInt8>, isComplete: Bool) -> Bool {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            let length = switch byte {
            case 0x00..<0x80: 1
            case 0xC2...0xDF: 2
            case 0xE0...0xEF: 3
            case 0xF0...0xF4: 4
            default: 0
            }
            guard length > 0 else { return false }
            guard index + length <= bytes.endIndex else { return !isComplete }
            guard bytes[(index + 1)..<(index + length)].allSatisfy({ $0 & 0xC0 == 0x80 }) else { return false }
            index += length
        }
        return true
    }
}
