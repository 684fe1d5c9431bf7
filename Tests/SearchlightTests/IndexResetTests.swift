import Foundation
import SearchlightTestSupport
import Testing
@testable import Searchlight

/// Records what a delegate is told, as an application would re-index.
final class ReindexRecorder: SearchableIndexDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var resets: [IndexReset] = []

    var told: [IndexReset] { lock.withLock { resets } }

    func reindexAllSearchableItems(in index: SearchableIndex, after reset: IndexReset) {
        lock.withLock { resets.append(reset) }
        // What an application does: index its items again.
        try? index.indexItems([note("again.txt")])
    }
}

@Suite("A damaged index: one error, a reset, a re-index request", .ownThread)
struct IndexResetTests {
    func folder() -> TemporaryTree { TemporaryTree("index-reset") }

    /// A healthy index with `count` items, closed.
    func makeIndex(at path: String, count: Int = 300) throws {
        let index = try SearchableIndex(path: path)
        try index.indexItems((0..<count).map { note("folder/item \($0).txt", title: "a title of item \($0)") })
    }

    /// Overwrites two pages at 8 KiB with random bytes, as a bad sector would.
    func damagePages(_ path: String) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: 8192)
        var generator = SeededGenerator(seed: 21)
        try handle.write(contentsOf: Data((0..<8192).map { _ in UInt8(truncatingIfNeeded: generator.next()) }))
        try handle.close()
    }

    @Test func aFileThatIsNoDatabaseIsOneDistinctErrorAndTheResetAsksForAReindex() throws {
        let work = folder()
        let path = work.path + "/index.sqlite"
        var generator = SeededGenerator(seed: 7)
        #expect(FileManager.default.createFile(atPath: path, contents: Data((0..<65536).map { _ in UInt8(truncatingIfNeeded: generator.next()) })))
        #expect(throws: SearchlightError.self) { try SearchableIndex(path: path, readOnly: true) }
        do {
            _ = try SearchableIndex(path: path, readOnly: true)
        } catch let error as SearchlightError {
            #expect(error.code == .damagedIndex)
            #expect(error.isDamage && !error.isIndexUnavailable)
        }
        let recorder = ReindexRecorder()
        let (index, reset) = try SearchableIndex.openResettingDamage(path: path, delegate: recorder)
        let made = try #require(reset)
        #expect(recorder.told == [made])
        #expect(made.movedAside.count == 1)
        #expect(made.movedAside[0].hasPrefix(path + ".damaged-20"))
        // The damaged file is kept as it was, for a report.
        #expect(FileManager.default.contents(atPath: made.movedAside[0])?.count == 65536)
        #expect(try index.itemCount(domain: nil) == 1)
        #expect(try index.resetHistory() == [IndexReset(date: Date(timeIntervalSince1970: made.date.timeIntervalSince1970),
                                                        reason: made.reason, movedAside: made.movedAside)])
        // A sound index opens without a reset.
        let (_, none) = try SearchableIndex.openResettingDamage(path: path, verify: true, delegate: recorder)
        #expect(none == nil && recorder.told.count == 1)
    }

    @Test func damagedPagesAreFoundByTheIntegrityCheckAndMovedAside() throws {
        let work = folder()
        let path = work.path + "/index.sqlite"
        try makeIndex(at: path)
        try SearchableIndex(path: path).checkIntegrity()
        try damagePages(path)
        let index = try SearchableIndex(path: path, readOnly: true)
        #expect {
            try index.checkIntegrity()
        } throws: { error in
            (error as? SearchlightError)?.code == .damagedIndex
        }
        let recorder = ReindexRecorder()
        let (fresh, reset) = try SearchableIndex.openResettingDamage(path: path, verify: true, delegate: recorder)
        #expect(reset != nil && recorder.told.count == 1)
        try fresh.checkIntegrity()
        #expect(try fresh.itemCount(domain: nil) == 1)
        #expect(FileManager.default.fileExists(atPath: try #require(reset?.movedAside.first)))
    }

    @Test func anOpenHandleResetsInPlaceKeepingACopy() throws {
        let work = folder()
        let path = work.path + "/index.sqlite"
        let index = try SearchableIndex(path: path)
        try index.indexItems((0..<50).map { note("n\($0).txt") })
        let reader = try SearchableIndex(path: path, readOnly: true)
        let reset = try index.reset(reason: "a test")
        #expect(index.resetCount == 1)
        #expect(try index.itemCount(domain: nil) == 0)
        // Every handle on the file sees the empty index.
        #expect(try reader.itemCount(domain: nil) == 0)
        try index.indexItems([note("after.txt")])
        #expect(try reader.itemCount(domain: nil) == 1)
        #expect(try index.resetHistory().map(\.reason) == ["a test"])
        let copy = try SearchableIndex(path: try #require(reset.movedAside.first), readOnly: true)
        #expect(try copy.itemCount(domain: nil) == 50)
    }

    @Test func aSchemaOfANewerVersionIsDamageForThisOne() throws {
        let work = folder()
        let path = work.path + "/index.sqlite"
        try makeIndex(at: path, count: 3)
        let result = try ChildProcess.run(["sqlite3", path, "INSERT INTO grdb_migrations VALUES ('v99-from-the-future')"])
        #expect(result.status == 0)
        for readOnly in [true, false] {
            #expect {
                _ = try SearchableIndex(path: path, readOnly: readOnly)
            } throws: { error in
                (error as? SearchlightError)?.code == .damagedIndex && "\(error)".contains("newer Searchlight")
            }
        }
        let (index, reset) = try SearchableIndex.openResettingDamage(path: path)
        #expect(reset != nil)
        #expect(try index.itemCount(domain: nil) == 0)
    }

    @Test func faultsOfTheStorageAreToldFromBugsAndDamage() throws {
        let work = folder()
        let path = work.path + "/index.sqlite"
        try makeIndex(at: path, count: 1)
        // A write through a read-only handle: SQLite's SQLITE_READONLY, as a read-only folder gives.
        let readOnly = try SearchableIndex(path: path, readOnly: true)
        do {
            try readOnly.indexItems([note("x.txt")])
            Issue.record("a read-only handle wrote")
        } catch let error as SearchlightError {
            #expect(error.isIndexUnavailable && !error.isDamage)
            #expect(error.faultSummary == "index read-only")
        }
        let full = SearchlightError(.database, "cannot write", cause: .system(.noSpace))
        #expect(full.isIndexUnavailable && full.faultSummary == "disk full")
        #expect(SearchlightError(.indexUnavailable, "the server went away").isIndexUnavailable)
        #expect(!SearchlightError(.invalidQuery, "bad").isIndexUnavailable)
        #expect(!SearchlightError(.database, "a bug").isIndexUnavailable)
    }

    @Test func aRemovedIndexFileIsSeenAndOpenedAgain() throws {
        let work = folder()
        let path = work.path + "/sub/index.sqlite"
        let index = try SearchableIndex(path: path)
        try index.indexItems([note("a.txt")])
        #expect(!index.isFileReplaced)
        try FileManager.default.removeItem(atPath: work.path + "/sub")
        #expect(index.isFileReplaced)
        try index.reopen()
        #expect(!index.isFileReplaced && index.resetCount == 1)
        try index.indexItems([note("b.txt")])
        #expect(try SearchableIndex(path: path, readOnly: true).itemCount(domain: nil) == 1)
    }
}
