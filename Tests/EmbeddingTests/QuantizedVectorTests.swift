import CShimEmbedding
import Embedding
import Testing

@Suite struct QuantizedVectorTests {
    static func cosine(_ a: [Float], _ b: [Float]) -> Float {
        let dot = zip(a, b).reduce(0) { $0 + $1.0 * $1.1 }
        let norms = (a.reduce(0) { $0 + $1 * $1 } * b.reduce(0) { $0 + $1 * $1 }).squareRoot()
        return dot / norms
    }

    /// The int8 kernel (AVX2 where the processor has it) sums exactly what a plain loop sums,
    /// for any length (whole blocks of 32 and the rest) and for the extremes of -127...127.
    @Test func int8ProductsEqualAPlainLoop() {
        var generator = SystemRandomNumberGenerator()
        for dimensions in [1, 7, 31, 32, 33, 64, 100, 384, 385] {
            let count = 5, stride = dimensions + 3
            var query = (0..<dimensions).map { _ in Int8.random(in: -127...127, using: &generator) }
            var vectors = (0..<(count * stride)).map { _ in Int8.random(in: -127...127, using: &generator) }
            if dimensions == 384 {
                query = (0..<dimensions).map { $0 % 2 == 0 ? 127 : -127 }
                for index in 0..<dimensions { vectors[index] = query[index] }
            }
            var products = [Int32](repeating: 0, count: count)
            ce_dot_i8_many(query, vectors, stride, Int32(dimensions), count, &products)
            let expected = (0..<count).map { vector in
                (0..<dimensions).reduce(Int32(0)) { $0 + Int32(query[$1]) * Int32(vectors[vector * stride + $1]) }
            }
            #expect(products == expected, "\(dimensions) dimensions")
        }
        #expect(ce_dot_i8([127, -127], [127, -127], 2) == 2 * 127 * 127)
    }

    @Test func roundTripKeepsTheDirection() throws {
        let model = try EmbeddingModel.load(folder: TestModel.folder())
        let texts = ["create a new folder", "Сколько места осталось на моих дисках?", "新しいフォルダを作成する",
                     "x = 3.14159; y = f(x) * 2", "😀"]
        for vector in model.embed(texts, as: .passage) {
            let quantized = QuantizedVector(vector)
            #expect(quantized.bytes.count == 388)
            let restored = try #require(QuantizedVector(bytes: quantized.bytes))
            #expect(restored == quantized)
            #expect(Self.cosine(restored.floats, vector) >= 0.995)
        }
    }

    @Test func batchScoresEqualSingleScores() throws {
        let model = try EmbeddingModel.load(folder: TestModel.folder())
        let passages = model.embed(["df reports file system disk space usage", "mv moves or renames files",
                                    "mkdir makes directories"], as: .passage).map(QuantizedVector.init)
        let question = model.embed(["how much room is left on my drives"], as: .query)[0]
        let query = QuantizedQuery(question)
        let packed = passages.flatMap(\.bytes)
        let batch = packed.withUnsafeBytes { query.similarities(packed: $0, count: passages.count) }
        let single = query.similarities(passages)
        #expect(batch == single)
        // Integer scoring stays close to float scoring, and the right page wins.
        for (score, passage) in zip(batch, passages) {
            #expect(abs(score - passage.similarity(to: question)) < 0.01)
        }
        #expect(batch.firstIndex(of: batch.max()!) == 0)
    }

    @Test func badBytesAreRefused() {
        #expect(QuantizedVector(bytes: [1, 2]) == nil)
        #expect(QuantizedVector(bytes: [0, 0, 0, 0, 5]) == nil)        // a zero scale
        #expect(QuantizedVector(bytes: [0, 0, 0xc0, 0x7f, 5]) == nil)  // NaN
        #expect(QuantizedVector(bytes: [0, 0, 0x80, 0x3f, 0xff])?.values == [-1])
    }

    @Test func zeroVector() {
        let zero = QuantizedVector([Float](repeating: 0, count: 384))
        #expect(zero.scale == 1)
        #expect(zero.values.allSatisfy { $0 == 0 })
    }
}
