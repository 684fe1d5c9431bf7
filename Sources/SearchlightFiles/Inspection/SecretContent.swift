import SystemCalls

/// Recognises private keys and credential stores by their content, whatever their name
/// (Docs/Contract.md#configuration-and-good-citizenship): where a name is ambiguous (`server.key` may be a PEM key or a Keynote
/// presentation), the content decides.
///
/// A file is key material when it parses as such, never by a short magic number alone:
/// - text that is nothing but PEM blocks (and OpenSSL's `Bag Attributes` lines), one of them a
///   private key: PKCS#1, PKCS#8 encrypted or not, SEC 1, DSA, OpenSSH, SSH2, a PGP private
///   key block (``isPEMKeyFile(_:isComplete:)``); a PuTTY key;
/// - DER that decodes as a PKCS#1, DSA, SEC 1 or PKCS#8 private key or a PKCS#12 store
///   (``isDERPrivateKey(_:size:)``);
/// - a binary OpenPGP secret key or keyring (``isOpenPGPSecretKey(_:size:)``);
/// - a Java (JKS, JCEKS) key store, a KeePass database, an SSH1 key (their signatures and
///   versions); AWS and Google Cloud credential files by their shape.
///
/// A document that merely *holds* a key block (a script with a test key) is not a key: it is
/// indexed, with the block cut out of its text (``removingKeyBlocks(from:)``).
///
/// Only candidates are read, by libmagic's description: text, `data`, and what libmagic
/// names a key, a key store, a certificate or a password database. Their first
/// ``headLength`` bytes are read once (libmagic has just read them: the page cache has them);
/// a file is read further only when those bytes start a PEM file or a DER structure that
/// spans a small file. A secret is never indexed, not even by name: the inspector reports it
/// as left out.
enum SecretContent {
    /// Words of libmagic descriptions (compared without case) that make a file a candidate.
    static let candidateWords = [
        "text", "private key", "secret key", "key pair", "der encoded", "certificate", "keystore", "keepass",
        "password", "pgp", "pkcs", "putty",
    ]

    /// How much of a candidate's start is read first: a key is rarely larger.
    static let headLength = 16 << 10
    /// The most of a PEM file read: certificate chains make key files larger than the key.
    static let pemLength = 1 << 20
    /// The largest DER file read whole: a private key is a few kilobytes; a larger PKCS#12
    /// store is known by its start.
    static let derLength = 256 << 10

    private static let candidateWordBytes = candidateWords.map { Array($0.utf8) }
    private static let data = Array("data".utf8)

    /// Whether libmagic's description of a file makes it worth reading for key material.
    /// (Bytes are compared: every file's description passes here, and Foundation's substring
    /// search cost more than the rest of the check.)
    static func isCandidate(description: String) -> Bool {
        let lowered = Array(description.lowercased().utf8)[...]
        return lowered.starts(with: data) || candidateWordBytes.contains { firstIndex(of: $0, in: lowered) != nil }
    }

    /// Whether the open file `descriptor` of `size` bytes, which libmagic describes as
    /// `description`, is a private key or a credential store. Reads only candidates (see the
    /// type's documentation). The corresponding C function is `pread(2)`.
    static func isSecret(descriptor: Int32, size: Int, description: String) -> Bool {
        guard size > 0, isCandidate(description: description) else { return false }
        guard var head = try? SystemCall.readBytes(descriptor, limit: min(size, headLength), at: 0), !head.isEmpty else {
            return false
        }
        if head.count < size, let wanted = lengthNeeded(head[...], size: size), wanted > head.count,
           let more = try? SystemCall.readBytes(descriptor, limit: wanted, at: 0) {
            head = more
        }
        return isSecret(head: head[...], size: size)
    }

    /// Whether a file whose first bytes are `head` (and whose size is `size`) is a secret.
    static func isSecret(head: ArraySlice<UInt8>, size: Int) -> Bool {
        isPEMKeyFile(head, isComplete: head.count >= size) || isPuTTYKey(head) || isDERPrivateKey(head, size: size)
            || isOpenPGPSecretKey(head, size: size) || isKeyStore(head) || isCloudCredentials(head, size: size)
    }

    /// How much of a file starting with `head` its judgment needs: all of a PEM file (up to
    /// ``pemLength``), all of a small DER structure; `nil` when the head is enough.
    private static func lengthNeeded(_ head: ArraySlice<UInt8>, size: Int) -> Int? {
        if startsPEMFile(head) { return min(size, pemLength) }
        if head.first == DERReader.sequence, size <= derLength { return size }
        return nil
    }

    // MARK: - Key stores

    /// Whether `head` starts a Java key store (JKS `0xFEEDFEED`, version 1 or 2; JCEKS
    /// `0xCECECECE`, version 2), a KeePass database (`0x9AA2D903`, then `0xB54BFB65` for 1.x,
    /// `0xB54BFB66` or `0xB54BFB67` for 2.x and later, little-endian) or an SSH1 private key.
    static func isKeyStore(_ head: ArraySlice<UInt8>) -> Bool {
        guard head.count >= 12 else { return false }
        func word(_ at: Int, bigEndian: Bool = true) -> UInt32 {
            let bytes = head[(head.startIndex + at)..<(head.startIndex + at + 4)]
            let value = bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            return bigEndian ? value : value.byteSwapped
        }
        switch word(0) {
        case 0xFEED_FEED: return (1...2).contains(word(4))
        case 0xCECE_CECE: return word(4) == 2
        default: break
        }
        if word(0, bigEndian: false) == 0x9AA2_D903 {
            return [0xB54B_FB65, 0xB54B_FB66, 0xB54B_FB67].contains(word(4, bigEndian: false))
        }
        return head.starts(with: ssh1Key)
    }

    private static let ssh1Key = Array("SSH PRIVATE KEY FILE FORMAT 1.1\n\0".utf8)

    // MARK: - Bytes

    /// Where `needle` first occurs in `haystack`.
    static func firstIndex(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
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
}
