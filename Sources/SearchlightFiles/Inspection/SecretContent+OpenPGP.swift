extension SecretContent {
    /// Packet tags a transferable secret key or a keyring holds (RFC 9580 §5): signature (2),
    /// secret key (5), public key (6), secret subkey (7), trust (12), user ID (13), public
    /// subkey (14), user attribute (17), padding (21).
    private static let keyringTags: Set<UInt8> = [2, 5, 6, 7, 12, 13, 14, 17, 21]

    /// Whether `head` (the first bytes of a file of `size` bytes) is a binary OpenPGP secret key
    /// or keyring: a sequence of packets whose first is a secret key or subkey packet (tag 5 or
    /// 7, old or new format) of version 2 to 6 with a known public-key algorithm, whose key
    /// material's lengths add up inside the packet, followed only by packets a keyring holds,
    /// their lengths ending exactly at the end of the file (or past what was read).
    ///
    /// libmagic calls a file an "OpenPGP Secret Key" by its first byte or two, which about one
    /// file of random bytes in a hundred has; this reading is what tells a key.
    static func isOpenPGPSecretKey(_ head: ArraySlice<UInt8>, size: Int) -> Bool {
        var position = head.startIndex
        var first = true
        while position < head.endIndex {
            guard let packet = openPGPPacket(head, at: position) else { return false }
            if first {
                guard packet.tag == 5 || packet.tag == 7 else { return false }
            } else if !keyringTags.contains(packet.tag) {
                return false
            }
            guard packet.body.upperBound <= head.endIndex else {
                // Past what was read: the file must be larger, and the key was seen whole.
                return !first && packet.body.upperBound - head.startIndex <= size
            }
            if first {
                guard isSecretKeyPacketBody(head[packet.body]) else { return false }
                first = false
            }
            position = packet.body.upperBound
        }
        return !first && position - head.startIndex == size
    }

    /// The tag and body of the packet whose header is at `position`; the body may run past the
    /// bytes. `nil` when it is no packet header, or has a partial length (which key packets
    /// never have).
    private static func openPGPPacket(_ bytes: ArraySlice<UInt8>, at position: Int) -> (tag: UInt8, body: Range<Int>)? {
        let available = bytes.endIndex - position
        guard available >= 2 else { return nil }
        let header = bytes[position]
        guard header & 0x80 != 0 else { return nil }
        func bigEndian(_ start: Int, _ count: Int) -> Int? {
            guard available >= start + count else { return nil }
            return bytes[(position + start)..<(position + start + count)].reduce(0) { $0 << 8 | Int($1) }
        }
        let tag: UInt8
        let headerLength: Int
        let length: Int
        if header & 0x40 != 0 {
            tag = header & 0x3F
            let first = Int(bytes[position + 1])
            switch first {
            case 0..<192:
                (headerLength, length) = (2, first)
            case 192..<224:
                guard let two = bigEndian(1, 2) else { return nil }
                (headerLength, length) = (3, two - (192 << 8) + 192)
            case 255:
                guard let four = bigEndian(2, 4) else { return nil }
                (headerLength, length) = (6, four)
            default:
                return nil
            }
        } else {
            tag = (header >> 2) & 0x0F
            let lengthType = Int(header & 0x03)
            guard lengthType < 3, let value = bigEndian(1, 1 << lengthType) else { return nil }
            (headerLength, length) = (1 + (1 << lengthType), value)
        }
        return (tag, (position + headerLength)..<(position + headerLength + length))
    }

    /// Whether `body` is a secret key packet of version 2 to 6: the creation time (for versions 2
    /// and 3, PGP 2's, a validity period after it and an RSA key), a known algorithm, its public
    /// key material read field by field within the body (and, for versions 5 and 6, matching
    /// its stated length), then a valid S2K usage octet.
    private static func isSecretKeyPacketBody(_ body: ArraySlice<UInt8>) -> Bool {
        guard body.count >= 7, (2...6).contains(body.first!) else { return false }
        let version = body[body.startIndex]
        if version <= 3 {
            guard body.count >= 9, (1...3).contains(body[body.startIndex + 7]) else { return false }
            var reader = body.startIndex + 8
            guard readPublicKeyMaterial(algorithm: body[body.startIndex + 7], body, at: &reader),
                  reader < body.endIndex else { return false }
            // PGP 2 keys are clear (0) or encrypted with a symmetric algorithm named by its id.
            let usage = body[reader]
            return usage == 0 || usage == 255 || (1...13).contains(usage)
        }
        let algorithm = body[body.startIndex + 5]
        var reader = body.startIndex + 6
        var materialEnd: Int?
        if version != 4 {
            guard body.count >= 10 else { return false }
            let count = body[(reader)..<(reader + 4)].reduce(0) { $0 << 8 | Int($1) }
            reader += 4
            materialEnd = reader + count
        }
        guard readPublicKeyMaterial(algorithm: algorithm, body, at: &reader) else { return false }
        if let materialEnd, materialEnd != reader { return false }
        // The secret part starts with its S2K usage: none, AEAD, CFB (SHA-1 or checksum), or
        // a symmetric algorithm's id (the oldest keys).
        guard reader < body.endIndex else { return false }
        let usage = body[reader]
        return usage == 0 || usage >= 253 || (1...13).contains(usage)
    }

    /// Reads the public key material of `algorithm` at `position`, moving past it.
    private static func readPublicKeyMaterial(algorithm: UInt8, _ body: ArraySlice<UInt8>, at position: inout Int) -> Bool {
        func integers(_ count: Int) -> Bool {
            (0..<count).allSatisfy { _ in readMPI(body, at: &position) }
        }
        func fixed(_ count: Int) -> Bool {
            guard body.endIndex - position >= count else { return false }
            position += count
            return true
        }
        switch algorithm {
        case 1, 2, 3: return integers(2)  // RSA: n, e
        case 16, 20: return integers(3)  // Elgamal: p, g, y
        case 17: return integers(4)  // DSA: p, q, g, y
        case 19, 22: return readCurveOID(body, at: &position) && integers(1)  // ECDSA, EdDSA (legacy)
        case 18:  // ECDH: the curve, the point, then the KDF parameters
            guard readCurveOID(body, at: &position), integers(1), position < body.endIndex else { return false }
            let count = Int(body[position])
            return count >= 3 && count < 255 && fixed(1 + count)
        case 25: return fixed(32)  // X25519
        case 26: return fixed(56)  // X448
        case 27: return fixed(32)  // Ed25519
        case 28: return fixed(57)  // Ed448
        default: return false
        }
    }

    /// Reads a curve's OID: a length octet (neither 0 nor 255, both reserved) and the OID.
    private static func readCurveOID(_ body: ArraySlice<UInt8>, at position: inout Int) -> Bool {
        guard position < body.endIndex else { return false }
        let count = Int(body[position])
        guard count > 0, count < 255, body.endIndex - position > count else { return false }
        position += 1 + count
        return true
    }

    /// Reads a multiprecision integer: its length in bits, then that many bits, the first
    /// octet holding no more bits than the length says.
    private static func readMPI(_ body: ArraySlice<UInt8>, at position: inout Int) -> Bool {
        guard body.endIndex - position >= 2 else { return false }
        let bits = Int(body[position]) << 8 | Int(body[position + 1])
        let count = (bits + 7) / 8
        guard bits > 0, body.endIndex - position - 2 >= count else { return false }
        let top = body[position + 2]
        let topBits = (bits - 1) % 8 + 1
        guard top != 0, Int(top) < 1 << topBits else { return false }
        position += 2 + count
        return true
    }
}
