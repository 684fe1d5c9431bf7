extension SecretContent {
    /// The start of `pkcs-7` content type OIDs (1.2.840.113549.1.7): a PKCS#12 store's safe is
    /// `data` (.1), or `signedData` (.2) in a store protected by a public key.
    private static let pkcs7: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07]
    /// The start of `pkcs-5` OIDs (1.2.840.113549.1.5): PBES2 and the PBE schemes of encrypted
    /// PKCS#8 keys.
    private static let pkcs5: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x05]
    /// The start of `pkcs-12PbeIds` OIDs (1.2.840.113549.1.12.1).
    private static let pkcs12PBE: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x0C, 0x01]

    /// Whether the file whose first bytes are `head` (of `size` bytes in all) is one DER
    /// structure, spanning exactly the whole file, that decodes as private key material:
    ///
    /// - PKCS#1 `RSAPrivateKey`: `SEQUENCE { INTEGER 0, 8 INTEGERs }` (version 1, multi-prime,
    ///   adds a SEQUENCE of other primes);
    /// - a DSA key as OpenSSL writes it: `SEQUENCE { INTEGER 0, p, q, g, y, x }`;
    /// - SEC 1 `ECPrivateKey`: `SEQUENCE { INTEGER 1, OCTET STRING, [0] parameters?, [1] public key? }`;
    /// - PKCS#8 `PrivateKeyInfo`: `SEQUENCE { INTEGER 0 or 1, SEQUENCE { OID … }, OCTET STRING,
    ///   [0] attributes?, [1] public key? }`;
    /// - PKCS#8 `EncryptedPrivateKeyInfo`: `SEQUENCE { SEQUENCE { a PKCS#5 or PKCS#12 PBE OID … },
    ///   OCTET STRING }`;
    /// - PKCS#12 `PFX`: `SEQUENCE { INTEGER 3, SEQUENCE { OID data or signedData, … }, … }`,
    ///   the only one checked by its start, so that a store larger than what was read is known,
    ///   and the only one whose lengths may be BER's indefinite ones (old Windows exports).
    static func isDERPrivateKey(_ head: ArraySlice<UInt8>, size: Int) -> Bool {
        var file = DERReader(head)
        guard file.nextTag == DERReader.sequence, let (tag, outerLength) = file.readHeader(allowsIndefinite: true) else {
            return false
        }
        guard let length = outerLength else {
            // BER's indefinite length: a PKCS#12 store written by an old Windows, ending with
            // its end-of-contents octets when the whole file was read.
            return (head.count < size || head.suffix(2).elementsEqual([0, 0])) && isPKCS12Store(file)
        }
        // The outer SEQUENCE is the whole file: nothing before it, nothing after it.
        let contentStart = file.offset
        guard contentStart - head.startIndex + length == size else { return false }
        guard contentStart + length <= head.endIndex else {
            // Larger than what was read: only a PKCS#12 store is that large, and its start tells.
            return isPKCS12Store(file)
        }
        let fields = file.reader(inside: DERReader.Element(tag: tag, content: contentStart..<(contentStart + length)))
        return isKey(fields) || isPKCS12Store(fields)
    }

    /// Whether the fields of a SEQUENCE read in full are those of a private key.
    private static func isKey(_ fields: DERReader) -> Bool {
        var reader = fields
        if let algorithm = reader.read(tag: DERReader.sequence) {
            // EncryptedPrivateKeyInfo: the encryption scheme, then the encrypted key.
            var scheme = reader.reader(inside: algorithm)
            guard let oid = scheme.read(tag: DERReader.objectIdentifier) else { return false }
            let value = scheme.content(of: oid)
            guard value.starts(with: pkcs5) || value.starts(with: pkcs12PBE) else { return false }
            return reader.read(tag: DERReader.octetString) != nil && reader.isAtEnd
        }
        guard let version = reader.readSmallInteger() else { return false }
        switch reader.nextTag {
        case DERReader.integer:
            // PKCS#1 RSA (8 more INTEGERs) or DSA (5 more).
            let count = reader.skipIntegers()
            if version == 0 && (count == 8 || count == 5) { return reader.isAtEnd }
            if version == 1 && count == 8 { return reader.read(tag: DERReader.sequence) != nil && reader.isAtEnd }
            return false
        case DERReader.octetString:
            // SEC 1: the private key, then its optional parameters and public key.
            guard version == 1, let key = reader.read(), !key.content.isEmpty else { return false }
            return readsOptionalTrailer(&reader, tags: [0xA0, 0xA1])
        case DERReader.sequence:
            // PKCS#8: the algorithm identifier, then the key in an OCTET STRING.
            guard version == 0 || version == 1, let algorithm = reader.read() else { return false }
            var identifier = reader.reader(inside: algorithm)
            guard identifier.read(tag: DERReader.objectIdentifier) != nil,
                  reader.read(tag: DERReader.octetString) != nil else { return false }
            return readsOptionalTrailer(&reader, tags: [0xA0, 0x81, 0xA1])
        default:
            return false
        }
    }

    /// Reads the optional context-specific fields that may end a key, each at most once and
    /// in order; whether the reader is then at its end.
    private static func readsOptionalTrailer(_ reader: inout DERReader, tags: [UInt8]) -> Bool {
        for tag in tags where reader.nextTag == tag {
            guard reader.read() != nil else { return false }
        }
        return reader.isAtEnd
    }

    /// Whether the fields of an outer SEQUENCE (perhaps read in part) start a PKCS#12 `PFX`:
    /// version 3, then a ContentInfo naming PKCS#7 data or signed data.
    private static func isPKCS12Store(_ fields: DERReader) -> Bool {
        var reader = fields
        guard reader.readSmallInteger() == 3, reader.nextTag == DERReader.sequence else { return false }
        // The ContentInfo may be larger than what was read: only its start is needed.
        guard reader.readHeader(allowsIndefinite: true) != nil, let oid = reader.read(tag: DERReader.objectIdentifier) else { return false }
        let value = reader.content(of: oid)
        return value.count == pkcs7.count + 1 && value.starts(with: pkcs7) && (value.last == 1 || value.last == 2)
    }
}
