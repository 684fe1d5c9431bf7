/// The `file://` URI of an absolute path as GLib's `g_filename_to_uri` writes it, which is the
/// URI whose MD5 names a file's entry in the freedesktop thumbnail cache (file managers
/// compute it that way): letters, digits and `!$&'()*+,-./:=@_~` as they are, every other
/// byte percent-encoded.
enum FileURI {
    static func string(path: [UInt8]) -> String {
        "file://" + percentEncoded(path) { isUnreserved($0) || "!$&'()*+,/:=@".utf8.contains($0) }
    }

    /// `bytes` with each byte that `isKept` refuses written `%XX`, the others as they are
    /// (so kept UTF-8 sequences stay characters).
    static func percentEncoded(_ bytes: some Sequence<UInt8>, keeping isKept: (UInt8) -> Bool) -> String {
        var encoded: [UInt8] = []
        for byte in bytes {
            if isKept(byte) {
                encoded.append(byte)
            } else {
                encoded += Array(("%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)).utf8)
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// RFC 3986's unreserved characters: letters, digits, `-._~`.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "-._~".utf8.contains(byte)
        }
    }
}
