import SystemCalls

/// Recognises private keys and credential stores by their content, whatever their name
/// (Docs/Contract.md#configuration-and-good-citizenship): where a name is ambiguous (`server.key` may be a PEM key or a Keynote
/// presentation), the content decides.
///
/// Two sources, both cheap:
/// - libmagic's description, which names PEM, OpenSSH and PGP private keys, Java and JCE key
///   stores, KeePass and Password Safe databases;
/// - the file's first bytes, for what libmagic calls `ASCII text` or `data`: a PEM block
///   whose label ends in `PRIVATE KEY` (PKCS#8, encrypted or not, which libmagic misses), a
///   PuTTY key, a PKCS#12 store (`.p12`, `.pfx` renamed) and a DER private key (PKCS#1 or
///   PKCS#8), whose ASN.1 lengths must add up to the file's size.
///
/// A secret is never indexed, not even by name: the inspector reports it as left out.
enum SecretContent {
    /// Words of libmagic descriptions that mean a secret (compared without case).
    static let describedSecrets = [
        "private key", "secret key", "keystore", "keepass", "password database", "password safe",
        "putty private", "pkcs#12", "pkcs12",
    ]

    /// How much of a file's start is searched for a PEM private key block.
    static let headLength = 64 << 10

    /// Whether libmagic's description of a file says it is a private key or a credential store.
    ///
    /// libmagic's test for a binary OpenPGP key packet looks at the first byte or two only, and
    /// fires on plain text that starts with such bytes (UTF-8 `Š`, 0xC5 0xA0, reads as a new-format
    /// secret key packet): when its MIME type says text, the text tests won, and it is no key.
    /// (Bytes are compared: every file's description passes here, and Foundation's substring
    /// search cost more than the rest of the check.)
    static func isSecret(description: String, contentType: String?) -> Bool {
        let lowered = Array(description.lowercased().utf8)[...]
        guard describedSecretBytes.contains(where: { firstIndex(of: $0, in: lowered) != nil }) else { return false }
        if firstIndex(of: openPGP, in: lowered) != nil, contentType?.hasPrefix("text/") == true { return false }
        return true
    }

    private static let describedSecretBytes = describedSecrets.map { Array($0.utf8) }
    private static let openPGP = Array("openpgp".utf8)
    private static let textWord = Array("text".utf8)

    /// Whether the description leaves the content to be looked at: text (a PEM block libmagic
    /// did not name) or data (DER).
    static func needsContentCheck(description: String) -> Bool {
        firstIndex(of: textWord, in: Array(description.utf8)[...]) != nil || description == "data" || description.hasPrefix("data,")
    }

    /// Whether the open file `descriptor` of `size` bytes is a private key or a credential
    /// store by its first bytes. The corresponding C function is `pread(2)`.
    static func isSecret(descriptor: Int32, size: Int) -> Bool {
        let length = min(size, headLength)
        guard length > 0 else { return false }
        guard let head = try? SystemCall.readBytes(descriptor, limit: length, at: 0), !head.isEmpty else { return false }
        return isSecret(head: head[...], size: size)
    }

    /// Whether a file whose first bytes are `head` (and whose size is `size`) is a secret.
    static func isSecret(head: ArraySlice<UInt8>, size: Int) -> Bool {
        containsPEMPrivateKey(head) || head.starts(with: puttyKey) || isDERSecret(head, size: size)
    }

    // MARK: - PEM

    private static let pemBegin = Array("-----BEGIN ".utf8)
    private static let privateKeyLabelEnd = Array("PRIVATE KEY-----".utf8)
    private static let pgpPrivateKey = Array("PGP PRIVATE KEY BLOCK-----".utf8)
    private static let puttyKey = Array("PuTTY-User-Key-File-".utf8)

