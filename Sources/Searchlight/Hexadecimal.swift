/// Bytes written as lowercase hexadecimal digits, two a byte, by table: what a digest, an
/// identifier in SQL (`'\x…'`, `decode(…, 'hex')`), a volume's UUID or a random token is shown
/// as. `String(format: "%02x")` a byte cost 7 % of a page's work on PostgreSQL when it wrote the
/// identifiers of fifty results.
package enum Hexadecimal {
    private static let digits = Array("0123456789abcdef".utf8)

    /// `bytes` as `2 × count` lowercase hexadecimal digits (`[0x0a, 0xff]` is `0aff`).
    package static func lowercase(_ bytes: some Collection<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            for (index, byte) in bytes.enumerated() {
                buffer[2 * index] = digits[Int(byte >> 4)]
                buffer[2 * index + 1] = digits[Int(byte & 0x0F)]
            }
            return bytes.count * 2
        }
    }
}
