// The wire format between the indexer and `searchlight-extractor`.
//
// Both sides import this module, so the format is defined once. Every message is
// a frame: a 4-byte little-endian payload length, then the payload. A payload
// starts with the protocol version and the message kind; the rest depends on
// the message (see ``ExtractionRequest`` and ``ExtractionResponse``). Integers
// are little-endian; byte strings are a 4-byte length followed by the bytes.

/// Framing constants and helpers shared by both ends of the extractor channel.
///
/// A frame is read in two steps: its 4-byte header, whose length ``payloadLength(header:)``
/// checks against ``maximumPayloadSize``, then exactly that many bytes. A peer that announces
/// a larger length is taken as broken, never trusted with an allocation of that size.
///
/// ```swift
/// let length = try ExtractionFrame.payloadLength(header: [0x10, 0x00, 0x00, 0x00])  // 16
/// ```
public enum ExtractionFrame {
    /// The version byte that starts every payload. 5: a request's file comes as a descriptor
    /// beside its frame (``ExtractionRequest/descriptor``). 6: texts to embed and their
    /// vectors (``EmbeddingJob``, ``EmbeddedTexts``).
    ///
    /// A payload of another version is refused (``ExtractionProtocolError``): the two ends must
    /// be built from the same sources.
    public static let version: UInt8 = 6
    /// Bytes of the length prefix.
    public static let headerSize = 4
    /// The largest payload either side accepts; larger lengths mean a broken peer.
    public static let maximumPayloadSize = 64 << 20

    /// Returns the payload length announced by a 4-byte frame header.
    ///
    /// - Parameter header: The frame's first four bytes.
    /// - Returns: The payload's length, at most ``maximumPayloadSize``.
    /// - Throws: ``ExtractionProtocolError`` `.truncated` when the header is not four bytes,
    ///   `.tooLarge` when the length is beyond the maximum.
    public static func payloadLength<Bytes: Collection<UInt8>>(header: Bytes) throws(ExtractionProtocolError) -> Int {
        guard header.count == headerSize else { throw ExtractionProtocolError(.truncated, "short frame header") }
        var length = 0
        for (shift, byte) in header.enumerated() { length |= Int(byte) << (8 * shift) }
        guard length <= maximumPayloadSize else {
            throw ExtractionProtocolError(.tooLarge, "frame of \(length) bytes exceeds \(maximumPayloadSize)")
        }
        return length
    }

    /// Wraps a payload into a frame (length prefix + payload).
    ///
    /// The payload is not checked against ``maximumPayloadSize``: the reader refuses what is too
    /// large.
    static func frame(_ payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(headerSize + payload.count)
        var writer = WireWriter()
        writer.append(UInt32(payload.count))
        bytes.append(contentsOf: writer.bytes)
        bytes.append(contentsOf: payload)
        return bytes
    }
}

/// Appends little-endian integers and length-prefixed byte strings.
///
/// The one encoder of the wire: requests and responses are written through it, so the two
/// ends agree on byte order and on how strings are framed.
struct WireWriter {
    /// What has been written so far: the payload of one frame.
    var bytes: [UInt8] = []

    init() {}

    /// A writer that starts with what every request and response starts with: the protocol's
    /// version, the extraction kind and the job's identifier (``WireReader/readHeader()``).
    init(headerOf kindRawValue: UInt8, jobID: UInt64) {
        append(ExtractionFrame.version)
        append(kindRawValue)
        append(jobID)
    }

    mutating func append(_ value: UInt8) { bytes.append(value) }

    /// Appends an integer as its little-endian bytes, `T`'s size of them.
    mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends a byte string: its count as a `UInt32`, then the bytes.
    mutating func appendBytes<Bytes: Collection<UInt8>>(_ value: Bytes) {
        append(UInt32(value.count))
        bytes.append(contentsOf: value)
    }

    /// Appends a string as the byte string of its UTF-8.
    mutating func appendString(_ value: String) { appendBytes(Array(value.utf8)) }
}

/// Reads what ``WireWriter`` wrote, checking bounds.
///
/// Every read checks that enough bytes remain and throws `.truncated` otherwise, so a
/// malformed payload can never read out of bounds.
struct WireReader {
    let bytes: [UInt8]
    /// Where the next read starts.
    var offset: Int

    /// A reader at the start of `bytes`.
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.offset = 0
    }

    /// Reads what ``WireWriter/init(headerOf:jobID:)`` writes, refusing another version.
    mutating func readHeader() throws(ExtractionProtocolError) -> (kindRawValue: UInt8, jobID: UInt64) {
        let version = try read(UInt8.self)
        guard version == ExtractionFrame.version else { throw ExtractionProtocolError(.unknownVersion, "unknown version \(version)") }
        return (try read(), try read())
    }

    /// Reads a little-endian integer of `T`'s size.
    ///
    /// - Throws: ``ExtractionProtocolError`` `.truncated` when fewer bytes remain.
    mutating func read<T: FixedWidthInteger>(_: T.Type = T.self) throws(ExtractionProtocolError) -> T {
        let size = MemoryLayout<T>.size
        guard bytes.count - offset >= size else { throw ExtractionProtocolError(.truncated, "truncated payload") }
        var value: T = 0
        for index in 0..<size { value |= T(truncatingIfNeeded: bytes[offset + index]) << (8 * index) }
        offset += size
        return value
    }

    /// Reads a byte string written by ``WireWriter/appendBytes(_:)``.
    ///
    /// - Throws: ``ExtractionProtocolError`` `.truncated` when its count runs past the payload.
    mutating func readBytes() throws(ExtractionProtocolError) -> [UInt8] {
        let count = Int(try read(UInt32.self))
        guard bytes.count - offset >= count else { throw ExtractionProtocolError(.truncated, "truncated byte string") }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// Reads a string written by ``WireWriter/appendString(_:)``; invalid UTF-8 becomes U+FFFD.
    mutating func readString() throws(ExtractionProtocolError) -> String {
        String(decoding: try readBytes(), as: UTF8.self)
    }

    /// Checks that the payload was read to its end.
    ///
    /// - Throws: ``ExtractionProtocolError`` `.malformed` when bytes remain.
    func expectEnd() throws(ExtractionProtocolError) {
        guard offset == bytes.count else { throw ExtractionProtocolError(.malformed, "\(bytes.count - offset) trailing bytes") }
    }
}
