import Foundation
import GRDB
import Testing
@testable import Searchlight

/// The library takes no words from an identifier unless its caller says the identifier is a
/// path (`SearchableItem.identifierIsPath`), and derives a title from a name by no file rule.
@Suite("Identifiers and derived text", .ownThread)
struct IdentifierPathTests {
    /// A record of an app like Examples/NotesIndex, whose identifier merely looks like a path.
    static func record(_ id: String, name: String, text: String? = nil) -> SearchableItem {
        var attributes = AttributeSet(contentType: "text/markdown")
        attributes.displayName = name
        attributes.title = name
        attributes.keywords = ["groceries"]
        attributes.textContent = text
        return SearchableItem(uniqueIdentifier: ItemIdentifier(id), domainIdentifier: "notes", attributeSet: attributes)
    }

    /// A file, whose identifier is its path below its root.
    static func file(_ path: String, title: String? = nil, text: String? = nil) -> SearchableItem {
        let name = String(path.split(separator: "/").last!)
        var attributes = AttributeSet(contentType: "application/pdf")
        attributes.displayName = name
        attributes.title = title ?? String(name.split(separator: ".").first!)
        attributes.textContent = text
        return SearchableItem(uniqueIdentifier: ItemIdentifier(path), domainIdentifier: "files", attributeSet: attributes,
                              identifierIsPath: true)
    }

