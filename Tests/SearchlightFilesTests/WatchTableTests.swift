import SearchlightFiles
import SystemPackage
import SearchlightTestSupport
import Testing

private func wd(_ value: Int32) -> WatchDescriptor { WatchDescriptor(rawValue: value) }
private func p(_ path: String) -> [UInt8] { Array(path.utf8) }

@Suite("WatchTable", .ownThread)
struct WatchTableTests {
    @Test func lookupsBothWaysAndCount() {
        var table = WatchTable()
        #expect(table.isEmpty)
        table.insert(wd(1), path: [])
        table.insert(wd(2), path: p("docs"))
        table.insert(wd(3), path: [0x64, 0xFF, 0x0A])   // not UTF-8, with a newline
        #expect(table.count == 3)
        #expect(table.path(for: wd(1)) == [])
        #expect(table.path(for: wd(3)) == [0x64, 0xFF, 0x0A])
        #expect(table.watch(forPath: p("docs")) == wd(2))
        #expect(table.watch(forPath: []) == wd(1))
        #expect(table.path(for: wd(9)) == nil)
        #expect(table.watch(forPath: p("nope")) == nil)
        // Inserting the same pair again changes nothing.
        #expect(table.insert(wd(2), path: p("docs")) == nil)
        #expect(table.count == 3)
        #expect(table.entries.map(\.path) == [[], p("docs"), [0x64, 0xFF, 0x0A]])
    }

    @Test func ignoredForgetsOnlyThatWatch() {
        var table = WatchTable()
        table.insert(wd(1), path: [])
        table.insert(wd(2), path: p("a"))
        table.insert(wd(3), path: p("a/b"))
        #expect(table.remove(wd(2)) == p("a"))
        #expect(table.path(for: wd(3)) == p("a/b"))
        #expect(table.watch(forPath: p("a")) == nil)
        #expect(table.remove(wd(2)) == nil)
        #expect(table.count == 2)
    }

    @Test func replacedDirectoryKeepsTheNewWatchWhenTheOldOneIsIgnored() {
        var table = WatchTable()
        table.insert(wd(2), path: p("a"))
        // `a` was deleted and made again; the new watch arrives before the old IN_IGNORED.
        #expect(table.insert(wd(5), path: p("a")) == wd(2))
        #expect(table.remove(wd(2)) == nil)
        #expect(table.watch(forPath: p("a")) == wd(5))
        #expect(table.path(for: wd(5)) == p("a"))
        #expect(table.count == 1)
    }

