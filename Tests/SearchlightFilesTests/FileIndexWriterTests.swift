import Foundation
import GRDB
import Searchlight
import SearchlightTestSupport
import Testing
@testable import SearchlightFiles

/// The SQLite index's file-indexer bookkeeping (`SearchableIndex+FileIndex.swift`): change
/// stamps, failures and domain states, kept in the library's schema and read only here.
@Suite("File index store (SQLite)", .ownThread)
struct FileIndexWriterTests {
    private static func file(_ name: String, stamp: [UInt8]? = nil, failure: String? = nil) -> SearchableItem {
        var attributes = AttributeSet(contentType: "text/plain")
        attributes.displayName = name
        return SearchableItem(uniqueIdentifier: ItemIdentifier(name), domainIdentifier: "files",
                              attributeSet: attributes, changeStamp: stamp, failure: failure)
    }

    private struct Refused: Error {}

    @Test func changeStampsPageInByteOrder() throws {
        let work = TemporaryTree("stamps")
        let index = try SearchableIndex(path: work.path + "/index.sqlite")
        var items = (0..<25).map { Self.file(String(format: "f%02d", $0)) }
        items[3].changeStamp = [1, 2, 3]
        try index.indexItems(items)
        let first = try index.changeStamps(domain: "files", after: nil, limit: 10)
        #expect(first.count == 10)
        #expect(first[3].changeStamp == [1, 2, 3])
        let next = try index.changeStamps(domain: "files", after: first.last!.identifier, limit: 100)
        #expect(next.map(\.identifier.lossyString) == (10..<25).map { String(format: "f%02d", $0) })
        let bounded = try index.changeStamps(domain: "files", after: nil, before: "f02", limit: 100)
        #expect(bounded.map(\.identifier.lossyString) == ["f00", "f01"])
        #expect(try index.changeStamp(of: "f03", domain: "files") == .some([1, 2, 3]))
        #expect(try index.changeStamp(of: "f04", domain: "files") == .some(nil))
        #expect(try index.changeStamp(of: "missing", domain: "files") == nil)
        let some = try index.changeStamps(of: ["f03", "f04", "missing"], domain: "files")
        #expect(Set(some.keys) == ["f03", "f04"])
        #expect(try index.changeStamps(domain: "elsewhere", after: nil, limit: 10).isEmpty)
    }

    @Test func failuresAreListedByDomainThenIdentifier() throws {
        let work = TemporaryTree("failures")
        let index = try SearchableIndex(path: work.path + "/index.sqlite")
        try index.indexItems([Self.file("b.pdf", failure: "encrypted"), Self.file("a.png", failure: "truncated"),
                              Self.file("ok.txt")])
        let failures = try index.failures(limit: 10)
        #expect(failures.map(\.identifier.lossyString) == ["a.png", "b.pdf"])
        #expect(failures.map(\.reason) == ["truncated", "encrypted"])
        #expect(try index.failures(domain: "files", limit: 1).count == 1)
        #expect(try index.failures(domain: "other", limit: 10).isEmpty)
    }

    @Test func domainStatesAreStoredTyped() throws {
        let work = TemporaryTree("states")
        let index = try SearchableIndex(path: work.path + "/index.sqlite")
        #expect(try index.domainState("files") == nil)
        let state = DomainState(root: "/home/ana/Documents")
        try index.setState(state, domain: "files")
        #expect(try index.domainState("files") == state)
        #expect(try index.domainStates() == ["files": state])
        // A state alone (an empty batch) is written, and creates its domain.
        try index.apply(IndexBatch(), states: ["notes": DomainState(root: "/notes")])
        #expect(try index.domainState("notes")?.root == "/notes")
        #expect(try index.domains() == ["files", "notes"])
        // A state this version cannot read is left out, not an error.
        try index.write { db in try db.execute(sql: "UPDATE domain SET state = 'not json' WHERE name = 'notes'") }
        #expect(try index.domainStates() == ["files": state])
    }

    @Test func statesLandWithTheirBatchOrNotAtAll() throws {
        let work = TemporaryTree("atomic")
        let index = try SearchableIndex(path: work.path + "/index.sqlite")
        var batch = IndexBatch()
        batch.upsert(Self.file("a.txt"))
        let state = DomainState(root: "/files")
        try index.apply(batch, states: ["files": state])
        #expect(try index.itemCount(domain: "files") == 1)
        #expect(try index.domainState("files") == state)
        // What runs alongside a batch shares its transaction: when it fails, the batch does not land.
        var second = IndexBatch()
        second.upsert(Self.file("b.txt"))
        #expect(throws: (any Error).self) {
            try index.apply(second, alongside: { _ in throw Refused() })
        }
        #expect(try index.itemCount(domain: "files") == 1)
        #expect(try index.item("b.txt", domain: "files") == nil)
    }

    @Test func anIndexOfOneMachineRecordsNoOrigin() throws {
        let work = TemporaryTree("origin")
        let index = try SearchableIndex(path: work.path + "/index.sqlite")
        #expect(!index.isShared)
        try index.setOrigin(host: "elsewhere.example", root: "/files", domain: "files")
        #expect(try index.domainHosts().isEmpty)
        #expect(index.defaultDomain(forFolder: "/files") == "/files")
        #expect(index.isLocal(domain: "files", hosts: [:]))
    }
}
