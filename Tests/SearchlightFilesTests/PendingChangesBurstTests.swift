import Searchlight
import SearchlightTestSupport
import Testing
@testable import SearchlightFiles

/// A window that removes a large tree, from real inotify events on real folders: a delete per
/// file, then the folder's. Each delete drops the work pending below its path; looking through
/// every pending path for each of thousands of file deletes made such a window quadratic (a
/// randomized watch test's window that removed a folder of 6 000 files took minutes of CPU in
/// a debug build). The work below a path is looked for only when there is some.
@Suite("Pending changes: bursts of deletes", .ownThread)
struct PendingChangesBurstTests {
    static let files = 2000

    /// Reads every queued event: the kernel queues a change's event before its call returns.
    static func drain(_ inotify: Inotify) throws -> [InotifyEvent] {
        var events: [InotifyEvent] = []
        while true {
            let batch = try inotify.readEvents()
            if batch.isEmpty { return events }
            events += batch
        }
    }

    @Test func removingATreeOfThousandsOfFilesLooksThroughThePendingWorkOnce() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let inotify = try Inotify()
        try makeDirectory(directory("big"))
        var table = WatchTable()
        let rootWatch = try inotify.addWatch(pathBytes: directory.path)
        _ = table.insert(rootWatch, path: [])
        _ = table.insert(try inotify.addWatch(pathBytes: directory("big")), path: Array("big".utf8))
        for index in 0..<Self.files { try writeFile(directory("big/file \(index).txt")) }
        try writeFile(directory("kept.txt"))
        removeTree(directory("big"))
        let events = try Self.drain(inotify)
        #expect(events.filter { $0.mask.contains(.delete) }.count == Self.files + 1)

        var changes = PendingChanges(domain: "d", rootWatch: rootWatch, excluded: [])
        for event in events { changes.add(event, table: &table) }
        #expect(changes.batch.changes.count == 1)
        #expect(changes.refresh == ["kept.txt"])
        #expect(changes.crawl.isEmpty)
        #expect(table.watch(forPath: Array("big".utf8)) == nil)
        // The folder's delete looked through the pending work; none of its files' deletes did.
        #expect(changes.pendingScans == 1)
    }

    @Test func aFolderMovedThenRemovedDropsItsReKeyedWorkAndLeavesTheRest() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let inotify = try Inotify()
        try makeDirectory(directory("a"))
        try makeDirectory(directory("a/inner"))
        var table = WatchTable()
        let rootWatch = try inotify.addWatch(pathBytes: directory.path)
        _ = table.insert(rootWatch, path: [])
        _ = table.insert(try inotify.addWatch(pathBytes: directory("a")), path: Array("a".utf8))
        _ = table.insert(try inotify.addWatch(pathBytes: directory("a/inner")), path: Array("a/inner".utf8))
        for index in 0..<50 { try writeFile(directory("a/inner/f\(index)")) }
        try writeFile(directory("a/top.txt"))
        try renameItem(directory("a"), directory("b"))
        // Written and removed after the move, under the new name: still to be looked at (gone).
        try writeFile(directory("b/top.txt"), "again")
        try removeFile(directory("b/top.txt"))
        removeTree(directory("b/inner"))
        let events = try Self.drain(inotify)

        var changes = PendingChanges(domain: "d", rootWatch: rootWatch, excluded: [])
        for event in events { changes.add(event, table: &table) }
        #expect(changes.refresh == ["b/top.txt"])
        #expect(changes.crawl == ["b"])
        // The move re-keyed the pending work once, removing `b/inner` looked through it once,
        // no file's delete did.
        #expect(changes.pendingScans == 2)
    }
}
