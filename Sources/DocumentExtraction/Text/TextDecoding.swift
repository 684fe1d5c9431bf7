// Glibc for free(3) of what the C shim allocates.
import Glibc
import CICU
import ExtractionProtocol

/// Turns the bytes of a text in an unknown encoding into a `String`.
///
/// In order: a byte-order mark; the charset the document declares (an HTML `meta`, a mail's
/// `Content-Type`), when ICU knows it; valid (or nearly valid) UTF-8; UTF-16 without a BOM,
/// by its zero bytes; TIS-620 by its Thai spelling (``looksLikeTIS620(_:)``: ICU's detector has
/// no Thai); ICU's charset detector (`ucsdet`); Windows-1252 as the last resort,
/// since every byte means something in it. ISO-8859-1 is read as Windows-1252, its superset
/// in practice (as browsers do). Binary data is refused.
enum TextDecoding {
    /// What was decoded, and how.
    struct Decoded {
        var text: String
        /// The charset used, as ICU names it (`UTF-8`, `Shift_JIS`, `windows-1252`).
        var charset: String
    }

    /// Decodes `bytes`.
    ///
    /// - Parameters:
    ///   - declared: a charset the document names for itself, if any.
    ///   - isComplete: false when `bytes` is a prefix of the file (a character may be cut
    ///     at its end).
    /// - Throws: ``ExtractionFailure`` with ``ExtractionFailureCode/decodeFailed`` when
    ///   the bytes are not text in any encoding we can tell.
    static func decode(_ bytes: [UInt8], declared: String? = nil, isComplete: Bool = true)
        throws(ExtractionFailure) -> Decoded {
        if let (charset, bomLength) = byteOrderMark(bytes) {
            return try convert(Array(bytes[bomLength...]), from: charset)
        }
        if let declared = declared.map(normalized), !declared.isEmpty, declared != "utf-8", declared != "us-ascii",
           isKnown(declared) {
            return try convert(bytes, from: declared == "iso-8859-1" ? "windows-1252" : declared)
        }
        let scan = UTF8Scan(bytes, isComplete: isComplete)
        // Zero bytes are control characters to the UTF-8 scan: look for UTF-16 first.
        if scan.controls > 0, let charset = utf16WithoutMark(bytes) {
            return try convert(bytes, from: charset)
        }
        // Legacy encodings form valid UTF-8 sequences only by chance, among many invalid
        // bytes: valid sequences far outnumbering invalid bytes mean damaged UTF-8, read with
        // U+FFFD for what is broken.
        if scan.invalid == 0 || scan.validMultibyteBytes >= 4 * scan.invalid {
            guard !scan.looksBinary else { throw notText }
            return Decoded(text: String(decoding: bytes, as: UTF8.self), charset: "UTF-8")
        }
        guard !scan.looksBinary else { throw notText }
        // ICU's detector knows no Thai encoding: TIS-620 is told by its spelling first.
        if looksLikeTIS620(bytes) { return try convert(bytes, from: "TIS-620") }
        if let detected = detect(bytes), detected != "UTF-8" {
            return try convert(bytes, from: detected == "ISO-8859-1" ? "windows-1252" : detected)
        }
        return try convert(bytes, from: "windows-1252")
    }

    static let notText = ExtractionFailure(.decodeFailed, "not text in an encoding that could be recognised")

