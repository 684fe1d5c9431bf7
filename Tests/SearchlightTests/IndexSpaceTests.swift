import Foundation
import Logging
import SearchlightPostgres
import SearchlightTestSupport
import Testing
@testable import Searchlight

/// An index that keeps its size (issue 35): churn — rows deleted and rewritten — leaves free
/// pages, full-text tombstones and a grown log; ``SearchableIndex/reclaimSpace()`` gives them
/// back, and ``SearchableIndex/reclaimSpaceIfChurned()`` does so only once churn is worth it,
/// or once the index has doubled (a first scan's full-text segments merged into one).
@Suite("Index space after churn", .ownThread)
struct IndexSpaceTests {
    let folder = TemporaryTree("index-space")

    /// A document item whose text is 60 words drawn from a seeded generator.
    static func document(_ number: Int, generation: Int) -> SearchableItem {
        var generator = SeededGenerator(seed: UInt64(number * 7919 + generation))
        let words = (0..<60).map { _ in "w\(generator.next() % 5_000)" }
        var attributes = AttributeSet(contentType: "text/plain")
        attributes.displayName = "note \(number).txt"
        attributes.textContent = words.joined(separator: " ") + (number == 0 ? " lighthouse" : "")
        return SearchableItem(uniqueIdentifier: ItemIdentifier("notes/note \(number).txt"), domainIdentifier: "files",
                              attributeSet: attributes, changeStamp: [UInt8(generation)], identifierIsPath: true)
    }

    static func write(_ numbers: some Sequence<Int>, generation: Int, to index: SearchableIndex) throws {
        var batch = IndexBatch()
        for number in numbers { batch.upsert(document(number, generation: generation)) }
        try index.apply(batch)
    }

    static func bytes(_ use: SearchableIndex.SpaceUse) -> Int64 { use.fileBytes + use.walBytes }

