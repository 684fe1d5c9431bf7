import Foundation
import GRDB
import SearchlightTestSupport
import Testing
@testable import Searchlight

/// A file's title when its format gives none, as `FileAttributes.title(fromFileName:)` makes it
/// (SearchlightFiles, which these tests do not link).
private func fileTitle(_ name: String) -> String {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
    return String(name[..<dot])
}

/// A file-like item: its title and keywords derived from its name, as `FileAttributes` makes them.
private func file(_ id: String, description: String? = "ASCII text", type: String? = "text/plain",
                  title: String? = nil, extraKeywords: [String] = ["ascii"]) -> SearchableItem {
    let name = String(id.split(separator: "/").last!)
    var attributes = AttributeSet(contentType: type)
    attributes.displayName = name
    attributes.title = title ?? fileTitle(name)
    attributes.contentDescription = description
    attributes.keywords = AttributeSet.nameKeywords(of: name) + extraKeywords
    attributes.size = 1234
    attributes.contentModificationDate = Date(timeIntervalSince1970: 1_700_000_000.25)
    attributes.contentCreationDate = Date(timeIntervalSince1970: 1_600_000_000.5)
    attributes.pixelWidth = 640
    attributes.pixelHeight = 480
    attributes.textContent = "some text"
    return SearchableItem(uniqueIdentifier: ItemIdentifier(id), domainIdentifier: "files", attributeSet: attributes,
                          changeStamp: [1, 2, 3], failure: nil, identifierIsPath: true)
}

@Suite("Compact storage", .ownThread)
struct CompactStorageTests {
    @Test func storedTextRoundTrips() {
        let cases: [(title: String?, keywords: [String])] = [
            ("Quarterly report", ["quarterly", "report", "pdf", "document"]), ("Quarterly report", ["finance"]),
            (nil, []), ("", ["report"]), ("Quarterly report.final", ["quarterly", "report"]),
        ]
        for (title, keywords) in cases {
            for name in ["Quarterly report.pdf", "Quarterly report.final.pdf", ".profile", "x"] {
                var attributes = AttributeSet()
                attributes.displayName = name
                attributes.title = title
                attributes.keywords = keywords
                let stored = StoredText(attributes)
                #expect(stored.title(displayName: name) == title, "\(name)")
                #expect(stored.keywords(displayName: name) == keywords, "\(name)")
            }
        }
    }

    /// `é` as one scalar and as `e` plus a combining accent are equal Swift strings but other
    /// bytes: neither a title nor a kind may come back with the other form's bytes.
    @Test func keepsTheBytesOfCanonicallyEquivalentTexts() throws {
        let composed = "Caf\u{E9}", decomposed = "Cafe\u{301}"
        var attributes = AttributeSet()
        attributes.displayName = decomposed + ".txt"
        attributes.title = composed
        let stored = StoredText(attributes)
        #expect(Array(stored.title(displayName: attributes.displayName!)!.utf8) == Array(composed.utf8))

        let index = try SearchableIndex(path: TestScratch.path("canonical"))
        try index.indexItems([file("a.txt", description: composed), file("b.txt", description: decomposed)])
        let descriptions = try ["a.txt", "b.txt"].map {
            try index.item(ItemIdentifier($0), domain: "files")?.item.attributeSet.contentDescription
        }
        #expect(descriptions.map { $0.map { Array($0.utf8) } } == [Array(composed.utf8), Array(decomposed.utf8)])
    }

    @Test func derivesWhatTheNameGives() {
        var attributes = AttributeSet()
        attributes.displayName = "Quarterly report.pdf"
        attributes.title = "Quarterly report"
        attributes.keywords = ["quarterly", "report", "pdf", "document"]
        let stored = StoredText(attributes)
        #expect(stored.title == nil)
        #expect(stored.keywords == "document")
        #expect(stored.derived == StoredText.derivedTitle | StoredText.derivedKeywords)
    }

    @Test func everyAttributeRoundTrips() throws {
        let fixture = try TemporaryIndex()
        let index = fixture.index
        var custom = file("docs/Notes 2024.md", description: nil, type: nil, title: "My notes", extraKeywords: [])
        custom.attributeSet.keywords = ["zeta", "notes"]
        let items = [file("docs/Quarterly report.pdf", description: "PDF document, version 1.4", type: "application/pdf"),
                     file("docs/README"), custom,
                     SearchableItem(uniqueIdentifier: ItemIdentifier("bare"), domainIdentifier: "files",
                                    attributeSet: AttributeSet())]
        try index.indexItems(items)
        for item in items {
            let read = try #require(try index.item(item.uniqueIdentifier, domain: "files"))
            #expect(read.item == item)
        }
    }

