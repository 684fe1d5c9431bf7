import CShimEmbedding

/// The vectors of a text's chunks as an index stores them (Docs/Contract.md#search-by-meaning):
/// each chunk's vector as the scale that brings its values back (`value ≈ byte × scale`, a
/// 32-bit float, little-endian), then one signed byte per dimension — 388 bytes a
/// chunk for 384 dimensions, a quarter of the floats' room, with a similarity within about
/// 0.01 of theirs.
///
/// The same bytes in both backends (SQLite's BLOB, PostgreSQL's bytea).
///
/// ```swift
/// let stored = StoredVectors(chunkVectors)  // what an index keeps for one text
/// let question = StoredVectors.Question(questionVector)
/// let best = stored.bytes.withUnsafeBufferPointer { StoredVectors.similarity(of: question, in: $0) }
/// ```
public struct StoredVectors: Sendable, Hashable {
    /// The chunks' vectors, one after the other.
    ///
    /// Each chunk takes ``stride`` bytes: its scale, then its codes.
    public var bytes: [UInt8]
    /// The dimensions of each vector.
    public let dimensions: Int

    /// The bytes of one chunk's vector.
    public var stride: Int { dimensions + 4 }
    /// How many chunks.
    public var count: Int { dimensions == 0 ? 0 : bytes.count / stride }

    /// Vectors read back from their bytes; `nil` when the bytes are not whole vectors of `dimensions`.
    public init?(bytes: [UInt8], dimensions: Int) {
        guard dimensions > 0, bytes.count % (dimensions + 4) == 0 else { return nil }
        self.bytes = bytes
        self.dimensions = dimensions
    }

    /// The stored form of `vectors`, all of the same length (a model's dimensions).
    ///
    /// Each vector gets its own scale, so a chunk of small values keeps its precision. Every
    /// value must be finite: a NaN or an infinity stops the process (its code cannot be made).
    ///
    /// - Parameter vectors: The chunks' vectors, in order; an empty array gives no chunk.
    public init(_ vectors: [[Float]]) {
        dimensions = vectors.first?.count ?? 0
        var bytes: [UInt8] = []
        bytes.reserveCapacity(vectors.count * (dimensions + 4))
        for vector in vectors {
            precondition(vector.count == dimensions, "vectors of one text have the model's dimensions")
            let largest = vector.reduce(Float(0)) { Swift.max($0, abs($1)) }
            let scale = largest > 0 ? largest / 127 : 1
            withUnsafeBytes(of: scale.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
            for value in vector {
                bytes.append(UInt8(bitPattern: Int8((value / scale).rounded().clamped(to: -127...127))))
            }
        }
        self.bytes = bytes
    }

    /// The vector of chunk `index`, as floats.
    ///
    /// Within half a scale step of what was stored, per dimension. `index` must be below ``count``.
    public func vector(_ index: Int) -> [Float] {
        bytes.withUnsafeBufferPointer { all in
            let chunk = UnsafeBufferPointer(rebasing: all[(index * stride)..<((index + 1) * stride)])
            let scale = Self.scale(of: chunk)
            return chunk.dropFirst(4).map { Float(Int8(bitPattern: $0)) * scale }
        }
    }

    /// How near a document is to `question`, from the cosine similarities of its chunks (stored
    /// vectors of unit length, first chunk first) in `bytes`: the mean of the first chunk's,
    /// the best chunk's and the average of all. The first chunk holds the name, the title and
    /// the opening, which say what the document is about; the best, the passage that answers;
    /// the average, how much of the document is on the subject — a long document no longer
    /// wins by having one chunk among many that happens to come near. On the 550 manual pages
    /// of Benchmarks/meaning.py this took the right page into the first five for 18 of 20
    /// English questions and 18 of 25 in other languages, against 16 and 12 by the best chunk
    /// alone. `chunk` is the best chunk. `nil` when `bytes` holds no whole vector of the
    /// question's dimensions.
    ///
    /// The products of bytes are the embedding engine's C kernel (`ce_dot_i8_many`, AVX2 where
    /// the processor has it), optimized in every build.
    ///
    /// Reads `bytes` in place, as the index hands them over (a mapped page, a row's buffer): no
    /// copy, one pass over the chunks.
    public static func similarity(of question: Question, in bytes: UnsafeBufferPointer<UInt8>) -> (similarity: Float, chunk: Int)? {
        let dimensions = question.codes.count
        let stride = dimensions + 4
        guard dimensions > 0, !bytes.isEmpty, bytes.count % stride == 0, let base = bytes.baseAddress else { return nil }
        let count = bytes.count / stride
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: count) { dots in
            question.codes.withUnsafeBufferPointer { codes in
                UnsafeRawPointer(base + 4).withMemoryRebound(to: Int8.self, capacity: bytes.count - 4) { vectors in
                    ce_dot_i8_many(codes.baseAddress, vectors, stride, Int32(dimensions), count, dots.baseAddress)
                }
            }
            var best: (similarity: Float, chunk: Int) = (-.infinity, 0)
            var first: Float = 0, sum: Float = 0
            for chunk in 0..<count {
                let scale = Self.scale(of: UnsafeBufferPointer(start: base + chunk * stride, count: 4))
                let similarity = Float(dots[chunk]) * scale * question.scale
                if chunk == 0 { first = similarity }
                sum += similarity
                if similarity > best.similarity { best = (similarity, chunk) }
            }
            return ((first + best.similarity + sum / Float(count)) / 3, best.chunk)
        }
    }

    /// A question's vector quantized as the stored ones are, to be compared by products of bytes.
    ///
    /// Made once per search, then compared with every stored text.
    public struct Question: Sendable {
        /// One signed byte per dimension, `round(v / scale)`.
        public let codes: [Int8]
        /// What a code of 1 stands for: the largest magnitude over 127.
        public let scale: Float

        /// The codes of a unit vector.
        public init(_ vector: [Float]) {
            let largest = vector.reduce(Float(0)) { Swift.max($0, abs($1)) }
            let scale: Float = largest > 0 ? largest / 127 : 1
            self.scale = scale
            codes = vector.map { Int8(($0 / scale).rounded().clamped(to: -127...127)) }
        }
    }

    /// The scale stored before a vector's bytes.
    @inline(__always)
    static func scale(of vector: UnsafeBufferPointer<UInt8>) -> Float {
        Float(bitPattern: UInt32(littleEndian: UnsafeRawPointer(vector.baseAddress!).loadUnaligned(as: UInt32.self)))
    }
}

extension Comparable {
    fileprivate func clamped(to range: ClosedRange<Self>) -> Self { Swift.min(Swift.max(self, range.lowerBound), range.upperBound) }
}
