import Foundation
import Glibc
import Searchlight
import SearchlightTestSupport
import Testing
@testable import SearchlightFiles

/// A file with several names in the root: inotify reports a write under the name it was made
/// through, and the watcher refreshes the other names with it.
@Suite("Folder watcher: hard links", .serialized)
struct WatchHardLinkTests {
    /// Appends `text` to the file at `path` through that name.
    static func append(_ text: String, to path: String) {
        let handle = FileHandle(forWritingAtPath: path)!
        handle.seekToEndOfFile()
        handle.write(Data(text.utf8))
        handle.closeFile()
    }

    @Test func aWriteThroughOneNameRefreshesTheOthers() async throws {
        let fixture = try WatchFixture(prepare: { tree in
            tree.write("a.txt", "one\n")
            tree.mkdirs("b")
            #expect(link(tree.url("a.txt"), tree.url("b/alias.txt")) == 0)
            tree.write("unrelated.txt", "x\n")
        })
        try await fixture.start()
        #expect(try fixture.indexedSizes() == ["a.txt": 4, "b/alias.txt": 4, "unrelated.txt": 2])
        // Written through the first name, truncated through the second.
        Self.append("two three\n", to: fixture.tree.url("a.txt"))
        #expect(await eventually { (try? fixture.indexedSizes()) == ["a.txt": 14, "b/alias.txt": 14, "unrelated.txt": 2] },
                "\((try? fixture.indexedSizes()) ?? [:])")
        let handle = try #require(FileHandle(forWritingAtPath: fixture.tree.url("b/alias.txt")))
        try handle.truncate(atOffset: 2)
        try handle.close()
        #expect(await eventually { (try? fixture.indexedSizes()) == ["a.txt": 2, "b/alias.txt": 2, "unrelated.txt": 2] },
                "\((try? fixture.indexedSizes()) ?? [:])")
        // A third name, then one of them removed: the others' stamps (ctime) follow.
        #expect(link(fixture.tree.url("a.txt"), fixture.tree.url("c.txt")) == 0)
        await fixture.settles(to: ["a.txt", "b/alias.txt", "c.txt", "unrelated.txt"])
        fixture.tree.remove("a.txt")
        await fixture.settles(to: ["b/alias.txt", "c.txt", "unrelated.txt"])
        try await Self.expectNothingToRepair(fixture)
        Self.append("four\n", to: fixture.tree.url("c.txt"))
        #expect(await eventually { (try? fixture.indexedSizes()) == ["b/alias.txt": 7, "c.txt": 7, "unrelated.txt": 2] },
                "\((try? fixture.indexedSizes()) ?? [:])")
        try await Self.expectNothingToRepair(fixture)
        try await fixture.stop()
    }

    /// Every item's stored change stamp is the disk's (a ctime left behind would only be
    /// restamped by a self-check, not counted as a repair), and a self-check run now repairs
    /// nothing.
    static func expectNothingToRepair(_ fixture: WatchFixture, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        func staleStamps() throws -> [String] {
            let names = try fixture.indexedSizes().keys.map { ItemIdentifier(bytes: Array($0.utf8)) }
            let stored = try fixture.index.changeStamps(of: names, domain: fixture.domain)
            return try names.filter { name in
                try !FileStatus.of(fixture.tree.url(name.lossyString), in: AT_FDCWD).hasChangeStamp(stored[name] ?? nil)
            }.map(\.lossyString).sorted()
        }
        // The other names are refreshed in a transaction of their own, just after the window's.
        #expect(await eventually { (try? staleStamps()) == [] }, "stale stamps: \((try? staleStamps()) ?? [])",
                sourceLocation: sourceLocation)
        #expect(await fixture.watcher.checkNow(), sourceLocation: sourceLocation)
        #expect(fixture.watcher.selfCheckRepairs == 0, "\(fixture.log.all.suffix(8))", sourceLocation: sourceLocation)
    }

    /// Names added, renamed and removed in every way a window can see them: each changes the
    /// file's ctime under its other names, which are refreshed in the same window.
    @Test func namesMadeMovedAndRemovedRefreshTheOthers() async throws {
        let fixture = try WatchFixture(prepare: { tree in
            tree.write("a.txt", "one\n")
            tree.write("b.txt", "two\n")
        })
        try await fixture.start()
        // A name made in a folder that is new in the same window: the walk of the folder meets it.
        fixture.tree.mkdirs("new/deeper")
        #expect(link(fixture.tree.url("a.txt"), fixture.tree.url("new/deeper/a-too.txt")) == 0)
        await fixture.settles(to: ["a.txt", "b.txt", "new/deeper/a-too.txt"])
        try await Self.expectNothingToRepair(fixture)
        // A name renamed.
        #expect(rename(fixture.tree.url("a.txt"), fixture.tree.url("renamed.txt")) == 0)
        await fixture.settles(to: ["b.txt", "new/deeper/a-too.txt", "renamed.txt"])
        try await Self.expectNothingToRepair(fixture)
        // A folder holding a name moved, then deleted with everything in it.
        #expect(rename(fixture.tree.url("new"), fixture.tree.url("moved")) == 0)
        await fixture.settles(to: ["b.txt", "moved/deeper/a-too.txt", "renamed.txt"])
        try await Self.expectNothingToRepair(fixture)
        fixture.tree.remove("moved")
        await fixture.settles(to: ["b.txt", "renamed.txt"])
        try await Self.expectNothingToRepair(fixture)
        // A name saved over another file's name (an atomic replace), then the last extra name
        // written through.
        #expect(link(fixture.tree.url("renamed.txt"), fixture.tree.url("copy.tmp")) == 0)
        #expect(rename(fixture.tree.url("copy.tmp"), fixture.tree.url("b.txt")) == 0)
        await fixture.settles(to: ["b.txt", "renamed.txt"])
        try await Self.expectNothingToRepair(fixture)
        Self.append("more words\n", to: fixture.tree.url("b.txt"))
        #expect(await eventually { (try? fixture.indexedSizes()) == ["b.txt": 15, "renamed.txt": 15] },
                "\((try? fixture.indexedSizes()) ?? [:])")
        try await Self.expectNothingToRepair(fixture)
        try await fixture.stop()
    }
}