    @Test func queriesSeeTypeDescriptionTitleAndKeywords() throws {
        let fixture = try TemporaryIndex()
        let index = fixture.index
        try index.indexItems([
            file("Quarterly report.pdf", description: "PDF document, version 1.4", type: "application/pdf",
                 extraKeywords: ["document"]),
            file("holiday.png", description: "PNG image data, 640 x 480", type: "image/png", title: "Beach",
                 extraKeywords: ["png", "image"]),
            file("notes.txt"),
        ])
        func names(_ query: String) throws -> [String] {
            try index.query(query).compactMap(\.item.attributeSet.displayName).sorted()
        }
        #expect(try names("contentType == 'image/png'") == ["holiday.png"])
        #expect(try names(#"contentTypeTree == "image""#) == ["holiday.png"])
        #expect(try names(#"contentType != "image/png""#) == ["Quarterly report.pdf", "notes.txt"])
        #expect(try names(#"contentDescription == "*version*""#) == ["Quarterly report.pdf"])
        #expect(try names(#"contentDescription == "png image*"c"#) == ["holiday.png"])
        #expect(try names(#"title == "quarterly*"c"#) == ["Quarterly report.pdf"])
        #expect(try names(#"title == "report"cdw"#) == ["Quarterly report.pdf"])
        #expect(try names(#"title == "beach"cdw"#) == ["holiday.png"])
        #expect(try names(#"title == "holiday"cdw"#) == [])
        #expect(try names(#"title == "pdf"cdw"#) == [])
        #expect(try names(#"keywords == "report""#) == ["Quarterly report.pdf"])
        #expect(try names(#"keywords == "image""#) == ["holiday.png"])
        #expect(try names(#"keywords == "holiday"cdw"#) == ["holiday.png"])
        #expect(try names(#"* == "ascii"cd"#) == ["notes.txt"])
        #expect(try names(#"keywords == "*uart*"c"#) == ["Quarterly report.pdf"])
        #expect(try names(#"keywords == "QUART*"c"#) == ["Quarterly report.pdf"])
        #expect(try names(#"keywords == "QUART*""#) == [])
        #expect(try names(#"keywords == "*olid*"cd"#) == ["holiday.png"])
        #expect(try names(#"keywords == "*ocum*"c"#) == ["Quarterly report.pdf"])
        #expect(try names(#"keywords != "ascii""#) == ["Quarterly report.pdf", "holiday.png"])
        #expect(try names(#"keywords > "quarterly""#) == ["Quarterly report.pdf", "notes.txt"])
        #expect(try names(#"* == "quarterly"cdw"#) == ["Quarterly report.pdf"])
        #expect(try index.search(words: ["beach"]).map(\.item.attributeSet.displayName) == ["holiday.png"])
    }

