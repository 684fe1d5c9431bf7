/// The vectors a worker computed for an ``EmbeddingJob``, one per text, in order.
///
/// Wire layout: `format u8, dimensions u32, bytes` — float32: `count × dimensions`
/// little-endian floats; int8: `count` records of a little-endian float32 scale and `dimensions`
/// signed codes (the layout of Embedding's `QuantizedVector.bytes`).
public struct EmbeddedTexts: Sendable, Hashable {
    /// How each vector is written in ``bytes``; the job asks for one (``EmbeddingJob/format``).
    public enum Format: UInt8, Sendable, Hashable {
        /// Four bytes per dimension, exact (1 536 bytes for 384 dimensions).
        case float32 = 0
        /// A scale and one signed byte per dimension (388 bytes for 384 dimensions).
        case int8 = 1
    }

    /// How the vectors in ``bytes`` are written.
    public var format: Format
    /// The number of dimensions of every vector (the model's, 384 for multilingual-e5-small).
    public var dimensions: Int
    /// The vectors back to back, in the order of the job's texts.
    public var bytes: [UInt8]

    /// Vectors already laid out in `bytes` (`count × ` a vector's size in `format`).
    public init(format: Format, dimensions: Int, bytes: [UInt8]) {
        self.format = format
        self.dimensions = dimensions
        self.bytes = bytes
    }

    /// The bytes of one vector.
    public var recordSize: Int { format == .float32 ? dimensions * 4 : 4 + dimensions }

    /// How many vectors there are.
    public var count: Int { recordSize == 0 ? 0 : bytes.count / recordSize }

    /// The bytes of vector `index`: floats, or a scale and codes.
    public func record(_ index: Int) -> ArraySlice<UInt8> {
        bytes[(index * recordSize)..<((index + 1) * recordSize)]
    }

    /// The vectors as floats (int8 records are scaled back).
    public var vectors: [[Float]] {
        (0..<count).map { index in
            let record = self.record(index)
            func float(at offset: Int) -> Float {
                let at = record.startIndex + offset
                return Float(bitPattern: UInt32(record[at]) | UInt32(record[at + 1]) << 8
                    | UInt32(record[at + 2]) << 16 | UInt32(record[at + 3]) << 24)
            }
            switch format {
            case .float32:
                return (0..<dimensions).map { float(at: $0 * 4) }
            case .int8:
                let scale = float(at: 0)
                return record.dropFirst(4).map { Float(Int8(bitPattern: $0)) * scale }
            }
        }
    }

    func encode(into writer: inout WireWriter) {
        writer.append(format.rawValue)
        writer.append(UInt32(dimensions))
        writer.appendBytes(bytes)
    }

    init(from reader: inout WireReader) throws(ExtractionProtocolError) {
        guard let format = Format(rawValue: try reader.read()) else { throw ExtractionProtocolError(.malformed, "unknown embedding format") }
        let dimensions = Int(try reader.read(UInt32.self))
        let bytes = try reader.readBytes()
        self.init(format: format, dimensions: dimensions, bytes: bytes)
        guard dimensions > 0, bytes.count % recordSize == 0 else {
            throw ExtractionProtocolError(.malformed, "\(bytes.count) bytes of vectors of \(dimensions) dimensions")
        }
    }
}
