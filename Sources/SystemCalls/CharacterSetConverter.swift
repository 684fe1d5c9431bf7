#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// A converter from one character set to another through glibc's iconv, open for the life of
/// the object. Not for two threads at once (iconv keeps a shift state).
///
/// ```swift
/// let converter = CharacterSetConverter(from: "CP1251", to: "UTF-8")
/// let utf8 = converter?.convert([0xCF, 0xF0, 0xE8], replacingInvalidBytesWith: [0xEF, 0xBF, 0xBD])
/// ```
/// The corresponding C functions are `iconv_open(3)`, `iconv(3)` and `iconv_close(3)`.
public final class CharacterSetConverter {
    private let converter: iconv_t

    /// A converter from `source` to `target`, by iconv's names (`CP1252`, `MACINTOSH`,
    /// `UTF-8`); nil when iconv knows either not.
    public init?(from source: String, to target: String) {
        guard let converter = iconv_open(target, source), converter != iconv_t(bitPattern: -1) else { return nil }
        self.converter = converter
    }

    deinit {
        iconv_close(converter)
    }

    /// `bytes` converted. A byte iconv cannot convert (or an incomplete sequence at the end)
    /// becomes `replacement`, and the conversion goes on after it; it stops early only when
    /// the output (4 bytes for each input byte) is full. The shift state is reset after.
    public func convert(_ bytes: [UInt8], replacingInvalidBytesWith replacement: [UInt8]) -> [UInt8] {
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
                        let error = Errno(rawValue: errno)
                        guard error == .illegalByteSequence || error == .invalidArgument, outLeft >= replacement.count else { break }
                        for byte in replacement {
                            outPointer!.pointee = CChar(bitPattern: byte)
                            outPointer! += 1
                        }
                        outLeft -= replacement.count
                        inPointer! += 1
                        inLeft -= 1
                    }
                }
                produced = outputBuffer.count - outLeft
            }
        }
        _ = iconv(converter, nil, nil, nil, nil)
        return Array(output[..<produced])
    }
}
