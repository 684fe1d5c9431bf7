import Foundation
import GRDB
import SearchlightTestSupport
import Testing
@testable import Searchlight

/// Items of one type and description whose keywords beyond their name's are the start of one
/// another's share one `content_kind` row (``StoredText/kindCharacters``, migration v7): each still
/// reads, queries and searches as exactly the keywords it was written with.
@Suite("Kind keywords shared by prefix", .ownThread)
struct KindWordsTests {
    /// A file-like item whose keywords are its name's words, then `describing`.
    private func item(_ name: String, _ describing: [String], description: String = "gzip compressed data") -> SearchableItem {
        var attributes = AttributeSet(contentType: "application/gzip")
        attributes.displayName = name
        attributes.contentDescription = description
        attributes.keywords = AttributeSet.nameKeywords(of: name) + describing
        return SearchableItem(uniqueIdentifier: ItemIdentifier(name), domainIdentifier: "files", attributeSet: attributes,
                              identifierIsPath: true)
    }

    private func kindCount(_ index: SearchableIndex) throws -> Int {
        try index.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM content_kind") ?? 0 }
    }

    /// How many items the full-text index holds `word` for (0 when none).
    private func indexedItems(_ word: String, _ index: SearchableIndex) throws -> Int {
        try index.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.words_vocab USING fts5vocab(main, item_words, row)")
            return try Int.fetchOne(db, sql: "SELECT doc FROM temp.words_vocab WHERE term = ?", arguments: [word]) ?? 0
        }
    }

    private func keywords(_ name: String, _ index: SearchableIndex) throws -> [String] {
        try #require(try index.item(ItemIdentifier(name), domain: "files")).item.attributeSet.keywords
    }

    /// A kind row lives while an item has it: a batch forgets the kinds its deletions, moves
    /// onto items and kind changes left unused — checking only those, not every kind of the
    /// index — and keeps a kind another item still has.
    @Test func aBatchForgetsTheKindsItLeftUnused() throws {
        let fixture = try TemporaryIndex()
        let index = fixture.index
        func kinds() throws -> Set<String> {
            try index.read { Set(try String.fetchAll($0, sql: "SELECT contentDescription FROM content_kind")) }
        }
        try index.indexItems([item("a.gz", [], description: "alpha"), item("b.gz", [], description: "beta"),
                              item("c.gz", [], description: "gamma"), item("d.gz", [], description: "gamma"),
                              item("e.gz", [], description: "delta"), item("f.gz", [], description: "epsilon")])
        #expect(try kinds() == ["alpha", "beta", "gamma", "delta", "epsilon"])
        // Deleted: a.gz's kind goes; one of gamma's two items goes, gamma stays.
        try index.deleteItems(withIdentifiers: [ItemIdentifier("a.gz"), ItemIdentifier("c.gz")], domain: "files")
        #expect(try kinds() == ["beta", "gamma", "delta", "epsilon"])
        // Written again with another description, in a batch of upserts only: beta goes.
        try index.indexItems([item("b.gz", [], description: "zeta")])
        #expect(try kinds() == ["zeta", "gamma", "delta", "epsilon"])
        // Moved onto another item, which it replaces: the replaced item's kind goes.
        var batch = IndexBatch()
        batch.move(ItemIdentifier("e.gz"), to: ItemIdentifier("f.gz"), domain: "files")
        try index.apply(batch)
        #expect(try kinds() == ["zeta", "gamma", "delta"])
        // A batch that fails leaves every kind as it was.
        #expect(throws: (any Error).self) {
            try index.apply(batch, alongside: { _ in throw CancellationError() })
        }
        #expect(try kinds() == ["zeta", "gamma", "delta"])
        try index.deleteItems(withIdentifiers: [ItemIdentifier("d.gz")], domain: "files")
        #expect(try kinds() == ["zeta", "delta"])
    }

    @Test func itemsShareAKindByPrefixAndKeepTheirOwnKeywords() throws {
        let fixture = try TemporaryIndex()
        let index = fixture.index
        let full = ["gzip", "archive", "compressed", "max", "compression"]
        let written = [
            // A long name first: its two words make the row, which the next item extends.
            item("one two three four five six seven eight.gz", Array(full.prefix(2))),
            item("long.gz", full),
            item("one two three four five six seven.gz", Array(full.prefix(3))),
            item("one two three four five six seven eight nine ten.gz", []),
        ]
        for file in written { try index.indexItems([file]) }
        // In one batch: a row extended after the batch has used it.
        try index.indexItems([item("p.gz", ["alpha"], description: "other"), item("q.gz", ["alpha", "beta"], description: "other"),
                              item("r.gz", ["alpha"], description: "other")])
        #expect(try kindCount(index) == 2)
        for file in written + [item("p.gz", ["alpha"]), item("q.gz", ["alpha", "beta"]), item("r.gz", ["alpha"])] {
            let name = file.attributeSet.displayName!
            #expect(try keywords(name, index) == file.attributeSet.keywords, "\(name)")
        }
        func names(_ query: String) throws -> [String] {
            try index.query(query).compactMap(\.item.attributeSet.displayName).sorted()
        }
        #expect(try names(#"keywords == "compression""#) == ["long.gz"])
        #expect(try names(#"keywords == "compressed""#) == ["long.gz", "one two three four five six seven.gz"])
        #expect(try names(#"keywords == "beta""#) == ["q.gz"])
        #expect(try names(#"keywords == "alph*""#) == ["p.gz", "q.gz", "r.gz"])
        #expect(try index.search(words: ["compression"]).map(\.item.attributeSet.displayName) == ["long.gz"])
        #expect(try index.search(words: ["beta"]).map(\.item.attributeSet.displayName) == ["q.gz"])
        // The full-text rows hold each item's own words, so deletes take them all away.
        #expect(try indexedItems("compression", index) == 1)
        #expect(try indexedItems("compressed", index) == 2)
        #expect(try indexedItems("archive", index) == 3)
        #expect(try indexedItems("alpha", index) == 3)
        #expect(try indexedItems("beta", index) == 1)
        try index.deleteAllItems()
        for word in ["gzip", "archive", "compressed", "compression", "alpha", "beta"] {
            #expect(try indexedItems(word, index) == 0, "\(word)")
        }
        #expect(try kindCount(index) == 0)
    }

    /// Many kinds of one type and description in one batch (a scan of texts, whose telling
    /// words differ from file to file): each pair whose words start one another's shares a
    /// row, whichever came first, and every item reads its own keywords.
    @Test func manyKindsOfOneTypeInOneBatch() throws {
        let fixture = try TemporaryIndex()
        let index = fixture.index
        var written: [SearchableItem] = []
        for i in 0..<150 {
            let short = item("s\(i).gz", ["w\(i)"]), long = item("l\(i).gz", ["w\(i)", "extra", "words"])
            written += i.isMultiple(of: 2) ? [short, long] : [long, short]
        }
        try index.indexItems(written)
        #expect(try kindCount(index) == 150)
        for file in written {
            let name = file.attributeSet.displayName!
            #expect(try keywords(name, index) == file.attributeSet.keywords, "\(name)")
        }
        // The next batch finds the rows again.
        try index.indexItems([item("again.gz", ["w7", "extra"])])
        #expect(try kindCount(index) == 150)
        #expect(try keywords("again.gz", index) == AttributeSet.nameKeywords(of: "again.gz") + ["w7", "extra"])
    }

    /// A rename gives an item the kind its new keywords need; the others keep theirs.
    @Test func renamedItemsKeepTheirKeywords() throws {
        let fixture = try TemporaryIndex()
        let index = fixture.index
        try index.indexItems([item("long.gz", ["gzip", "archive", "compressed"]), item("a b c d e f g h.gz", ["gzip"])])
        var batch = IndexBatch()
        batch.move(ItemIdentifier("a b c d e f g h.gz"), to: ItemIdentifier("short.gz"), domain: "files",
                   rename: IndexBatch.Rename(displayName: "short.gz", nameKeywordsFollow: true))
        try index.apply(batch)
        #expect(try keywords("short.gz", index) == ["short", "gz", "gzip"])
        #expect(try keywords("long.gz", index) == ["long", "gz", "gzip", "archive", "compressed"])
        #expect(try index.search(words: ["archive"]).map(\.item.attributeSet.displayName) == ["long.gz"])
        #expect(try kindCount(index) == 1)
    }

    /// An index written before v7 finds its kinds again (their digests are recomputed) and its
    /// items keep their keywords when a longer item extends their kind.
    @Test func upgradesAVersion6Index() throws {
        let fixture = try TemporaryIndex()
        let path = fixture.folder + "/v6.sqlite"
        try writeOlderIndex(at: path, upTo: "v6-user-tags", """
            INSERT INTO domain(id, name) VALUES (1, 'files');
            INSERT INTO content_kind(id, contentType, contentDescription, keywords, digest)
            VALUES (1, 'application/gzip', 'gzip compressed data', 'gzip' || char(31) || 'archive', 42);
            INSERT INTO item(id, domainId, identifier, displayName, kindId, derived, size)
            VALUES (1, 1, CAST('old.gz' AS BLOB), 'old.gz', 1, 6, 10);
            """)
        let index = try SearchableIndex(path: path)
        try index.indexItems([item("new.gz", ["gzip", "archive"])])
        #expect(try kindCount(index) == 1)
        try index.indexItems([item("longer.gz", ["gzip", "archive", "compressed"])])
        #expect(try kindCount(index) == 1)
        #expect(try keywords("old.gz", index) == ["old", "gz", "gzip", "archive"])
        #expect(try keywords("new.gz", index) == ["new", "gz", "gzip", "archive"])
        #expect(try index.search(words: ["compressed"]).map(\.item.attributeSet.displayName) == ["longer.gz"])
        #expect(try index.search(words: ["archive"]).count == 3)
        try index.deleteAllItems()
        #expect(try indexedItems("archive", index) == 0)
    }

    @Test func kindKeywordsTakeTheFirstCharacters() {
        let joined = ["é", "bb", "ccc"].joined(separator: "\u{1F}")
        let shift = StoredText.kindCharactersShift
        #expect(StoredText.kindKeywords(joined, column: 6) == joined)
        #expect(StoredText.kindKeywords(joined, column: 6 | 1 << shift) == nil)
        #expect(StoredText.kindKeywords(joined, column: 6 | 2 << shift) == "é")
        #expect(StoredText.kindKeywords(joined, column: 6 | 5 << shift) == "é\u{1F}bb")
        #expect(StoredText.kindKeywords(joined, column: 6 | 9 << shift) == joined)
        #expect(StoredText.kindKeywords(joined, column: 6 | 99 << shift) == joined)
        #expect(StoredText.kindKeywords(nil, column: 3 << shift) == nil)
        // The title's tail length and the kind's character count do not overlap.
        var text = StoredText(title: nil, keywords: nil, column: StoredText.derivedTitle | 200 << StoredText.tailLengthShift)
        text.kindCharacters = 5
        let read = StoredText(title: nil, keywords: joined, column: text.column)
        #expect(read.nameTailLength == 200)
        #expect(read.keywords == "é\u{1F}bb")
    }

    /// SQL reads what Swift reads: SQLite's `substr` counts the same characters.
    @Test func sqlTakesTheSameCharacters() throws {
        let fixture = try TemporaryIndex()
        let joined = ["Zürich", "日本", "bb"].joined(separator: "\u{1F}")
        let sql = SearchableIndex.kindKeywordsSQL("item", keywords: "item.keywords")
        for characters in 0...12 {
            let column = 2 | characters << StoredText.kindCharactersShift
            let read = try fixture.index.read { db in
                try String.fetchOne(db, sql: "SELECT \(sql) FROM (SELECT ? AS keywords, ? AS derived) AS item",
                                    arguments: [joined, column])
            }
            #expect(read == StoredText.kindKeywords(joined, column: column), "\(characters)")
        }
    }
}