    /// Whether `bytes` hold a `-----BEGIN … PRIVATE KEY-----` line followed by the block's
    /// content (a base64 line, or the `Proc-Type:` headers of an encrypted key), so that a
    /// document that only names the header is not taken for a key.
    static func containsPEMPrivateKey(_ bytes: ArraySlice<UInt8>) -> Bool {
        var start = bytes.startIndex
        while let begin = firstIndex(of: pemBegin, in: bytes[start...]) {
            let lineEnd = bytes[begin...].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) ?? bytes.endIndex
            let line = bytes[begin..<lineEnd]
            let labelled = line.count <= 80 && (line.hasSuffix(privateKeyLabelEnd) || line.hasSuffix(pgpPrivateKey))
            if labelled && hasBlockContent(bytes[lineEnd...]) { return true }
            start = begin + pemBegin.count
        }
        return false
    }

    /// Whether the line after a PEM header starts the block: a header (`Proc-Type: …`,
    /// `Version: …`) or at least 40 base64 characters.
    private static func hasBlockContent(_ rest: ArraySlice<UInt8>) -> Bool {
        let start = rest.firstIndex { $0 != 0x0A && $0 != 0x0D } ?? rest.endIndex
        let end = rest[start...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? rest.endIndex
        let line = rest[start..<end]
        if line.contains(0x3A) && line.count < 200 { return true }  // "Proc-Type: 4,ENCRYPTED"
        return line.count >= 40 && line.allSatisfy(isBase64)
    }

    private static func isBase64(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2B, 0x2F, 0x3D: true
        default: false
        }
    }

    private static func firstIndex(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        var index = haystack.startIndex
        let last = haystack.endIndex - needle.count
        while index <= last {
            guard let candidate = haystack[index...last].firstIndex(of: first) else { return nil }
            if haystack[candidate..<candidate + needle.count].elementsEqual(needle) { return candidate }
            index = candidate + 1
        }
        return nil
    }

    // MARK: - DER

    /// `pkcs7-data` (1.2.840.113549.1.7.1), the content type of a PKCS#12 store's safe.
    private static let pkcs7Data: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
    /// The start of `pkcs5` OIDs (1.2.840.113549.1.5), which encrypted PKCS#8 keys name.
    private static let pkcs5: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x05]
    /// The start of `pkcs12PbeIds` OIDs (1.2.840.113549.1.12.1).
    private static let pkcs12PBE: [UInt8] = [0x06, 0x0A, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x0C, 0x01]

    /// Whether `head` starts a DER structure spanning the whole file that is a PKCS#12 store
    /// (`SEQUENCE { INTEGER 3, SEQUENCE { pkcs7-data … } … }`), a PKCS#1 or PKCS#8 private key
    /// (`SEQUENCE { INTEGER 0, INTEGER … | SEQUENCE { OID … } … }`) or an encrypted PKCS#8 key
    /// (`SEQUENCE { SEQUENCE { pkcs5 or pkcs12 PBE OID … } OCTET STRING }`).
    static func isDERSecret(_ head: ArraySlice<UInt8>, size: Int) -> Bool {
        let bytes = Array(head.prefix(64))
        guard let outer = derHeader(bytes, at: 0), bytes[0] == 0x30, outer.contentStart + outer.length == size else {
            return false
        }
        var at = outer.contentStart
        guard at + 3 <= bytes.count else { return false }
        if bytes[at] == 0x02 && bytes[at + 1] == 0x01 {
            let version = bytes[at + 2]
            at += 3
            guard at + 2 < bytes.count else { return false }
            if version == 3 {
                guard bytes[at] == 0x30, let inner = derHeader(bytes, at: at) else { return false }
                return bytes[inner.contentStart...].starts(with: pkcs7Data)
            }
            guard version == 0 || version == 1 else { return false }
            // PKCS#1 (RSA): the modulus, a long INTEGER. PKCS#8: the algorithm's SEQUENCE { OID }.
            // SEC 1 EC (version 1): the key, an OCTET STRING.
            if bytes[at] == 0x02, let modulus = derHeader(bytes, at: at) { return modulus.length >= 64 }
            if bytes[at] == 0x04, version == 1, let key = derHeader(bytes, at: at) { return key.length >= 16 }
            if bytes[at] == 0x30, let algorithm = derHeader(bytes, at: at) {
                return algorithm.contentStart < bytes.count && bytes[algorithm.contentStart] == 0x06
            }
            return false
        }
        // EncryptedPrivateKeyInfo.
        guard bytes[at] == 0x30, let algorithm = derHeader(bytes, at: at) else { return false }
        let oid = bytes[algorithm.contentStart...]
        return oid.starts(with: pkcs5) || oid.starts(with: pkcs12PBE)
    }

    /// A DER tag-length header at `at`: where its content starts and how long it is.
    private static func derHeader(_ bytes: [UInt8], at: Int) -> (contentStart: Int, length: Int)? {
        guard at + 2 <= bytes.count else { return nil }
        let first = Int(bytes[at + 1])
        if first < 0x80 { return (at + 2, first) }
        let count = first & 0x7F
        guard count >= 1, count <= 4, at + 2 + count <= bytes.count else { return nil }
        var length = 0
        for byte in bytes[(at + 2)..<(at + 2 + count)] { length = length << 8 | Int(byte) }
        return (at + 2 + count, length)
    }
}

extension ArraySlice where Element == UInt8 {
    fileprivate func hasSuffix(_ suffix: [UInt8]) -> Bool {
        count >= suffix.count && self[(endIndex - suffix.count)...].elementsEqual(suffix)
    }
}
