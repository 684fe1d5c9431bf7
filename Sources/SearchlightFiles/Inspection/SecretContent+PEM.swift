extension SecretContent {
    private static let pemBegin = Array("-----BEGIN ".utf8)
    private static let pemEnd = Array("-----END ".utf8)
    private static let pemDashes = Array("-----".utf8)
    /// The SSH2 (RFC 4716, ssh.com) frame: `---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----`.
    private static let ssh2Begin = Array("---- BEGIN ".utf8)
    private static let ssh2End = Array("---- END ".utf8)
    private static let ssh2Dashes = Array(" ----".utf8)
    private static let privateKeyLabel = Array("PRIVATE KEY".utf8)
    private static let pgpPrivateKeyLabel = Array("PGP PRIVATE KEY BLOCK".utf8)
    static let puttyKey = Array("PuTTY-User-Key-File-".utf8)
    private static let puttyPrivateLines = Array("\nPrivate-Lines: ".utf8)
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    /// What OpenSSL writes before the blocks it takes out of a PKCS#12 store.
    private static let attributeStarts = ["Bag Attributes", "Key Attributes", "subject=", "issuer="].map { Array($0.utf8) }

    /// `bytes` without a UTF-8 byte order mark and the whitespace that starts them.
    private static func textStart(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let text = bytes.starts(with: byteOrderMark) ? bytes.dropFirst(3) : bytes
        return text.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }

    /// Whether `head` starts as a PEM file does: a block's first line, or OpenSSL's attributes.
    static func startsPEMFile(_ head: ArraySlice<UInt8>) -> Bool {
        let text = textStart(head)
        return text.starts(with: pemBegin) || text.starts(with: ssh2Begin) || attributeStarts.contains { text.starts(with: $0) }
    }

    /// Whether `bytes` are a PEM file holding a private key: nothing but blocks (`-----BEGIN
    /// LABEL-----`, base64 lines and `Name: value` headers, `-----END LABEL-----`), blank lines
    /// and OpenSSL's attribute lines, at least one block a private key with content. A file that
    /// says anything else (a script holding a test key, a page explaining the format) is a
    /// document. `isComplete` is false when `bytes` are the start of a larger file: a private
    /// key block open at its end counts.
    static func isPEMKeyFile(_ bytes: ArraySlice<UInt8>, isComplete: Bool) -> Bool {
        guard startsPEMFile(bytes) else { return false }
        var open: (label: ArraySlice<UInt8>, isSSH2: Bool, contentLines: Int)?
        var privateKeys = 0
        for rawLine in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let line = trimmed(rawLine)
            if var block = open {
                if let label = frameLabel(line, start: block.isSSH2 ? ssh2End : pemEnd, end: block.isSSH2 ? ssh2Dashes : pemDashes) {
                    guard label.elementsEqual(block.label) else { return false }
                    if isPrivateKeyLabel(label) && block.contentLines > 0 { privateKeys += 1 }
                    open = nil
                } else if line.isEmpty || isHeaderLine(line) {
                    continue
                } else if line.allSatisfy(isBase64) {
                    block.contentLines += 1
                    open = block
                } else {
                    return false
                }
            } else if line.isEmpty {
                continue
            } else if let label = frameLabel(line, start: pemBegin, end: pemDashes) {
                open = (label, false, 0)
            } else if let label = frameLabel(line, start: ssh2Begin, end: ssh2Dashes) {
                open = (label, true, 0)
            } else if !isAttributeLine(rawLine) {
                return false
            }
        }
        if let open, !isComplete, isPrivateKeyLabel(open.label), open.contentLines > 0 { return true }
        return privateKeys > 0
    }

    /// Whether `head` starts a PuTTY private key: `PuTTY-User-Key-File-N: algorithm`, then its
    /// header lines, `Private-Lines:` among them.
    static func isPuTTYKey(_ head: ArraySlice<UInt8>) -> Bool {
        let text = textStart(head)
        guard text.starts(with: puttyKey) else { return false }
        let version = text.dropFirst(puttyKey.count)
        guard let digit = version.first, (0x31...0x39).contains(digit), version.dropFirst().first == 0x3A else { return false }
        return firstIndex(of: puttyPrivateLines, in: text.prefix(16 << 10)) != nil
    }

    /// The label of a frame line `start LABEL end`, or `nil` when `line` is not one.
    private static func frameLabel(_ line: ArraySlice<UInt8>, start: [UInt8], end: [UInt8]) -> ArraySlice<UInt8>? {
        guard line.count > start.count + end.count, line.count <= 80, line.starts(with: start),
              line[(line.endIndex - end.count)...].elementsEqual(end) else { return nil }
        let label = line[(line.startIndex + start.count)..<(line.endIndex - end.count)]
        // Labels are capital letters, digits, spaces and a few marks (RFC 7468 §3).
        return label.allSatisfy { (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x20 || $0 == 0x2D || $0 == 0x23 }
            ? label : nil
    }

    /// Whether a PEM label names a private key: `… PRIVATE KEY` (PKCS#1, PKCS#8, SEC 1, DSA,
    /// OpenSSH, SSH2 `ENCRYPTED PRIVATE KEY`) or `PGP PRIVATE KEY BLOCK`.
    static func isPrivateKeyLabel(_ label: some Collection<UInt8>) -> Bool {
        let bytes = Array(label)
        return bytes.count >= privateKeyLabel.count && bytes.suffix(privateKeyLabel.count).elementsEqual(privateKeyLabel)
            || bytes == pgpPrivateKeyLabel
    }

    /// A header inside a block: `Proc-Type: 4,ENCRYPTED`, `DEK-Info: …`, `Version: …`,
    /// `Comment: …`.
    private static func isHeaderLine(_ line: ArraySlice<UInt8>) -> Bool {
        guard let colon = line.firstIndex(of: 0x3A), colon > line.startIndex else { return false }
        return line[..<colon].allSatisfy { (0x41...0x5A).contains($0 & 0xDF) || $0 == 0x2D }
    }

    /// OpenSSL's lines before a block: `Bag Attributes`, `subject=…`, an indented `name: value`.
    private static func isAttributeLine(_ line: ArraySlice<UInt8>) -> Bool {
        if attributeStarts.contains(where: { trimmed(line).starts(with: $0) }) { return true }
        return (line.first == 0x20 || line.first == 0x09) && line.contains(0x3A)
    }

    private static func trimmed(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var result = line
        while let last = result.last, last == 0x0D || last == 0x20 || last == 0x09 { result.removeLast() }
        while let first = result.first, first == 0x20 || first == 0x09 { result.removeFirst() }
        return result
    }

    static func isBase64(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2B, 0x2F, 0x3D: true
        default: false
        }
    }
}