    @Test func movingADirectoryRekeysItsWholeSubtree() {
        var table = WatchTable()
        let paths = ["", "a", "a/b", "a/b/c", "a/d", "ab", "a2", "x", "x/a"]
        for (index, path) in paths.enumerated() { table.insert(wd(Int32(index + 1)), path: p(path)) }

        let displaced = table.moveSubtree(from: p("a"), to: p("x/moved"))
        #expect(displaced.isEmpty)
        #expect(table.count == paths.count)
        #expect(table.entries.map { String(decoding: $0.path, as: UTF8.self) }.sorted()
            == ["", "a2", "ab", "x", "x/a", "x/moved", "x/moved/b", "x/moved/b/c", "x/moved/d"])
        #expect(table.path(for: wd(2)) == p("x/moved"))
        #expect(table.path(for: wd(4)) == p("x/moved/b/c"))
        #expect(table.watch(forPath: p("x/moved/d")) == wd(5))
        #expect(table.watch(forPath: p("a")) == nil)
        #expect(table.watch(forPath: p("a/b")) == nil)
        // Siblings that merely share the prefix stay where they are.
        #expect(table.path(for: wd(6)) == p("ab"))
        #expect(table.path(for: wd(7)) == p("a2"))
    }

    @Test func renameOverAnEmptyDirectoryDisplacesItsWatch() {
        var table = WatchTable()
        table.insert(wd(1), path: p("src"))
        table.insert(wd(2), path: p("src/sub"))
        table.insert(wd(3), path: p("dst"))
        let displaced = table.moveSubtree(from: p("src"), to: p("dst"))
        #expect(displaced == [WatchTable.Entry(watch: wd(3), path: p("dst"))])
        #expect(table.path(for: wd(1)) == p("dst"))
        #expect(table.path(for: wd(2)) == p("dst/sub"))
        #expect(table.path(for: wd(3)) == nil)
        #expect(table.count == 2)
    }

    @Test func movingIntoItsOwnSubtreeNameDoesNotLoseEntries() {
        var table = WatchTable()
        table.insert(wd(1), path: p("a"))
        table.insert(wd(2), path: p("a/a"))
        table.moveSubtree(from: p("a"), to: p("a/a"))
        #expect(table.path(for: wd(1)) == p("a/a"))
        #expect(table.path(for: wd(2)) == p("a/a/a"))
        #expect(table.count == 2)
    }

    @Test func movingTheRootOrOntoItselfDoesNothing() {
        var table = WatchTable()
        table.insert(wd(1), path: [])
        table.insert(wd(2), path: p("a"))
        table.moveSubtree(from: [], to: p("z"))
        table.moveSubtree(from: p("a"), to: p("a"))
        table.moveSubtree(from: p("missing"), to: p("b"))
        #expect(table.entries == [WatchTable.Entry(watch: wd(1), path: []), WatchTable.Entry(watch: wd(2), path: p("a"))])
    }

    @Test func sameWatchUnderANewPathMovesTheSubtree() {
        var table = WatchTable()
        table.insert(wd(2), path: p("old"))
        table.insert(wd(3), path: p("old/child"))
        // inotify_add_watch on the renamed directory returns its existing descriptor.
        table.insert(wd(2), path: p("new"))
        #expect(table.path(for: wd(2)) == p("new"))
        #expect(table.path(for: wd(3)) == p("new/child"))
        #expect(table.watch(forPath: p("old")) == nil)
        #expect(table.count == 2)
    }

    @Test func removingASubtreeReturnsItsWatches() {
        var table = WatchTable()
        for (index, path) in ["", "out", "out/1", "out/1/2", "outside"].enumerated() {
            table.insert(wd(Int32(index)), path: p(path))
        }
        let removed = table.removeSubtree(at: p("out"))
        #expect(removed.map(\.watch) == [wd(1), wd(2), wd(3)])
        #expect(table.entries.map(\.path) == [[], p("outside")])
        #expect(table.subtree(at: []).count == 2)
    }

    @Test func pathHelpers() {
        #expect(WatchTable.isPath(p("a/b"), inSubtreeAt: p("a")))
        #expect(WatchTable.isPath(p("a"), inSubtreeAt: p("a")))
        #expect(!WatchTable.isPath(p("ab"), inSubtreeAt: p("a")))
        #expect(!WatchTable.isPath(p("a"), inSubtreeAt: p("a/b")))
        #expect(WatchTable.isPath(p("anything"), inSubtreeAt: []))
        #expect(WatchTable.path(of: p("f"), inDirectory: []) == p("f"))
        #expect(WatchTable.path(of: p("f"), inDirectory: p("a/b")) == p("a/b/f"))
    }

    @Test func hundredThousandDirectories() {
        var table = WatchTable()
        var next: Int32 = 1
        table.insert(wd(0), path: [])
        // 100 top folders × 1000 subfolders.
        for top in 0..<100 {
            let topPath = p("top\(top)")
            table.insert(wd(next), path: topPath)
            next += 1
            for sub in 0..<999 {
                table.insert(wd(next), path: topPath + p("/sub\(sub)"))
                next += 1
            }
        }
        #expect(table.count == 100_001)
        table.moveSubtree(from: p("top42"), to: p("top100/renamed"))
        #expect(table.count == 100_001)
        #expect(table.subtree(at: p("top100/renamed")).count == 1000)
        #expect(table.subtree(at: p("top42")).isEmpty)
        #expect(table.watch(forPath: p("top100/renamed/sub998")) != nil)
    }

    /// The table kept in step with a real directory rename, as the watcher will do it.
    @Test func followsARealDirectoryRename() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let inotify = try Inotify()
        var table = WatchTable()
        try makeDirectory(directory("a"))
        try makeDirectory(directory("a/b"))
        try makeDirectory(directory("a/b/c"))
        for path in ["", "a", "a/b", "a/b/c"] {
            table.insert(try inotify.addWatch(pathBytes: directory(path)), path: p(path))
        }
        #expect(table.count == 4)

        try renameItem(directory("a"), directory("z"))
        let moves = try waitUntil(inotify) { $0.contains(.movedTo, "z") }
        let from = try #require(moves.first(.movedFrom, "a"))
        let to = try #require(moves.first(.movedTo, "z"))
        #expect(from.cookie == to.cookie)
        let fromPath = WatchTable.path(of: from.name, inDirectory: try #require(table.path(for: from.watch)))
        let toPath = WatchTable.path(of: to.name, inDirectory: try #require(table.path(for: to.watch)))
        table.moveSubtree(from: fromPath, to: toPath)

        try writeFile(directory("z/b/c/new.txt"))
        let events = try waitUntil(inotify) { $0.contains(.closeWrite, "new.txt") }
        let created = try #require(events.first(.create, "new.txt"))
        #expect(table.path(for: created.watch) == p("z/b/c"))

        // rm -rf: every watch gets IN_IGNORED, and the table empties but for the root.
        removeTree(directory("z"))
        let ignoredBefore = events.filter { $0.mask.contains(.ignored) }.count
        let gone = try waitUntil(inotify) { $0.filter { $0.mask.contains(.ignored) }.count + ignoredBefore >= 3 }
        for event in gone where event.mask.contains(.ignored) { table.remove(event.watch) }
        #expect(table.entries.map(\.path) == [[]])
    }
}
