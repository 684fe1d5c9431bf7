import CShimEmbedding

/// A query embedding quantized like the stored vectors, to score many of them with integer dot
/// products (the C kernel `ce_dot_i8_many`): a similarity is `dot(codes) × scale × theirs`.
///
/// ```swift
/// let query = QuantizedQuery(model.embed([question], as: .query)[0])
/// let scores = query.similarities(packed: rows, count: rowCount)   // rows of QuantizedVector.bytes
/// ```
public struct QuantizedQuery: Sendable {
    /// The query's codes and scale, to compare against stored ones.
    public let vector: QuantizedVector

    /// Quantizes a question's vector (normalized, as ``EmbeddingModel`` returns it).
    public init(_ query: [Float]) {
        vector = QuantizedVector(query)
    }

    /// The similarity with one stored vector.
    public func similarity(to stored: QuantizedVector) -> Float {
        precondition(stored.values.count == vector.values.count, "vectors of different dimensions")
        let dot = stored.values.withUnsafeBufferPointer { stored in
            vector.values.withUnsafeBufferPointer { query in
                ce_dot_i8(query.baseAddress, stored.baseAddress, Int32(query.count))
            }
        }
        return Float(dot) * vector.scale * stored.scale
    }

    /// The similarities with `count` stored vectors laid end to end in `packed`, each in the form
    /// of ``QuantizedVector/bytes`` (4 + dimensions bytes). A vector whose scale is not a
    /// positive finite number scores 0.
    public func similarities(packed: UnsafeRawBufferPointer, count: Int) -> [Float] {
        let dimensions = vector.values.count
        let stride = 4 + dimensions
        precondition(packed.count >= count * stride, "\(packed.count) bytes hold fewer than \(count) vectors")
        guard count > 0, let base = packed.baseAddress else { return [] }
        var dots = [Int32](repeating: 0, count: count)
        vector.values.withUnsafeBufferPointer { query in
            ce_dot_i8_many(query.baseAddress, (base + 4).assumingMemoryBound(to: Int8.self), stride, Int32(dimensions), count, &dots)
        }
        return (0..<count).map { index in
            let scale = Float(bitPattern: base.loadUnaligned(fromByteOffset: index * stride, as: UInt32.self).littleEndian)
            guard scale.isFinite, scale > 0 else { return 0 }
            return Float(dots[index]) * vector.scale * scale
        }
    }

    /// The similarities with `stored`, in order.
    public func similarities(_ stored: [QuantizedVector]) -> [Float] {
        stored.map(similarity(to:))
    }
}
