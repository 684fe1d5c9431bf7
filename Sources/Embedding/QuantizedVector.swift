import CShimEmbedding

/// An embedding stored compactly: one signed byte per dimension and a scale, so that a 384-float
/// vector takes 388 bytes (`bytes`: the scale as a little-endian float32, then the codes).
///
/// The codes are `round(v / scale)` with `scale = max |v| / 127`; for a normalized
/// embedding the cosine between the stored and the original vector is above 0.999.
///
/// ```swift
/// let stored = QuantizedVector(model.embed([passage], as: .passage)[0])
/// let row = stored.bytes                                     // 388 bytes for 384 dimensions
/// QuantizedVector(bytes: row)?.similarity(to: questionVector)  // the cosine, within about 0.01
/// ```
public struct QuantizedVector: Sendable, Hashable {
    /// One code per dimension.
    public var values: [Int8]
    /// What a code of 1 stands for.
    public var scale: Float

    /// The codes of `vector`.
    public init(_ vector: [Float]) {
        let largest = vector.reduce(0) { max($0, abs($1)) }
        scale = largest > 0 ? largest / 127 : 1
        let inverse = 1 / scale
        values = vector.map { Int8(max(-127, min(127, ($0 * inverse).rounded()))) }
    }

    /// A vector read back from ``bytes``; nil when `bytes` holds no scale or a scale that is
    /// not a positive finite number.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count >= 4 else { return nil }
        let head = Array(bytes.prefix(4))
        let scale = Float(bitPattern: UInt32(head[0]) | UInt32(head[1]) << 8 | UInt32(head[2]) << 16 | UInt32(head[3]) << 24)
        guard scale.isFinite, scale > 0 else { return nil }
        self.scale = scale
        values = bytes.dropFirst(4).map { Int8(bitPattern: $0) }
    }

    /// The scale (little-endian float32), then one byte per dimension.
    public var bytes: [UInt8] {
        let bits = scale.bitPattern
        return [UInt8(bits & 0xff), UInt8(bits >> 8 & 0xff), UInt8(bits >> 16 & 0xff), UInt8(bits >> 24)]
            + values.map { UInt8(bitPattern: $0) }
    }

    /// The vector the codes stand for.
    public var floats: [Float] { values.map { Float($0) * scale } }

    /// The dot product with `query` (for normalized vectors, their cosine).
    public func similarity(to query: [Float]) -> Float {
        precondition(query.count == values.count, "a query of \(query.count) dimensions against a vector of \(values.count)")
        var sum: Float = 0
        for (code, value) in zip(values, query) { sum += Float(code) * value }
        return sum * scale
    }
}
