// Glibc for free(3) of what the C shim allocates.
import Glibc
import CShimICU
import ExtractionProtocol

/// Turns the bytes of a text in an unknown encoding into a `String`.
///
/// In order: a byte-order mark; the charset the document declares (an HTML `meta`, a mail's
/// `Content-Type`), when ICU knows it (or it is Johab) and the bytes do not belie it
/// (``trusted(_:_:_:)``); valid (or nearly valid) UTF-8; UTF-16 without a BOM,
/// by its zero bytes; TIS-620 by its Thai spelling (``looksLikeTIS620(_:)``: ICU's detector has
/// no Thai), read as Windows-874; Johab by its syllables (``looksLikeJohab(_:)``: ICU has no
/// Johab, glibc's iconv decodes it); ICU's charset detector (`ucsdet`); Windows-1252 as the last resort,
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
        let scan = UTF8Scan(bytes, isComplete: isComplete)
        if let declared = declared.map(normalized), !declared.isEmpty, declared != "utf-8", declared != "us-ascii",
           let charset = trusted(declared, bytes, scan) {
            return try convert(bytes, from: charset)
        }
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
        // ICU's detector knows no Thai encoding and no Johab: they are told by their spelling first.
        if looksLikeTIS620(bytes) { return try convert(bytes, from: "windows-874") }
        if looksLikeJohab(bytes) { return decodeJohab(bytes) }
        if let detected = detect(bytes), detected != "UTF-8" {
            return try convert(bytes, from: detected == "ISO-8859-1" ? "windows-1252" : detected)
        }
        return try convert(bytes, from: "windows-1252")
    }

    /// The charset to read `bytes` in when the document declares `declared` (normalized): the
    /// declared one, unless the bytes say otherwise — valid UTF-8 with multi-byte characters
    /// is UTF-8 (a legacy encoding forms it only by chance), Johab declared EUC-KR is Johab,
    /// and text declared Latin-1,
    /// Windows-1252 or ASCII that spells Thai, Johab or, to ICU's detector with confidence,
    /// another script is in that encoding (a page saved by an editor that kept the template's
    /// declaration). Thai's TIS-620 and ISO-8859-11 are read as Windows-874, their superset
    /// (as browsers do); Latin-1 as Windows-1252. nil when the declaration is of no use.
    static func trusted(_ declared: String, _ bytes: [UInt8], _ scan: UTF8Scan) -> String? {
        if scan.invalid == 0, scan.validMultibyteBytes >= 4, !scan.looksBinary { return "UTF-8" }
        if johabNames.contains(declared) { return "JOHAB" }
        // Korean declared as the common encoding (EUC-KR, its superset CP949) in old Johab files.
        if ["euc-kr", "ks_c_5601-1987", "cp949", "windows-949", "uhc"].contains(declared), looksLikeJohab(bytes) { return "JOHAB" }
        if ["tis-620", "tis620", "iso-8859-11", "iso8859-11", "x-windows-874", "cp874"].contains(declared) { return "windows-874" }
        if ["iso-8859-1", "iso8859-1", "latin1", "l1", "windows-1252", "cp1252"].contains(declared), !scan.looksBinary {
            if looksLikeTIS620(bytes) { return "windows-874" }
            if looksLikeJohab(bytes) { return "JOHAB" }
            // In a Latin language accented letters are a few; in another script's 8-bit encoding
            // nearly every letter is a high byte.
            if mostLettersAreHigh(bytes), let detected = detect(bytes), !["ISO-8859-1", "windows-1252", "UTF-8"].contains(detected) {
                return detected
            }
            return "windows-1252"
        }
        return isKnown(declared) ? declared : nil
    }

    /// Whether more than half of the letters of `bytes` (ASCII letters and bytes from 0xC0) are
    /// high bytes: no Latin language written in Latin-1 or Windows-1252 does that.
    static func mostLettersAreHigh(_ bytes: [UInt8]) -> Bool {
        var ascii = 0, high = 0
        for byte in bytes.prefix(65_536) {
            if byte >= 0xC0 { high += 1 } else if (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) { ascii += 1 }
        }
        return high > ascii
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
    /// bytes are Thai letters, none is one Windows-874 leaves unassigned, and nearly every vowel
    /// or tone mark written above or below follows a consonant (or another such mark), as
    /// Thai spelling requires, and some of those marks stand first of a pair of high bytes
    /// (EUC-KR's Hangul, two bytes a syllable, passes the rest with its trail bytes). Cyrillic, Greek, Arabic or Hebrew in their 8-bit encodings use
    /// the unassigned bytes, or put those marks after anything.
    static func looksLikeTIS620(_ bytes: [UInt8]) -> Bool {
        let sample = bytes.prefix(65_536)
        var high = 0, marks = 0, wellPlaced = 0
        // Where marks stand in their run of high bytes: anywhere in Thai; in EUC-KR's Hangul
        // (a lead byte, then a trail byte that may be one of those values) never first of a pair.
        var run = 0, marksFirstOfPair = 0
        var previous: UInt8 = 0
        for byte in sample {
            defer { run = byte >= 0x80 ? run + 1 : 0 }
            if byte >= 0x80 {
                switch byte {
                // Unassigned in Windows-874 (TIS-620 and its €, …, quotation marks, bullet, dashes
                // and no-break space).
                case 0x81...0x84, 0x86...0x90, 0x98...0x9F, 0xDB...0xDE, 0xFC...0xFF: return false
                case 0x80...0xA0: break
                default: high += 1
                }
                // Marks above and below: U+0E31, U+0E34–U+0E3A, U+0E47–U+0E4E.
                if byte == 0xD1 || (0xD4...0xDA).contains(byte) || (0xE7...0xEE).contains(byte) {
                    marks += 1
                    if run % 2 == 0 { marksFirstOfPair += 1 }
                    let afterConsonant = (0xA1...0xCE).contains(previous)
                    let afterMark = previous == 0xD1 || (0xD4...0xDA).contains(previous) || (0xE7...0xEE).contains(previous)
                    if afterConsonant || afterMark { wellPlaced += 1 }
                }
            }
            previous = byte
        }
        return high >= 32 && high * 3 >= sample.count && marks * 20 >= high && wellPlaced * 10 >= marks * 9
            && marksFirstOfPair * 10 >= marks
    }

    /// ICU's best guess that the bytes bear out, when it has a confident one. A guess of a
    /// Chinese, Japanese or Korean multi-byte charset the decoded text belies
    /// (``spellsCJK(_:in:)``) gives way to the detector's best single-byte candidate, weighed
    /// without markup: in a text of a Latin language with a few accented letters, ICU's Big5
    /// recognizer can outscore ISO-8859-2 (Polish country names, 71 against 32), and in a page
    /// the English names of HTML's tags tip ISO-8859-2 over to ISO-8859-1. (Markup is left in
    /// otherwise: in a short page what remains is too little for the detector.)
    static func detect(_ bytes: [UInt8]) -> String? {
        let candidates = detections(bytes).filter { $0.confidence >= 10 }
        guard let best = candidates.first else { return nil }
        guard multiByteCJK.contains(best.name), !spellsCJK(bytes, in: best.name) else { return best.name }
        return detections(bytes, withoutMarkup: true).first {
            $0.confidence >= 10 && !multiByteCJK.contains($0.name) && !$0.name.hasPrefix("UTF")
        }?.name
    }

    /// The multi-byte charsets of ICU's detector whose guesses are checked against their text.
    static let multiByteCJK: Set = ["Big5", "GB18030", "EUC-JP", "EUC-KR", "Shift_JIS"]

    /// Whether `bytes` read in `charset` look like text in Chinese, Japanese or Korean: a
    /// character of those scripts seldom stands between two ASCII letters, while a Latin
    /// text misread pairs each accented letter with the letter after it into one such character
    /// inside a word (`Amerykańskie` in Big5). True unless a quarter of the non-ASCII
    /// characters do.
    static func spellsCJK(_ bytes: [UInt8], in charset: String) -> Bool {
        guard let decoded = try? convert(Array(bytes.prefix(65_536)), from: charset) else { return false }
        var nonASCII = 0, betweenLetters = 0
        var before: Unicode.Scalar = " ", current: Unicode.Scalar = " "
        func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool { scalar.isASCII && scalar.properties.isAlphabetic }
        for after in decoded.text.unicodeScalars {
            if !current.isASCII {
                nonASCII += 1
                if isASCIILetter(before) && isASCIILetter(after) { betweenLetters += 1 }
            }
            (before, current) = (current, after)
        }
        if !current.isASCII { nonASCII += 1 }
        return betweenLetters * 4 < nonASCII
    }

    /// ICU's guesses, best first, with their confidence (0–100). The corresponding C function
    /// is `ucsdet_detectAll`.
    static func detections(_ bytes: [UInt8], withoutMarkup: Bool = false) -> [(name: String, confidence: Int)] {
        let capacity = 16
        var names = [CChar](repeating: 0, count: capacity * Int(CICU_CHARSET_NAME_SIZE))
        var confidences = [Int32](repeating: 0, count: capacity)
        let count = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                cicu_detect_charsets($0.baseAddress, $0.count, withoutMarkup ? 1 : 0, &names, &confidences, Int32(capacity))
            }
        }
        return (0..<max(0, Int(count))).map { index in
            let slot = names[(index * Int(CICU_CHARSET_NAME_SIZE))...].prefix { $0 != 0 }
            return (String(decoding: slot.map { UInt8(bitPattern: $0) }, as: UTF8.self), Int(confidences[index]))
        }
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
        if charset == "JOHAB" { return decodeJohab(bytes) }
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
