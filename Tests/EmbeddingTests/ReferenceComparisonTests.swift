import Embedding
import SearchlightTestSupport
import Testing

/// Our vectors against the reference implementation's on 338 texts in many scripts, both roles.
@Suite(.ownThread) struct ReferenceComparisonTests {
    @Test func everyVectorMatchesTheReference() throws {
        let reference = try ReferenceVectors.shared.get()
        let model = try EmbeddingModel.load(folder: TestModel.folder())
        #expect(reference.entries.count >= 600)
        var lowest: Float = 1, total: Float = 0
        for role in [EmbeddingRole.query, .passage] {
            let entries = reference.entries.filter { $0.query == (role == .query) }
            let ours = model.embed(entries.map(\.text), as: role)
            for (entry, vector) in zip(entries, ours) {
                let cosine = zip(entry.vector, vector).reduce(0) { $0 + $1.0 * $1.1 }
                lowest = min(lowest, cosine)
                total += cosine
                #expect(cosine >= 0.99, "\(role) \(entry.text.prefix(60).debugDescription): cosine \(cosine)")
            }
        }
        print("ReferenceComparisonTests: \(reference.entries.count) vectors, cosine min \(lowest), mean \(total / Float(reference.entries.count))")
    }

    @Test func tokenCountsMatchTheReference() throws {
        let reference = try ReferenceVectors.shared.get()
        let model = try EmbeddingModel.load(folder: TestModel.folder())
        var differing: [String] = []
        for entry in reference.entries where !entry.query {
            let ours = model.tokenCount(entry.text)
            if ours != entry.tokenCount { differing.append("\(entry.text.prefix(40).debugDescription): \(ours) ≠ \(entry.tokenCount)") }
        }
        #expect(differing.isEmpty, "\(differing.count) texts: \(differing.prefix(10))")
    }
}
