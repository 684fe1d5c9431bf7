import Foundation
import SearchlightTestSupport
import Testing
@testable import Searchlight

/// A fresh index in a temporary folder, removed afterwards.
final class TemporaryIndex {
    let folder: String
    let index: SearchableIndex

    init() throws {
        var template = Array((FileManager.default.temporaryDirectory.path + "/searchlight-index-XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        folder = String(cString: created!)
        index = try SearchableIndex(path: folder + "/sub/index.sqlite")
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }
}

/// An item for these tests. Most of them index file-like items, whose identifiers are paths
/// (their folders are words of the item); `identifierIsPath: false` makes an opaque one.
func note(_ id: String, domain: String = "notes", name: String? = nil, title: String? = nil,
          keywords: [String] = [], modified: Double = 0, expires: Date? = nil,
          identifierIsPath: Bool = true) -> SearchableItem {
    var attributes = AttributeSet(contentType: "text/plain")
    attributes.displayName = name ?? String(id.split(separator: "/").last ?? "")
    attributes.title = title
    attributes.keywords = keywords
    attributes.contentModificationDate = Date(timeIntervalSince1970: modified)
    return SearchableItem(uniqueIdentifier: ItemIdentifier(id), domainIdentifier: domain,
                          attributeSet: attributes, expirationDate: expires, identifierIsPath: identifierIsPath)
}

@Suite("Searchable index", .ownThread)
struct SearchableIndexTests {
    func ids(_ items: [IndexedItem]) -> [String] { items.map { $0.item.uniqueIdentifier.lossyString } }

    @Test func createsTheIndexWithOwnerOnlyPermissions() throws {
        let fixture = try TemporaryIndex()
        let file = try FileManager.default.attributesOfItem(atPath: fixture.index.path)
        let folder = try FileManager.default.attributesOfItem(atPath: fixture.folder + "/sub")
        #expect((file[.posixPermissions] as? Int) == 0o600)
        #expect((folder[.posixPermissions] as? Int) == 0o700)
    }

    @Test func readOnlyOpenOfAMissingIndexFails() {
        #expect(throws: SearchlightError.self) {
            _ = try SearchableIndex(path: "/nonexistent/searchlight/index.sqlite", readOnly: true)
        }
    }

    @Test func upsertReplacesEveryAttribute() throws {
        let fixture = try TemporaryIndex()
        defer { withExtendedLifetime(fixture) {} }
        let index = fixture.index
        try index.indexItems([note("a.txt", title: "Old title", keywords: ["alpha"])])
        try index.indexItems([note("a.txt", title: "New title", keywords: ["beta"])])
        var all: [IndexedItem] = []
        try index.forEachItem { all.append($0); return true }
        #expect(all.count == 1)
        #expect(all.first?.item.attributeSet.title == "New title")
        #expect(all.first?.item.attributeSet.keywords == ["beta"])
        // The full-text index forgot the old words and knows the new ones.
        #expect(try index.search(words: ["alpha"]).isEmpty)
        #expect(ids(try index.search(words: ["beta"])) == ["a.txt"])
        #expect(ids(try index.search(words: ["new"])) == ["a.txt"])
        #expect(try index.search(words: ["old"]).isEmpty)
    }

    @Test func deletesByIdentifierDomainAndAll() throws {
        let fixture = try TemporaryIndex()
        defer { withExtendedLifetime(fixture) {} }
        let index = fixture.index
        try index.indexItems([note("a"), note("b"), note("c", domain: "mail"), note("d", domain: "mail")])
        try index.deleteItems(withIdentifiers: ["a"], domain: "notes")
        #expect(try index.item("a", domain: "notes") == nil)
        #expect(try index.item("b", domain: "notes") != nil)
        #expect(try index.deleteAllItems(inDomains: ["mail"]) == 2)
        #expect(try index.domains() == ["notes"])
        #expect(try index.deleteAllItems() == 1)
        #expect(try index.statistics().domains.isEmpty)
        #expect(try index.search(words: ["b"]).isEmpty)
    }

    @Test func expiredItemsDisappear() throws {
        let fixture = try TemporaryIndex()
        defer { withExtendedLifetime(fixture) {} }
        let index = fixture.index
        try index.indexItems([
            note("gone", expires: Date(timeIntervalSinceNow: -60)),
            note("soon", expires: Date(timeIntervalSinceNow: 3600)),
            note("kept"),
        ])
        #expect(try index.item("gone", domain: "notes") == nil)
        #expect(try index.item("soon", domain: "notes") != nil)
        #expect(ids(try index.search(words: ["gone"])).isEmpty)
        #expect(try index.statistics().domains.first?.itemCount == 2)
    }

    @Test func treesAreDeletedAndMovedWithTheirDescendants() throws {
        let fixture = try TemporaryIndex()
        defer { withExtendedLifetime(fixture) {} }
        let index = fixture.index
        try index.indexItems([note("dir/a.txt"), note("dir/sub/b.txt"), note("dir-x.txt"), note("dir0.txt"), note("other/c.txt")])
        var batch = IndexBatch()
        batch.move("dir", to: "renamed/inner", domain: "notes")
        try index.apply(batch)
        var all: [String] = []
        try index.forEachItem { all.append($0.item.uniqueIdentifier.lossyString); return true }
        #expect(all == ["dir-x.txt", "dir0.txt", "other/c.txt", "renamed/inner/a.txt", "renamed/inner/sub/b.txt"])
        // Folder words follow the move.
        #expect(ids(try index.search(words: ["inner"])) == ["renamed/inner/a.txt", "renamed/inner/sub/b.txt"])
        #expect(try index.search(words: ["dir", "a"]).isEmpty)
        batch = IndexBatch()
        batch.deleteTree("renamed", domain: "notes")
        try index.apply(batch)
        all = []
        try index.forEachItem { all.append($0.item.uniqueIdentifier.lossyString); return true }
        #expect(all == ["dir-x.txt", "dir0.txt", "other/c.txt"])
    }

    /// An app's records are not files: a note re-keyed from `note-1` to `note-7` keeps its
    /// display name, title and keywords (the library derives nothing from an identifier);
    /// a move that says so renames it.
    @Test func aMoveKeepsTheAttributesOfANote() throws {
        let fixture = try TemporaryIndex()
        defer { withExtendedLifetime(fixture) {} }
        let index = fixture.index
        try index.indexItems([note("note-1", name: "Shopping list", title: "Shopping list",
                                   keywords: ["groceries", "weekend"])])
        var batch = IndexBatch()
        batch.move("note-1", to: "note-7", domain: "notes")
        try index.apply(batch)
        #expect(try index.item("note-1", domain: "notes") == nil)
        let moved = try #require(try index.item("note-7", domain: "notes")).item.attributeSet
        #expect(moved.displayName == "Shopping list")
        #expect(moved.title == "Shopping list")
        #expect(moved.keywords == ["groceries", "weekend"])
        #expect(ids(try index.search(words: ["shopping"])) == ["note-7"])
        batch = IndexBatch()
        batch.move("note-7", to: "note-7", domain: "notes", rename: IndexBatch.Rename(displayName: "Market list"))
        try index.apply(batch)
        let renamed = try #require(try index.item("note-7", domain: "notes")).item.attributeSet
        #expect(renamed.displayName == "Market list")
        #expect(renamed.title == "Shopping list")
        #expect(ids(try index.search(words: ["market"])) == ["note-7"])
    }

    @Test func nonUTF8IdentifiersAreKeptExactly() throws {
        let fixture = try TemporaryIndex()
        defer { withExtendedLifetime(fixture) {} }
        let index = fixture.index
        let latin1 = ItemIdentifier(bytes: [0x63, 0x61, 0x66, 0xE9, 0x2E, 0x74, 0x78, 0x74])  // "café.txt" in Latin-1
        var item = note("x")
        item.uniqueIdentifier = latin1
        item.attributeSet.displayName = latin1.lossyString
        try index.indexItems([item, note("caf\u{FFFD}.txt")])
        #expect(try index.item(latin1, domain: "notes")?.item.uniqueIdentifier == latin1)
        #expect(try index.statistics().domains.first?.itemCount == 2)
    }
}
