import Foundation
import GRDB
import SearchlightTestSupport
import Testing
@testable import Searchlight

/// A display name that is the last component of its item's identifier is not stored again
/// (migration v8): it reads, queries, searches, moves and renames as a stored one.
@Suite("Display names derived from identifiers", .ownThread)
struct DerivedNameTests {
    private func item(_ id: String, name: String?) -> SearchableItem {
        var attributes = AttributeSet(contentType: "text/plain")
        attributes.displayName = name
        return SearchableItem(uniqueIdentifier: ItemIdentifier(id), domainIdentifier: "files", attributeSet: attributes,
                              identifierIsPath: true)
    }

    private func name(_ id: String, _ index: SearchableIndex) throws -> String? {
        try #require(try index.item(ItemIdentifier(id), domain: "files")).item.attributeSet.displayName
    }

    private func storedNames(_ index: SearchableIndex) throws -> [String: String?] {
        try index.read { db in
            var names: [String: String?] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT identifier, storedName FROM item") {
                names[String(decoding: (row[0] as Data), as: UTF8.self)] = row[1] as String?
            }
            return names
        }
    }

    @Test func whatIsStored() {
        func stored(_ name: String?, _ id: String) -> String? {
            SearchableIndex.storedName(name, identifier: ItemIdentifier(id)).name
        }
        #expect(SearchableIndex.storedName("b.txt", identifier: "a/b.txt") == (nil, 5))
        #expect(SearchableIndex.storedName("b.txt", identifier: "b.txt") == (nil, 5))
        #expect(SearchableIndex.storedName("Café.txt", identifier: "x/Café.txt") == (nil, 9))
        #expect(stored("xb.txt", "a/b.txt") == "xb.txt")
        #expect(stored("b.txt", "a/xb.txt") == "b.txt")
        #expect(stored("a/b.txt", "a/b.txt") == "a/b.txt")
        #expect(stored("", "a/") == "")
        #expect(stored("Report", "a/b.txt") == "Report")
        // Canonically equivalent, other bytes: stored.
        #expect(stored("Cafe\u{301}.txt", "x/Caf\u{E9}.txt") == "Cafe\u{301}.txt")
        #expect(SearchableIndex.storedName(nil, identifier: "a") == (nil, nil))
    }

    @Test func namesReadQueryAndSearchAsStoredOnes() throws {
        let fixture = try TemporaryIndex()
        let index = fixture.index
        try index.indexItems([item("docs/Quarterly report.pdf", name: "Quarterly report.pdf"),
                              item("docs/holiday.png", name: "Beach photo"), item("notes", name: "notes"),
                              item("docs/empty", name: nil)])
        #expect(try storedNames(index) == ["docs/Quarterly report.pdf": nil, "docs/holiday.png": "Beach photo",
                                           "notes": nil, "docs/empty": nil])
        #expect(try name("docs/Quarterly report.pdf", index) == "Quarterly report.pdf")
        #expect(try name("docs/holiday.png", index) == "Beach photo")
        #expect(try name("notes", index) == "notes")
        #expect(try name("docs/empty", index) == nil)
        #expect(try index.query(#"displayName == "quarterly*"c"#).count == 1)
        #expect(try index.query(#"kMDItemFSName == "notes""#).count == 1)
        #expect(try index.search(words: ["quarterly"]).map(\.item.attributeSet.displayName) == ["Quarterly report.pdf"])
        #expect(try index.search(words: ["beach"]).map(\.item.attributeSet.displayName) == ["Beach photo"])
    }

    /// A moved item keeps its name unless the move renames it; items below a moved folder
    /// keep theirs; the full-text index follows.
    @Test func movesAndRenames() throws {
        let fixture = try TemporaryIndex()
        let index = fixture.index
        try index.indexItems([item("a/old.txt", name: "old.txt"), item("a", name: "a"), item("a/b/deep.txt", name: "deep.txt")])
        var batch = IndexBatch()
        batch.move(ItemIdentifier("a/old.txt"), to: ItemIdentifier("a/kept.txt"), domain: "files")
        try index.apply(batch)
        #expect(try name("a/kept.txt", index) == "old.txt")
        batch = IndexBatch()
        batch.move(ItemIdentifier("a/kept.txt"), to: ItemIdentifier("a/new.txt"), domain: "files",
                   rename: IndexBatch.Rename(displayName: "new.txt"))
        batch.move(ItemIdentifier("a"), to: ItemIdentifier("z"), domain: "files", rename: IndexBatch.Rename(displayName: "z"))
        try index.apply(batch)
        #expect(try name("z/new.txt", index) == "new.txt")
        #expect(try name("z/b/deep.txt", index) == "deep.txt")
        #expect(try name("z", index) == "z")
        #expect(try storedNames(index) == ["z/new.txt": nil, "z/b/deep.txt": nil, "z": nil])
        #expect(try index.search(words: ["old"]).isEmpty)
        #expect(try index.search(words: ["new"]).map(\.item.attributeSet.displayName) == ["new.txt"])
        #expect(try index.search(words: ["deep"]).map(\.item.attributeSet.displayName) == ["deep.txt"])
        try index.deleteAllItems()
        let left = try index.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.names_vocab USING fts5vocab(main, item_words, row)")
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM temp.names_vocab") ?? 0
        }
        #expect(left == 0)
    }

    /// An index written before v8 keeps its stored names; items written after derive theirs.
    @Test func upgradesAVersion7Index() throws {
        let fixture = try TemporaryIndex()
        let path = fixture.folder + "/v7.sqlite"
        try writeOlderIndex(at: path, upTo: "v7-kind-words", """
            INSERT INTO domain(id, name) VALUES (1, 'files');
            INSERT INTO content_kind(id, contentType, digest) VALUES (1, 'text/plain', 0);
            INSERT INTO item(id, domainId, identifier, displayName, kindId, derived)
            VALUES (1, 1, CAST('a/old.txt' AS BLOB), 'old.txt', 1, 4);
            """)
        let index = try SearchableIndex(path: path)
        try index.indexItems([item("a/new.txt", name: "new.txt")])
        #expect(try storedNames(index) == ["a/old.txt": "old.txt", "a/new.txt": nil])
        #expect(try name("a/old.txt", index) == "old.txt")
        #expect(try index.search(words: ["old"]).map(\.item.attributeSet.displayName) == ["old.txt"])
        try index.deleteAllItems()
        #expect(try index.search(words: ["old"]).isEmpty)
    }
}
