import Foundation
import SearchlightTestSupport
import Testing
@testable import Searchlight
@testable import SearchlightPostgres

/// Search by meaning on a real PostgreSQL cluster: vectors stored once per text digest, found
/// by nearness, kept through a move, marked stale by a new text, swept after their item goes.
@Suite("PostgreSQL meaning", .needsPostgres, .serialized)
struct PostgresMeaningTests {
    static func unit(_ axis: Int) -> [Float] {
        var vector = [Float](repeating: 0.01, count: 32)
        vector[axis] = 1
        let length = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return vector.map { $0 / length }
    }

    @Test func vectorsAreStoredFoundMovedAndSwept() async throws {
        let (index, _) = try await PostgresTestDatabase.makeIndex()
        defer { index.close() }
        try await index.indexItems([
            PostgresIndexTests.item("a/mv.txt", text: "mv moves or renames files"),
            PostgresIndexTests.item("a/copy.txt", text: "mv moves or renames files"),
            PostgresIndexTests.item("a/df.txt", text: "df reports free disk space"),
        ])
        let work = try await index.meaningWork(model: "m", after: [], limit: 10)
        #expect(work.count == 3)
        for item in work {
            let digest = Array(item.text.utf8)
            let known = try await index.hasMeaning(digest: digest)
            let vectors = known ? nil : StoredVectors([Self.unit(item.text.hasPrefix("mv") ? 1 : 2)])
            #expect(try await index.storeMeaning([MeaningVectors(key: item.key, storedText: item.storedText, digest: digest,
                                                                 model: "m", vectors: vectors)]) == 1)
        }
        #expect(try await index.meaningWork(model: "m", after: [], limit: 10).isEmpty)
        let progress = try await index.meaningProgress(model: "m")
        #expect(progress.items == 3 && progress.embedded == 3 && progress.chunks == 2 && progress.bytes == 2 * 36)
        let nearest = try await index.meaningResults(question: Self.unit(2), model: "m", domain: nil, limit: 1)
        #expect(nearest.map(\.item.item.uniqueIdentifier.lossyString) == ["a/df.txt"])
        #expect(nearest.first?.matchedIn == .meaning && (nearest.first?.similarity ?? 0) > 0.98)

        // A move keeps the vectors; a new text waits again; a deleted item's vectors are swept.
        var batch = IndexBatch()
        batch.move(ItemIdentifier("a/df.txt"), to: ItemIdentifier("b/df.txt"), domain: "docs")
        try await index.apply(batch)
        #expect(try await index.meaningResults(question: Self.unit(2), model: "m", domain: nil, limit: 1)
            .map(\.item.item.uniqueIdentifier.lossyString) == ["b/df.txt"])
        try await index.indexItems([PostgresIndexTests.item("a/copy.txt", text: "cp copies files")])
        #expect(try await index.meaningWork(model: "m", after: [], limit: 10).map(\.text) == ["cp copies files"])
        try await index.deleteItems(withIdentifiers: [ItemIdentifier("b/df.txt")], domain: "docs")
        #expect(try await index.forgetUnusedMeaning() == 1)
        #expect(try await index.meaningProgress(model: "m").chunks == 1)
    }
}
