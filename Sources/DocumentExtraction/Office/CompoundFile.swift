import ExtractionProtocol

/// Recognises OLE2 compound files (Microsoft's container for legacy Office files and for
/// password-protected OOXML files).
enum CompoundFile {
    static let signature: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]
    /// `EncryptedPackage` as the UTF-16LE directory entry name.
    static let encryptedPackageName: [UInt8] = Array("EncryptedPackage".utf8).flatMap { [$0, 0] }

    /// True when the file is a compound file holding an `EncryptedPackage` stream: an OOXML
    /// document protected by a password. Only the first 8 MiB are searched for the directory.
    static func isEncryptedPackage(descriptor: Int32) throws(ExtractionFailure) -> Bool {
        let head = try readPrefix(descriptor, 8)
        guard head == signature else { return false }
        let bytes = try readPrefix(descriptor, 8 << 20)
        let needle = encryptedPackageName
        guard bytes.count >= needle.count else { return false }
        var index = 0
        let last = bytes.count - needle.count
        while index <= last {
            if bytes[index] == needle[0], bytes[index..<index + needle.count].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