    @Test(arguments: [false, true])
    func aRecordGetsNoFolderWordsFromItsIdentifier(withText: Bool) throws {
        let fixture = try TemporaryIndex()
        let index = fixture.index
        let text = withText ? "bread and milk" : nil
        try index.indexItems([Self.record("inbox/2024/note-7", name: "Shopping list", text: text),
                              Self.file("inbox/2024/receipt.pdf", text: text)])
        for scope in [SearchScope.all, .names] {
            #expect(try index.searchResults(words: ["inbox"], scope: scope).map(\.item.item.uniqueIdentifier)
                    == ["inbox/2024/receipt.pdf"])
            #expect(try index.searchResults(words: ["inbox"], scope: scope).map(\.matchedIn) == [.folders])
            #expect(try index.countMatches(words: ["2024"], scope: scope) == 1)
            #expect(try index.searchIdentifiers(words: ["shopping", "inbox"], scope: scope).isEmpty)
            #expect(try index.searchIdentifiers(words: ["shopping"], scope: scope) == ["inbox/2024/note-7"])
        }
        // The first page of a word every item has whole in its name takes another path.
        #expect(try index.searchIdentifiers(words: ["inbox"], limit: 1) == ["inbox/2024/receipt.pdf"])
        #expect(try index.item("inbox/2024/note-7", domain: "notes")?.item.identifierIsPath == false)
        #expect(try index.item("inbox/2024/receipt.pdf", domain: "files")?.item.identifierIsPath == true)
    }

    /// Writing an item again with another `identifierIsPath` moves its words in the full-text
    /// index, leaving none behind.
    @Test func anItemWrittenAgainAsARecordLosesItsFolderWords() throws {
        let fixture = try TemporaryIndex()
        let index = fixture.index
        var item = Self.file("archive/2023/receipt.pdf")
        try index.indexItems([item])
        #expect(try index.searchIdentifiers(words: ["archive"]) == ["archive/2023/receipt.pdf"])
        item.identifierIsPath = false
        try index.indexItems([item])
        #expect(try index.searchIdentifiers(words: ["archive"]).isEmpty)
        #expect(try index.searchIdentifiers(words: ["receipt"]) == ["archive/2023/receipt.pdf"])
        try index.deleteAllItems()
        #expect(try Self.wordRows(["archive", "receipt"], in: index).isEmpty)
    }

    /// The rows of the full-text index of names that hold each word: none once the items that
    /// had them are gone, unless a delete left words behind.
    static func wordRows(_ words: [String], in index: SearchableIndex) throws -> [Int64] {
        try index.read { db in
            try words.flatMap { word in
                try Int64.fetchAll(db, sql: "SELECT rowid FROM item_words WHERE item_words MATCH ?", arguments: [word])
            }
        }
    }

    /// A title is stored as a length only when it is a start of the display name that ends
    /// where one of the name's words ends: its words are then the name's.
    @Test func aTitleIsDerivedOnlyWhereAWordOfTheNameEnds() throws {
        func stored(_ title: String, name: String) -> StoredText {
            var attributes = AttributeSet()
            attributes.displayName = name
            attributes.title = title
            return StoredText(attributes)
        }
        #expect(stored("Report", name: "Report.pdf").title == nil)
        #expect(stored("Report final", name: "Report final 2024.pdf").title == nil)
        #expect(stored("Shopping list", name: "Shopping list").title == nil)
        #expect(stored("Rep", name: "Report.pdf").title == "Rep")
        #expect(stored("Report", name: "Report2024.pdf").title == "Report")
        #expect(stored("Caf", name: "Café.txt").title == "Caf")
        #expect(stored("", name: "x").title == "")

        let fixture = try TemporaryIndex()
        let index = fixture.index
        try index.indexItems([Self.file("a/Report.pdf", title: "Rep"), Self.file("b/Report.pdf"),
                              Self.file("c/Report2024.pdf", title: "Report")])
        func paths(_ query: String) throws -> [String] {
            try index.query(query).map(\.item.uniqueIdentifier.description).sorted()
        }
        #expect(try paths(#"title == "rep"cdw"#) == ["a/Report.pdf"])
        #expect(try paths(#"title == "report"cdw"#) == ["b/Report.pdf", "c/Report2024.pdf"])
        #expect(try index.item("a/Report.pdf", domain: "files")?.item.attributeSet.title == "Rep")
    }

    /// A rename carries the caller's rule: a title the old name gave follows the new name, a
    /// document's own title stays, and keywords that started with the name's words follow.
    @Test func aRenameFollowsTheCallersRule() throws {
        let fixture = try TemporaryIndex()
        let index = fixture.index
        var own = Self.file("docs/Draft.pdf", title: "Annual report")
        own.attributeSet.keywords = ["draft", "pdf", "finance"]
        var derived = Self.file("docs/Budget.pdf")
        derived.attributeSet.keywords = ["budget", "pdf", "finance"]
        try index.indexItems([own, derived])
        var batch = IndexBatch()
        for (from, to) in [("Draft", "Final"), ("Budget", "Plan")] {
            batch.move(ItemIdentifier("docs/\(from).pdf"), to: ItemIdentifier("docs/\(to).pdf"), domain: "files",
                       rename: IndexBatch.Rename(displayName: "\(to).pdf", title: .init(old: from, new: to),
                                                 nameKeywordsFollow: true))
        }
        try index.apply(batch)
        let final = try #require(try index.item("docs/Final.pdf", domain: "files")).item
        #expect(final.attributeSet.title == "Annual report")
        #expect(final.attributeSet.keywords == ["final", "pdf", "finance"])
        #expect(final.identifierIsPath)
        let plan = try #require(try index.item("docs/Plan.pdf", domain: "files")).item.attributeSet
        #expect(plan.title == "Plan")
        #expect(plan.keywords == ["plan", "pdf", "finance"])
        #expect(try index.searchIdentifiers(words: ["budget"]).isEmpty)
        #expect(try index.query(#"title == "Plan""#).count == 1)
    }

    /// An index written by v4 (every identifier taken as a path, a title derived the v3 way)
    /// is upgraded in place: its items keep their folder words and titles, and later writes
    /// keep the full-text index exact.
    @Test func anIndexWrittenBeforeV5IsUpgraded() throws {
        let fixture = try TemporaryIndex()
        let path = fixture.folder + "/v4.sqlite"
        try writeOlderIndex(at: path, upTo: "v4-content", """
            INSERT INTO domain(id, name) VALUES (1, 'files');
            INSERT INTO content_kind(id, contentType, contentDescription, keywords, digest)
                VALUES (1, 'application/pdf', 'PDF document', 'finance', 0);
            INSERT INTO item(id, domainId, identifier, displayName, title, kindId, derived, modificationDate)
                VALUES (7, 1, CAST('reports/2024/Quarterly report.final.pdf' AS BLOB), 'Quarterly report.final.pdf',
                        NULL, 1, 3, 1700000000),
                       (8, 1, CAST('reports/holiday.png' AS BLOB), 'holiday.png', 'Beach', 1, 0, 1700000001);
            """)
        #expect(throws: SearchlightError.self) { _ = try SearchableIndex(path: path, readOnly: true) }

        let index = try SearchableIndex(path: path)
        let report = try #require(try index.item("reports/2024/Quarterly report.final.pdf", domain: "files")).item
        #expect(report.attributeSet.title == "Quarterly report.final")
        #expect(report.attributeSet.keywords == ["quarterly", "report", "final", "pdf", "finance"])
        #expect(report.identifierIsPath)
        #expect(try index.item("reports/holiday.png", domain: "files")?.item.attributeSet.title == "Beach")
        #expect(try index.searchResults(words: ["reports"]).map(\.matchedIn) == [.folders, .folders])
        #expect(try index.query(#"title == "Quarterly report.final""#).count == 1)
        _ = try SearchableIndex(path: path, readOnly: true)

        try index.deleteAllItems()
        #expect(try Self.wordRows(["reports", "quarterly", "holiday", "beach"], in: index).isEmpty)
    }
}