    /// A BOM's charset and length.
    static func byteOrderMark(_ bytes: [UInt8]) -> (String, Int)? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return ("UTF-8", 3) }
        if bytes.starts(with: [0xFF, 0xFE, 0, 0]) { return ("UTF-32LE", 4) }
        if bytes.starts(with: [0, 0, 0xFE, 0xFF]) { return ("UTF-32BE", 4) }
        if bytes.starts(with: [0xFF, 0xFE]) { return ("UTF-16LE", 2) }
        if bytes.starts(with: [0xFE, 0xFF]) { return ("UTF-16BE", 2) }
        return nil
    }

    /// UTF-16 text without a BOM: in Latin-script text every other byte is zero.
    /// (Text in other scripts without a BOM is left to ICU's detector.)
    static func utf16WithoutMark(_ bytes: [UInt8]) -> String? {
        let sample = bytes.prefix(4096)
        guard sample.count >= 16 else { return nil }
        var zeros = (even: 0, odd: 0)
        for (offset, byte) in sample.enumerated() where byte == 0 {
            if offset % 2 == 0 { zeros.even += 1 } else { zeros.odd += 1 }
        }
        let half = sample.count / 2
        if zeros.odd * 10 >= half * 4 && zeros.even * 20 <= half { return "UTF-16LE" }
        if zeros.even * 10 >= half * 4 && zeros.odd * 20 <= half { return "UTF-16BE" }
        return nil
    }

    /// Whether `bytes` read as TIS-620 (Thai, as Windows-874 also encodes it) spell Thai: most
    /// bytes are Thai letters, none is one TIS-620 leaves unassigned, and nearly every vowel
    /// or tone mark written above or below follows a consonant (or another such mark), as
    /// Thai spelling requires. Cyrillic, Greek, Arabic or Hebrew in their 8-bit encodings use
    /// the unassigned bytes, or put those marks after anything.
    static func looksLikeTIS620(_ bytes: [UInt8]) -> Bool {
        let sample = bytes.prefix(65_536)
        var high = 0, marks = 0, wellPlaced = 0
        var previous: UInt8 = 0
        for byte in sample {
            if byte >= 0x80 {
                switch byte {
                case 0x80...0xA0, 0xDB...0xDE, 0xFC...0xFF: return false  // unassigned in TIS-620
                default: break
                }
                high += 1
                // Marks above and below: U+0E31, U+0E34–U+0E3A, U+0E47–U+0E4E.
                if byte == 0xD1 || (0xD4...0xDA).contains(byte) || (0xE7...0xEE).contains(byte) {
                    marks += 1
                    let afterConsonant = (0xA1...0xCE).contains(previous)
                    let afterMark = previous == 0xD1 || (0xD4...0xDA).contains(previous) || (0xE7...0xEE).contains(previous)
                    if afterConsonant || afterMark { wellPlaced += 1 }
                }
            }
            previous = byte
        }
        return high >= 32 && high * 3 >= sample.count && marks * 20 >= high && wellPlaced * 10 >= marks * 9
    }

    /// ICU's best guess, when it has a confident one. The corresponding C function is `ucsdet_detect`.
    static func detect(_ bytes: [UInt8]) -> String? {
        var name = [CChar](repeating: 0, count: 64)
        let confidence = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cicu_detect_charset($0.baseAddress, $0.count, &name, name.count) }
        }
        guard confidence >= 10 else { return nil }
        return String(cString: name)
    }

    static func isKnown(_ charset: String) -> Bool { cicu_charset_is_known(charset) != 0 }

    /// A declared charset's name, lowercased and unquoted.
    static func normalized(_ charset: String) -> String {
        let lowered = DocumentText.trimming(charset, " \t\"'").lowercased()
        return lowered == "utf8" ? "utf-8" : lowered == "ascii" ? "us-ascii" : lowered
    }

    /// Converts with ICU; invalid sequences become U+FFFD. The corresponding C function is `ucnv_convertEx`.
    static func convert(_ bytes: [UInt8], from charset: String) throws(ExtractionFailure) -> Decoded {
        if charset == "UTF-8" { return Decoded(text: String(decoding: bytes, as: UTF8.self), charset: charset) }
        var output: UnsafeMutablePointer<CChar>?
        var length = 0
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cicu_convert_to_utf8(charset, $0.baseAddress, $0.count, &output, &length) }
        }
        guard status == 0, let output else {
            throw ExtractionFailure(.decodeFailed, "cannot convert text from \(charset)")
        }
        defer { free(output) }
        let text = output.withMemoryRebound(to: UInt8.self, capacity: max(length, 1)) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
        return Decoded(text: text, charset: charset)
    }
}

/// One pass over bytes counting UTF-8's valid multi-byte characters, invalid bytes and
/// control characters.
struct UTF8Scan {
    /// Bytes in valid multi-byte characters.
    var validMultibyteBytes = 0
    var invalid = 0
    var controls = 0
    var count = 0

    init(_ bytes: [UInt8], isComplete: Bool) {
        count = bytes.count
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D && byte != 0x0C && byte != 0x1B {
                    controls += 1
                }
                index += 1
                continue
            }
            let length = switch byte {
            case 0xC2...0xDF: 2
            case 0xE0...0xEF: 3
            case 0xF0...0xF4: 4
            default: 0 // a continuation byte out of place, or a byte UTF-8 never uses
            }
            guard length > 0 else {
                invalid += 1
                index += 1
                continue
            }
            if index + length > bytes.count {
                // A character cut by the end of a prefix is not an error.
                if isComplete { invalid += 1 }
                break
            }
            if bytes[(index + 1)..<(index + length)].allSatisfy({ $0 & 0xC0 == 0x80 }) {
                validMultibyteBytes += length
                index += length
            } else {
                invalid += 1
                index += 1
            }
        }
    }

    /// More than one byte in a hundred is a control character (NUL included): not text.
    var looksBinary: Bool { controls * 100 > max(count, 1) }
}
