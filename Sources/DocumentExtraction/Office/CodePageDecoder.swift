import SystemCalls

/// Turns bytes in a Windows code page (RTF's `\ansicpg`, a font's `\fcharset`) into text,
/// through iconv. One converter per code page is kept open.
/// The corresponding C functions are `iconv_open(3)` and `iconv(3)` (``CharacterSetConverter``).
final class CodePageDecoder {
    private var converters: [Int: CharacterSetConverter?] = [:]

    /// Decodes `bytes` in code page `codePage` (1252, 1251, 932…); bytes iconv cannot convert
    /// become U+FFFD. Code pages iconv does not know are read as Windows-1252.
    func decode(_ bytes: [UInt8], codePage: Int) -> String {
        guard !bytes.isEmpty else { return "" }
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        guard let converter = converter(for: codePage) ?? converter(for: 1252) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        // An unconvertible byte: U+FFFD, then go on after it.
        return String(decoding: converter.convert(bytes, replacingInvalidBytesWith: [0xEF, 0xBF, 0xBD]), as: UTF8.self)
    }

    private func converter(for codePage: Int) -> CharacterSetConverter? {
        if let cached = converters[codePage] { return cached }
        let name = codePage == 10000 ? "MACINTOSH" : codePage == 932 ? "CP932" : "CP\(codePage)"
        let converter = CharacterSetConverter(from: name, to: "UTF-8")
        converters[codePage] = converter
        return converter
    }
}
