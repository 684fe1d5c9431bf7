/// Little-endian integers in the bytes of a container's structures (ZIP, CFB).
enum LittleEndian {
    /// The 16-bit integer at `offset` of `bytes`.
    static func uint16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    /// The 32-bit integer at `offset` of `bytes`.
    static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(uint16(bytes, offset)) | UInt32(uint16(bytes, offset + 2)) << 16
    }
}
