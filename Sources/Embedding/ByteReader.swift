/// Reads little-endian numbers and byte runs from a mapped file, checking every read against
/// its end, so that a truncated or garbled file is an error and never a crash.
struct ByteReader {
    let file: MappedFile
    private(set) var offset: Int

    init(_ file: MappedFile, offset: Int = 0) {
        self.file = file
        self.offset = offset
    }

    /// Moves past `count` bytes and returns where they start.
    mutating func skip(_ count: Int, what: String) throws(EmbeddingError) -> Int {
        guard count >= 0, count <= file.size - offset else {
            throw EmbeddingError(.truncated, "the file ends at byte \(file.size), inside its \(what)", path: file.path)
        }
        let start = offset
        offset += count
        return start
    }

    mutating func uint32(_ what: String) throws(EmbeddingError) -> UInt32 {
        let at = try skip(4, what: what)
        return file.base.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian
    }

    mutating func int(_ what: String) throws(EmbeddingError) -> Int {
        Int(Int32(bitPattern: try uint32(what)))
    }

    mutating func uint64(_ what: String) throws(EmbeddingError) -> UInt64 {
        let at = try skip(8, what: what)
        return file.base.loadUnaligned(fromByteOffset: at, as: UInt64.self).littleEndian
    }

    mutating func float(_ what: String) throws(EmbeddingError) -> Float {
        Float(bitPattern: try uint32(what))
    }

    mutating func uint16(_ what: String) throws(EmbeddingError) -> UInt16 {
        let at = try skip(2, what: what)
        return file.base.loadUnaligned(fromByteOffset: at, as: UInt16.self).littleEndian
    }

    mutating func byte(_ what: String) throws(EmbeddingError) -> UInt8 {
        let at = try skip(1, what: what)
        return file.base.load(fromByteOffset: at, as: UInt8.self)
    }
}