    @Test func queriesRebuildDerivedTitlesAsReadingDoes() throws {
        let fixture = try TemporaryIndex()
        let index = fixture.index
        let names = ["a.b.pdf", ".profile", "noext", "..", "a.", "é.txt", "x.\u{301}y.md", "日本.語.txt", "a..b", "d.tar.gz",
                     "Résumé Brûlée.odt"]
        try index.indexItems(names.map { file($0) })
        #expect(try index.query(#"keywords == "*resu*"cd"#).compactMap(\.item.attributeSet.displayName)
                == ["Résumé Brûlée.odt"])
        for name in names {
            let title = fileTitle(name)
            let stored = try #require(try index.item(ItemIdentifier(name), domain: "files"))
            #expect(stored.item.attributeSet.title == title)
            let escaped = title.replacingOccurrences(of: "'", with: "\\'")
            let found = try index.query("title == '\(escaped)'").compactMap(\.item.attributeSet.displayName)
            #expect(found == [name], "\(name) → \(title)")
        }
    }

    @Test func renamingRederivesTitleAndKeywords() throws {
        let fixture = try TemporaryIndex()
        let index = fixture.index
        try index.indexItems([file("old name.txt")])
        var batch = IndexBatch()
        batch.move(ItemIdentifier("old name.txt"), to: ItemIdentifier("new name.txt"), domain: "files",
                   rename: IndexBatch.Rename(displayName: "new name.txt", title: .init(old: "old name", new: "new name"),
                                             nameKeywordsFollow: true))
        try index.apply(batch)
        let read = try #require(try index.item(ItemIdentifier("new name.txt"), domain: "files"))
        #expect(read.item.attributeSet.title == "new name")
        #expect(read.item.attributeSet.keywords == ["new", "name", "txt", "ascii"])
        #expect(try index.query(#"title == "new name""#).count == 1)
    }

    @Test func contentKindsAreSharedAndForgottenWithTheirLastItem() throws {
        let fixture = try TemporaryIndex()
        let index = fixture.index
        func kindCount() throws -> Int {
            try index.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM content_kind") ?? 0 }
        }
        try index.indexItems([file("a.txt"), file("b.txt"), file("c.png", description: "PNG", type: "image/png")])
        #expect(try kindCount() == 2)
        try index.indexItems([SearchableItem(uniqueIdentifier: ItemIdentifier("c"), domainIdentifier: "other",
                                             attributeSet: AttributeSet(contentType: "image/png"))])
        #expect(try kindCount() == 3)
        try index.deleteAllItems(inDomains: ["files"])
        #expect(try kindCount() == 1)
        try index.deleteAllItems()
        #expect(try kindCount() == 0)
    }

    /// A kind no item uses any more goes with the batch that removed its last item, or, when an
    /// item changed away from it, when its domain is next marked up to date (after a scan).
    @Test func kindsLeftBehindAreForgotten() throws {
        let fixture = try TemporaryIndex()
        let index = fixture.index
        func kinds() throws -> Set<String> {
            try index.read { db in Set(try String.fetchAll(db, sql: "SELECT contentDescription FROM content_kind")) }
        }
        try index.indexItems([file("a.png", description: "PNG image data, 10 x 10"),
                              file("b.png", description: "PNG image data, 20 x 20")])
        try index.deleteItems(withIdentifiers: [ItemIdentifier("b.png")], domain: "files")
        #expect(try kinds() == ["PNG image data, 10 x 10"])
        try index.indexItems([file("a.png", description: "PNG image data, 30 x 30")])
        try index.markUpdated(domain: "files")
        #expect(try kinds() == ["PNG image data, 30 x 30"])
        var batch = IndexBatch()
        batch.upsert(file("c.png", description: "PNG image data, 40 x 40"))
        batch.move(ItemIdentifier("c.png"), to: ItemIdentifier("a.png"), domain: "files")
        try index.apply(batch)
        #expect(try kinds() == ["PNG image data, 40 x 40"])
    }

    @Test func contentKindDigestsTellValuesApart() {
        let kinds = [ContentKind(type: nil, description: nil, keywords: nil),
                     ContentKind(type: "", description: nil, keywords: nil),
                     ContentKind(type: nil, description: "", keywords: nil),
                     ContentKind(type: "ab", description: nil, keywords: nil),
                     ContentKind(type: "a", description: "b", keywords: nil),
                     ContentKind(type: "text/plain", description: "ASCII text", keywords: "ascii")]
        #expect(Set(kinds.map(\.digest)).count == kinds.count)
        // Stable across processes: not Swift's seeded hashing.
        #expect(ContentKind(type: "text/plain", description: nil, keywords: nil).digest
                == ContentKind(type: "text/plain", description: nil, keywords: nil).digest)
    }

    @Test func upgradesAVersion2Index() throws {
        let fixture = try TemporaryIndex()
        let path = fixture.folder + "/v2.sqlite"
        try writeOlderIndex(at: path, upTo: "v2-query", """
            INSERT INTO domain(id, name) VALUES (1, 'files');
            INSERT INTO item(id, domainId, identifier, displayName, title, contentType, contentDescription,
                keywords, size, modificationDate, changeStamp)
            VALUES (7, 1, CAST('docs/Quarterly report.pdf' AS BLOB), 'Quarterly report.pdf', 'Quarterly report',
                'application/pdf', 'PDF document, version 1.4', 'quarterly' || char(31) || 'report' || char(31) || 'pdf',
                10, 1700000000, x'0102'),
                (8, 1, CAST('holiday.png' AS BLOB), 'holiday.png', 'Beach', 'image/png', 'PNG image data',
                'png' || char(31) || 'image', 20, 1700000001, NULL);
            INSERT INTO thumbnail(itemId, format, width, height, bytes) VALUES (8, 'jpeg', 2, 1, x'FFD8');
            """)

        // Readers never migrate: they say how to upgrade.
        #expect(throws: SearchlightError.self) { _ = try SearchableIndex(path: path, readOnly: true) }
        let index = try SearchableIndex(path: path)
        let freePages = try index.read { try Int.fetchOne($0, sql: "PRAGMA freelist_count") }
        #expect(freePages == 0)
        let report = try #require(try index.item(ItemIdentifier("docs/Quarterly report.pdf"), domain: "files"))
        #expect(report.item.attributeSet.title == "Quarterly report")
        #expect(report.item.attributeSet.keywords == ["quarterly", "report", "pdf"])
        #expect(report.item.attributeSet.contentType == "application/pdf")
        #expect(report.item.attributeSet.contentDescription == "PDF document, version 1.4")
        #expect(report.item.changeStamp == [1, 2])
        let holiday = try #require(try index.item(ItemIdentifier("holiday.png"), domain: "files"))
        #expect(holiday.item.attributeSet.title == "Beach")
        #expect(holiday.item.attributeSet.keywords == ["png", "image"])
        #expect(holiday.item.attributeSet.thumbnail?.bytes == [0xFF, 0xD8])
        #expect(try index.search(words: ["quart"]).count == 1)
        #expect(try index.search(words: ["beach"]).count == 1)
        #expect(try index.query("contentType == 'image/png'").count == 1)
        #expect(try index.query(#"keywords == "image""#).count == 1)
        // Writes after the upgrade keep the full-text index in step.
        try index.deleteItems(withIdentifiers: [ItemIdentifier("holiday.png")], domain: "files")
        #expect(try index.search(words: ["beach"]).isEmpty)
    }
}
