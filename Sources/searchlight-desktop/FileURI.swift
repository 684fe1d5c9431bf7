/// The `file://` URI of an absolute path as GLib's `g_filename_to_uri` writes it, which is the
/// URI whose MD5 names a file's entry in the freedesktop thumbnail cache (file managers
/// compute it that way): letters, digits and `!$&'()*+,-./:=@_~` as they are, every other
/// byte percent-encoded.
enum FileURI {
    static func string(path: [UInt8]) -> String {
        var uri = "file://"
        for byte in path {
            if isKept(byte) {
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                uri += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return uri
    }

    private static func isKept(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!$&'()*+,-./:=@_~".utf8.contains(byte)
        }
    }
}
