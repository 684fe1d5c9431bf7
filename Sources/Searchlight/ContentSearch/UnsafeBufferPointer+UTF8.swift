extension UnsafeBufferPointer where Element == UInt8 {
    /// The scalar that starts at `index` of valid UTF-8 (a `String`'s bytes) with a lead byte
    /// that is not ASCII, and its length in bytes: for loops over a text's bytes that handle
    /// ASCII by its byte and look up only the other scalars.
    @inline(__always)
    func nonASCIIScalar(at index: Int) -> (scalar: Unicode.Scalar, length: Int) {
        let lead = UInt32(self[index])
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        var value = lead & (0xFF >> (length + 1))
        for offset in 1..<length { value = value << 6 | UInt32(self[index + offset] & 0x3F) }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
    }
}
