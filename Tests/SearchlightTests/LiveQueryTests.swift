import Foundation
import Testing
@testable import Searchlight

@Suite("Live query")
struct LiveQueryTests {
    @Test func deliversResultsThenChanges() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("searchlight-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let index = try SearchableIndex(path: directory.appendingPathComponent("index.sqlite").path)
        func item(_ id: String, size: Int64) -> SearchableItem {
            var attributes = AttributeSet(contentType: "text/plain")
            attributes.displayName = id
            attributes.size = size
            attributes.contentModificationDate = Date(timeIntervalSince1970: 1_750_000_000)
            return SearchableItem(uniqueIdentifier: ItemIdentifier(id), domainIdentifier: "d", attributeSet: attributes)
        }
        try index.indexItems([item("a.txt", size: 10), item("b.txt", size: 20), item("c.md", size: 30)])

        let stream = SearchQuery(queryString: #"displayName == "*.txt""#).liveResults(in: index, checkingEvery: .milliseconds(10))
        var changes = stream.makeAsyncIterator()
        let initial = try #require(try await changes.next())
        #expect(initial.isInitial)
        #expect(initial.added.map(\.item.uniqueIdentifier).sorted() == ["a.txt", "b.txt"])

        // A change outside the result set delivers nothing; then one batch delivers one change.
        try index.indexItems([item("c.md", size: 31)])
        var batch = IndexBatch()
        batch.upsert(item("d.txt", size: 40))
        batch.upsert(item("b.txt", size: 21))
        batch.delete("a.txt", domain: "d")
        try index.apply(batch)
        let change = try #require(try await changes.next())
        #expect(!change.isInitial)
        #expect(change.added.map(\.item.uniqueIdentifier) == ["d.txt"])
        #expect(change.removed.map(\.item.uniqueIdentifier) == ["a.txt"])
        #expect(change.updated.map(\.item.uniqueIdentifier) == ["b.txt"])
        #expect(change.updated.first?.item.attributeSet.size == 21)
    }

    @Test func reportsMalformedQueries() async {
        let index = QueryFixture.shared.index
        await #expect(throws: QueryParseError.self) {
            for try await _ in SearchQuery(queryString: "size >").liveResults(in: index) {}
        }
    }
}
