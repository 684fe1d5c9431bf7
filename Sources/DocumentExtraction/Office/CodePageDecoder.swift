// Glibc for iconv(3), the C library this file wraps.
import Glibc
import SystemCalls
import SystemPackage

/// Turns bytes in a Windows code page (RTF's `\ansicpg`, a font's `\fcharset`) into text,
/// through iconv. One converter per code page is kept open.
/// The corresponding C functions are `iconv_open(3)` and `iconv(3)`.
final class CodePageDecoder {
    private var converters: [Int: iconv_t?] = [:]

    deinit {
        for case let converter? in converters.values { iconv_close(converter) }
    }

    /// Decodes `bytes` in code page `codePage` (1252, 1251, 932…); bytes iconv cannot convert
    /// become U+FFFD. Code pages iconv does not know are read as Windows-1252.
    func decode(_ bytes: [UInt8], codePage: Int) -> String {
        guard !bytes.isEmpty else { return "" }
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        guard let converter = converter(for: codePage) ?? converter(for: 1252) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        var output = [UInt8](repeating: 0, count: bytes.count * 4 + 16)
        var input = bytes
        var produced = 0
        input.withUnsafeMutableBytes { inputBuffer in
            output.withUnsafeMutableBytes { outputBuffer in
                var inPointer: UnsafeMutablePointer<CChar>? = inputBuffer.baseAddress!.assumingMemoryBound(to: CChar.self)
                var inLeft = inputBuffer.count
                var outPointer: UnsafeMutablePointer<CChar>? = outputBuffer.baseAddress!.assumingMemoryBound(to: CChar.self)
                var outLeft = outputBuffer.count
                while inLeft > 0 {
                    if iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft) == -1 {
                        let error = SystemCall.lastError
                        guard error == .illegalByteSequence || error == .invalidArgument, outLeft >= 3 else { break }
                        // An unconvertible byte: U+FFFD, then go on after it.
                        for byte: UInt8 in [0xEF, 0xBF, 0xBD] {
                            outPointer!.pointee = CChar(bitPattern: byte)
                            outPointer! += 1
                        }
                        outLeft -= 3
                        inPointer! += 1
                        inLeft -= 1
                    }
                }
                produced = outputBuffer.count - outLeft
            }
        }
        _ = iconv(converter, nil, nil, nil, nil)
        return String(decoding: output[..<produced], as: UTF8.self)
    }

    private func converter(for codePage: Int) -> iconv_t? {
        if let cached = converters[codePage] { return cached }
        let name = codePage == 10000 ? "MACINTOSH" : codePage == 932 ? "CP932" : "CP\(codePage)"
        let converter = iconv_open("UTF-8", name)
        let usable: iconv_t? = converter == iconv_t(bitPattern: -1) ? nil : converter
        converters[codePage] = usable
        return usable
    }
}
