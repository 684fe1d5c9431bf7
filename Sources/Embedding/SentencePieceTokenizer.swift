import CShimEmbedding

/// XLM-RoBERTa's SentencePiece unigram tokenizer over a model file's vocabulary: each code point
/// normalized by the file's map (NFKC-like folding, control characters dropped, white space made
/// a space), runs of spaces collapsed, a `▁` put before the text and in place of every space,
/// then the segmentation with the highest total piece score (Viterbi), a character no piece
/// covers read as `<unk>`.
///
/// The pieces stay in the mapped file; a hash table of piece indexes (2 MB) is the only thing
/// built at load.
struct SentencePieceTokenizer: @unchecked Sendable {
    /// A text's pieces and where each starts among the text's Unicode scalars.
    struct Pieces {
        var ids: [Int32]
        var scalarStarts: [Int]
    }

    let file: MappedFile
    let beginning: Int32, end: Int32, unknown: Int32
    private let offsets: UnsafeRawPointer, bytes: UnsafeRawPointer, scores: UnsafeRawPointer
    private let slots: [UInt32]
    private let mask: UInt32
    private let pieceCount: Int32
    private let longestPiece: Int32
    private let unknownScore: Float
    private let normalized: [UInt32]
    private let replacementRanges: [Range<Int>]
    private let replacements: [UInt32]

    init(_ model: ModelFile) throws(EmbeddingError) {
        file = model.file
        beginning = Int32(model.beginning)
        end = Int32(model.end)
        unknown = Int32(model.unknown)
        pieceCount = Int32(model.pieceCount)
        offsets = file.base + model.pieceOffsets
        bytes = file.base + model.pieceBytes
        scores = file.base + model.pieceScores
        var size = 1
        while size < model.pieceCount * 2 { size <<= 1 }
        mask = UInt32(size - 1)
        var lowest = Float.infinity, longest = 1
        for piece in 0..<model.pieceCount {
            let score = Float(bitPattern: scores.loadUnaligned(fromByteOffset: piece * 4, as: UInt32.self).littleEndian)
            guard score.isFinite else {
                throw EmbeddingError(.notAModel, "piece \(piece) of the vocabulary has no finite score", path: file.path)
            }
            lowest = min(lowest, score)
            let from = offsets.loadUnaligned(fromByteOffset: piece * 4, as: UInt32.self)
            let to = offsets.loadUnaligned(fromByteOffset: piece * 4 + 4, as: UInt32.self)
            if to > from { longest = max(longest, Int(to - from)) }
        }
        // SentencePiece's penalty: an unknown character costs 10 less than the rarest piece.
        unknownScore = lowest - 10
        longestPiece = Int32(min(longest, 256))
        let (mask, offsets, bytes, length) = (mask, offsets, bytes, model.pieceBytesLength)
        let count = Int32(model.pieceCount)
        var built: Int32 = 0
        slots = [UInt32](unsafeUninitializedCapacity: size) { buffer, initialized in
            buffer.initialize(repeating: 0)
            built = ce_vocabulary_index(offsets.assumingMemoryBound(to: UInt8.self), bytes.assumingMemoryBound(to: UInt8.self),
                                        length, count, buffer.baseAddress, mask)
            initialized = size
        }
        guard built == 0 else {
            throw EmbeddingError(.notAModel, "the vocabulary's piece offsets lie outside its bytes", path: file.path)
        }
        (normalized, replacementRanges, replacements) = try Self.normalizationMap(model)
    }

