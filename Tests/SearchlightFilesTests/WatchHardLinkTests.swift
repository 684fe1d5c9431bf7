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
        Self.append("four\n", to: fixture.tree.url("c.txt"))
        #expect(await eventually { (try? fixture.indexedSizes()) == ["b/alias.txt": 7, "c.txt": 7, "unrelated.txt": 2] },
                "\((try? fixture.indexedSizes()) ?? [:])")
        // Nothing was left for the self-check to repair.
        #expect(await fixture.watcher.checkNow())
        #expect(fixture.watcher.selfCheckRepairs == 0, "\(fixture.log.all.suffix(5))")
        try await fixture.stop()
    }
}
