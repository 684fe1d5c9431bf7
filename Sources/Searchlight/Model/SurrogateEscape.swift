/// Decoding of arbitrary bytes into UTF-16 that keeps invalid bytes recoverable.
///
/// Valid UTF-8 sequences decode as usual; every other byte `b` becomes the lone
/// surrogate `0xDC00 + b` (always in U+DC80...U+DCFF because such bytes are >= 0x80).
/// This is the `surrogateescape` error handler of Python, which decodes it back with
/// `s.encode("utf-8", "surrogateescape")`.
///
/// What lets a file name that is not UTF-8 travel through JSON (whose strings are UTF-16 code
/// units, `\udcXX` for an escaped byte) and come back as the same bytes.
///
/// ```swift
/// let name: [UInt8] = [0x72, 0xE9, 0x73]                 // "rés" in Latin-1
/// let units = SurrogateEscape.utf16(from: name)            // r, U+DCE9, s
/// SurrogateEscape.bytes(from: units) == name               // true
/// ```
public enum SurrogateEscape {
    /// Decodes `bytes` into UTF-16 code units, escaping invalid bytes.
    ///
    /// Linear in the bytes; valid UTF-8 gives exactly what `String(decoding:as:)` would.
    public static func utf16(from bytes: [UInt8]) -> [UInt16] {
        var result: [UInt16] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let length = validSequenceLength(bytes, at: index)
            if length == 0 {
                result.append(0xDC00 | UInt16(bytes[index]))
                index += 1
            } else {
                let scalarText = String(decoding: bytes[index..<(index + length)], as: UTF8.self)
                result.append(contentsOf: scalarText.utf16)
                index += length
            }
        }
        return result
    }

    /// Encodes code units produced by ``utf16(from:)`` back into the original bytes.
    ///
    /// A code unit from U+DC80 to U+DCFF gives back its byte, unless it is the second half of a
    /// surrogate pair (a character above U+FFFF). Other lone surrogates, which ``utf16(from:)``
    /// never makes, become U+FFFD.
    public static func bytes(from utf16: [UInt16]) -> [UInt8] {
        var result: [UInt8] = []
        var pending: [UInt16] = []
        func flush() {
            result.append(contentsOf: Array(String(decoding: pending, as: UTF16.self).utf8))
            pending.removeAll(keepingCapacity: true)
        }
        for unit in utf16 {
            if unit >= 0xDC80 && unit <= 0xDCFF, !(pending.last.map { $0 >= 0xD800 && $0 <= 0xDBFF } ?? false) {
                flush()
                result.append(UInt8(unit & 0xFF))
            } else {
                pending.append(unit)
            }
        }
        flush()
        return result
    }

    /// The length of the valid UTF-8 sequence starting at `index`, or 0 if none starts there.
    ///
    /// Strict UTF-8: overlong forms, surrogates (U+D800–U+DFFF) and values above U+10FFFF are
    /// invalid, as are sequences cut short by the end of `bytes`.
    ///
    /// - Parameters:
    ///   - bytes: The bytes.
    ///   - index: A valid index of `bytes`.
    /// - Returns: 1 to 4, or 0.
    public static func validSequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let first = bytes[index]
        let length: Int
        var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
        switch first {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: return 0
        }
        guard index + length <= bytes.count else { return 0 }
        let second = bytes[index + 1]
        guard second >= lower && second <= upper else { return 0 }
        for offset in 2..<max(2, length) where !(0x80...0xBF).contains(bytes[index + offset]) {
            return 0
        }
        return length
    }
}
