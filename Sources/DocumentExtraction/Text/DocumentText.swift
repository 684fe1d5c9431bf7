// Glibc for free(3) of what the C shim allocates.
import Glibc
import CShimICU

/// Text helpers every format's reader shares.
enum DocumentText {
    /// `text` cut to at most `limit` bytes of UTF-8, on a character boundary.
    static func capped(_ text: String, toBytes limit: Int) -> (text: String, wasCut: Bool) {
        let utf8 = text.utf8
        guard utf8.count > limit else { return (text, false) }
        var end = utf8.index(utf8.startIndex, offsetBy: limit)
        // Back off continuation bytes (10xxxxxx) to the start of the character cut in two.
        while end > utf8.startIndex, utf8[end] & 0xC0 == 0x80 { end = utf8.index(before: end) }
        return (String(decoding: utf8[..<end], as: UTF8.self), true)
    }

    /// Whether `text` may hold a script written without spaces (its UTF-8 has 3- or 4-byte
    /// characters); a cheap test before ``markingWordBreaks(_:)``.
    static func mayNeedWordBreaks(_ text: String) -> Bool {
        text.utf8.contains { $0 >= 0xE0 }
    }

    /// `text` with U+200B between the words ICU finds in runs of Han, Kana, Thai, Lao, Khmer
    /// and Myanmar (see ``ExtractedDocument``); unchanged if ICU fails.
    static func markingWordBreaks(_ text: String) -> String {
        var text = text
        return text.withUTF8 { utf8 in
            var output: UnsafeMutablePointer<CChar>?
            var length = 0
            let status = utf8.withMemoryRebound(to: CChar.self) {
                cicu_mark_word_breaks($0.baseAddress, $0.count, &output, &length)
            }
            guard status == 0, let output else { return String(decoding: utf8, as: UTF8.self) }
            defer { free(output) }
            return output.withMemoryRebound(to: UInt8.self, capacity: length) {
                String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
            }
        }
    }

    /// Whitespace collapsed to single spaces, trimmed, at most 1 000 characters; nil when empty.
    static func metadataLine(_ value: String) -> String? {
        let collapsed = collapsingWhitespace(value)
        guard !collapsed.isEmpty else { return nil }
        return String(collapsed.prefix(1000))
    }

    /// Each value as ``metadataLine(_:)``, empty ones and repeats dropped, at most 100.
    static func metadataList(_ values: [String]) -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for value in values {
            guard result.count < 100, let line = metadataLine(value), seen.insert(line).inserted else { continue }
            result.append(line)
        }
        return result
    }

    /// Runs of whitespace become one space; leading and trailing whitespace go.
    static func collapsingWhitespace(_ value: some StringProtocol) -> String {
        value.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// `value` without the characters of `characters` at either end.
    static func trimming(_ value: some StringProtocol, _ characters: String = " \t\n\r") -> String {
        // Compared scalar by scalar: "\r\n" is one Character (a grapheme cluster).
        let set = Set(characters.unicodeScalars)
        func isTrimmed(_ character: Character) -> Bool { character.unicodeScalars.allSatisfy(set.contains) }
        guard let first = value.firstIndex(where: { !isTrimmed($0) }),
              let last = value.lastIndex(where: { !isTrimmed($0) }) else { return "" }
        return String(value[first...last])
    }

    /// The character and entity references most common in metadata (`&amp;`, `&#233;`,
    /// `&#x2014;`), decoded.
    static func decodingEntities(_ text: some StringProtocol) -> String {
        guard text.contains("&") else { return String(text) }
        var result = ""
        var rest = text[...]
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            rest = rest[ampersand...]
            guard let semicolon = rest.prefix(12).firstIndex(of: ";") else {
                result.append("&")
                rest = rest.dropFirst()
                continue
            }
            let name = rest[rest.index(after: rest.startIndex)..<semicolon]
            if let character = entity(String(name)) {
                result.append(character)
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result.append("&")
                rest = rest.dropFirst()
            }
        }
        return result + rest
    }

    private static func entity(_ name: String) -> Character? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        case "nbsp": return " "
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init).map(Character.init)
        }
    }
}