    /// The file's normalization map as sorted code points and their replacements.
    private static func normalizationMap(_ model: ModelFile) throws(EmbeddingError) -> ([UInt32], [Range<Int>], [UInt32]) {
        var reader = ByteReader(model.file, offset: model.normalization.lowerBound)
        var keys: [UInt32] = [], ranges: [Range<Int>] = [], values: [UInt32] = []
        keys.reserveCapacity(model.normalizationCount)
        ranges.reserveCapacity(model.normalizationCount)
        for _ in 0..<model.normalizationCount {
            let key = try reader.uint32("normalization map")
            let count = Int(try reader.byte("normalization map"))
            let start = values.count
            for _ in 0..<count { values.append(try reader.uint32("normalization map")) }
            guard keys.last.map({ $0 < key }) ?? true, reader.offset <= model.normalization.upperBound else {
                throw EmbeddingError(.notAModel, "the normalization map is not sorted or overruns its bytes", path: model.file.path)
            }
            keys.append(key)
            ranges.append(start..<values.count)
        }
        return (keys, ranges, values)
    }

    /// The content pieces of `text`, without `<s>` and `</s>`.
    func pieces(of text: String) -> Pieces {
        // Normalized code points, each with the index of the scalar of `text` it came from.
        var points: [UInt32] = [], origins: [Int] = []
        points.reserveCapacity(text.utf8.count + 1)
        origins.reserveCapacity(text.utf8.count + 1)
        for (index, scalar) in text.unicodeScalars.enumerated() {
            for point in normalize(scalar.value) {
                if point == 0x20, points.last == 0x20 { continue }
                points.append(point)
                origins.append(index)
            }
        }
        var utf8: [UInt8] = []
        var starts: [Int32] = []
        var characterOrigins: [Int] = []
        utf8.reserveCapacity(points.count * 3 + 3)
        if points.first != 0x20 {
            starts.append(0)
            characterOrigins.append(0)
            Self.appendUTF8(0x2581, to: &utf8)
        }
        for (point, origin) in zip(points, origins) {
            starts.append(Int32(utf8.count))
            characterOrigins.append(origin)
            Self.appendUTF8(point == 0x20 ? 0x2581 : point, to: &utf8)
        }
        let characters = starts.count
        starts.append(Int32(utf8.count))
        var ids = [Int32](repeating: 0, count: characters)
        var pieceStarts = [Int32](repeating: 0, count: characters)
        let count = utf8.withUnsafeBufferPointer { text in
            ce_segment(text.baseAddress, starts, Int32(characters), slots, mask,
                       offsets.assumingMemoryBound(to: UInt8.self), bytes.assumingMemoryBound(to: UInt8.self),
                       scores.assumingMemoryBound(to: UInt8.self), longestPiece, 4, pieceCount, unknownScore,
                       unknown, &ids, &pieceStarts)
        }
        precondition(count >= 0, "out of memory while tokenizing")
        ids.removeLast(characters - Int(count))
        let scalarStarts = pieceStarts.prefix(Int(count)).map { characterOrigins[Int($0)] }
        return Pieces(ids: ids, scalarStarts: scalarStarts)
    }

    /// Whether piece `id` begins a word (starts with `▁`).
    func startsWord(_ id: Int32) -> Bool {
        let bytes = self.bytes(of: id)
        return bytes.count >= 3 && bytes[0] == 0xe2 && bytes[1] == 0x96 && bytes[2] == 0x81
    }

    /// The UTF-8 bytes of piece `id`.
    func bytes(of id: Int32) -> UnsafeRawBufferPointer {
        let from = Int(offsets.loadUnaligned(fromByteOffset: Int(id) * 4, as: UInt32.self).littleEndian)
        let to = Int(offsets.loadUnaligned(fromByteOffset: Int(id) * 4 + 4, as: UInt32.self).littleEndian)
        return UnsafeRawBufferPointer(start: bytes + from, count: to - from)
    }

    private func normalize(_ point: UInt32) -> ArraySlice<UInt32> {
        var low = 0, high = normalized.count
        while low < high {
            let middle = (low + high) / 2
            if normalized[middle] < point { low = middle + 1 } else { high = middle }
        }
        if low < normalized.count, normalized[low] == point { return replacements[replacementRanges[low]] }
        return [point]
    }

    private static func appendUTF8(_ point: UInt32, to bytes: inout [UInt8]) {
        guard let scalar = Unicode.Scalar(point) else { return }
        bytes.append(contentsOf: UTF8.encode(scalar)!)
    }
}
