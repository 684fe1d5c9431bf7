import Embedding
import Testing
import SystemPackage

@Suite struct ModelLoadingTests {
    @Test func loadsAndEmbeds() throws {
        let model = try EmbeddingModel.load(folder: TestModel.folder())
        #expect(model.dimensions == 384)
        let vectors = model.embed(["how much room is left on my drives", ""], as: .query)
        #expect(vectors.count == 2)
        let norm = vectors[0].reduce(0) { $0 + $1 * $1 }
        #expect(abs(norm - 1) < 1e-4)
    }
}