    @Test("After rounds of churn the index shrinks back to within 1.2× of a fresh one")
    func churnIsGivenBack() throws {
        let index = try SearchableIndex(path: folder.url("churned.sqlite"))
        try Self.write(0..<3_000, generation: 0, to: index)
        // Five rounds: half the items deleted, as many new ones written, and the rest rewritten.
        var live = Array(0..<3_000), next = 3_000
        for round in 1...5 {
            var batch = IndexBatch()
            for number in live.prefix(1_500) { batch.delete(ItemIdentifier("notes/note \(number).txt"), domain: "files") }
            try index.apply(batch)
            live = Array(live.dropFirst(1_500)) + Array(next..<(next + 1_500))
            next += 1_500
            try Self.write(live, generation: round, to: index)
        }
        let before = try index.spaceUse()
        let reclaimed = try #require(try index.reclaimSpaceIfChurned())
        let after = try index.spaceUse()
        #expect(reclaimed.after < reclaimed.before && Self.bytes(after) == reclaimed.after)
        #expect(after.freeBytes == 0 && after.walBytes == 0, "\(after)")

        let fresh = try SearchableIndex(path: folder.url("fresh.sqlite"))
        try Self.write(live, generation: 5, to: fresh)
        try fresh.reclaimSpace()
        let freshBytes = Self.bytes(try fresh.spaceUse())
        #expect(Double(Self.bytes(after)) <= 1.2 * Double(freshBytes), "\(after) against \(freshBytes) fresh, \(before) before")
        // Still whole and searchable.
        try index.checkFullTextIntegrity()
        #expect(try index.itemCount(domain: nil) == 3_000)
        let word = try #require(Self.document(live[0], generation: 5).attributeSet.textContent?.split(separator: " ").first)
        #expect(try index.searchIdentifiers(words: [String(word)], domain: nil, limit: nil, scope: .all)
            .contains(ItemIdentifier("notes/note \(live[0]).txt")))
        #expect(try index.churnedRows == 0)
    }

    @Test("Little churn is left alone, and growth only once the index has doubled")
    func thresholds() throws {
        let index = try SearchableIndex(path: folder.url("small.sqlite"))
        try Self.write(0..<500, generation: 0, to: index)
        #expect(try index.reclaimSpaceIfChurned() == nil, "fewer rows than the minimum")
        try Self.write(500..<4_000, generation: 0, to: index)
        #expect(try index.reclaimSpaceIfChurned() != nil, "4 000 items where there were none: a first scan")
        try Self.write(4_000..<7_000, generation: 0, to: index)
        #expect(try index.reclaimSpaceIfChurned() == nil, "3 000 items added to 4 000: growth, not churn, and not double")
        try Self.write(7_000..<8_000, generation: 0, to: index)
        #expect(try index.reclaimSpaceIfChurned() != nil, "8 000 items: twice the 4 000 of the last reclaim")
        try Self.write(0..<4_000, generation: 1, to: index)
        // 4 000 rows rewritten of 8 000 items: worth it.
        #expect(try index.reclaimSpaceIfChurned() != nil)
        try Self.write(0..<3_000, generation: 2, to: index)
        #expect(try index.reclaimSpaceIfChurned() == nil, "3 000 rows against 8 000 items: not yet")
        try Self.write(3_000..<4_100, generation: 2, to: index)
        #expect(try index.reclaimSpaceIfChurned() != nil, "4 100 rows: more than half")
    }

    @Test("A first scan's full-text segments are merged into one and the file packed; searches find the same")
    func firstScanIsMerged() throws {
        let index = try SearchableIndex(path: folder.url("first.sqlite"))
        // Batches, as a scan writes them: a full-text segment each.
        for start in stride(from: 0, to: 3_000, by: 100) {
            try Self.write(start..<(start + 100), generation: 0, to: index)
        }
        let words = ["lighthouse", "w42", "note", "w4999"]
        let found = try words.map { try index.searchIdentifiers(words: [$0], domain: nil, limit: nil, scope: .all) }
        let segments = try index.fullTextSegments()
        #expect(segments.words > 1 && segments.content > 1, "\(segments)")
        let reclaimed = try #require(try index.reclaimSpaceIfChurned())
        #expect(reclaimed.after < reclaimed.before, "\(reclaimed)")
        let merged = try index.fullTextSegments()
        #expect(merged.words == 1 && merged.content == 1, "\(merged)")
        try index.checkFullTextIntegrity()
        #expect(try words.map { try index.searchIdentifiers(words: [$0], domain: nil, limit: nil, scope: .all) } == found)
        #expect(try index.reclaimSpaceIfChurned() == nil, "nothing written since")
    }

    @Test("Space is reclaimed while a reader holds the index open, and the reader goes on")
    func reclaimingWithAReader() throws {
        let path = folder.url("read.sqlite")
        let index = try SearchableIndex(path: path)
        try Self.write(0..<1_500, generation: 0, to: index)
        let reader = try SearchableIndex(path: path, readOnly: true)
        #expect(try reader.itemCount(domain: nil) == 1_500)
        var batch = IndexBatch()
        for number in 0..<1_000 { batch.delete(ItemIdentifier("notes/note \(number).txt"), domain: "files") }
        try index.apply(batch)
        let reclaimed = try #require(try index.reclaimSpaceIfChurned())
        #expect(reclaimed.after < reclaimed.before)
        #expect(try reader.itemCount(domain: nil) == 500)
        #expect(try reader.searchIdentifiers(words: ["lighthouse"], domain: nil, limit: nil, scope: .all).isEmpty)
    }

    @Test("PostgreSQL: growth is left alone, churn is vacuumed, and the items stay")
    func postgresVacuumsChurn() async throws {
        let url = try await PostgresTestDatabase.makeURL()
        let store = try PostgresStore(url: url, readOnly: false, logger: Logger(label: "test"))
        defer { store.close() }
        var batch = IndexBatch()
        for number in 0..<1_200 { batch.upsert(Self.document(number, generation: 0)) }
        try store.apply(batch)
        #expect(try store.reclaimSpaceIfChurned() == nil, "rows that only added items")
        batch = IndexBatch()
        for number in 0..<700 { batch.delete(ItemIdentifier("notes/note \(number).txt"), domain: "files") }
        for number in 1_200..<1_900 { batch.upsert(Self.document(number, generation: 1)) }
        try store.apply(batch)
        #expect(store.churnedRows == 2_600)
        let reclaimed = try #require(try store.reclaimSpaceIfChurned())
        #expect(reclaimed.before > 0 && reclaimed.after > 0)
        // The indexes are built again without the pages the churn emptied: the database shrinks.
        #expect(reclaimed.after < reclaimed.before, "\(reclaimed)")
        #expect(store.churnedRows == 0)
        #expect(try store.itemCount(domain: nil) == 1_200)
        #expect(try store.searchIdentifiers(words: ["lighthouse"], domain: nil, limit: nil, scope: .all).isEmpty,
                "note 0 was deleted")
    }
}
