import Foundation
import Glibc
import SearchlightTestSupport
import Testing
@testable import SearchlightFiles

/// Several roots followed through one inotify instance (``InotifyHub``), as `watch` does.
@Suite("One inotify instance for several roots")
struct SharedInotifyTests {
    @Test func twoRootsShareOneInstanceAndFoldersMoveBetweenThem() async throws {
        let hub = try InotifyHub()
        let first = try WatchFixture(inotify: hub, prepare: { $0.write("docs/one.txt") })
        let second = try WatchFixture(inotify: hub, prepare: { $0.write("notes/two.txt") })
        try await first.start()
        try await second.start()

        // Each root's events reach its own watcher only.
        first.tree.write("docs/new.txt")
        second.tree.write("notes/deep/three.txt")
        await first.settles(to: ["docs/new.txt", "docs/one.txt"])
        await second.settles(to: ["notes/deep/three.txt", "notes/two.txt"])

        // A folder moved from one root into the other leaves the first and is followed in the
        // second: the kernel may hand the second the same watch descriptor the first still
        // owns, which the first then lets go of without removing it from the kernel.
        #expect(rename(first.tree.path + "/docs", second.tree.path + "/docs") == 0)
        await first.settles(to: [])
        await second.settles(to: ["docs/new.txt", "docs/one.txt", "notes/deep/three.txt", "notes/two.txt"])
        second.tree.write("docs/later.txt")
        await second.settles(to: ["docs/later.txt", "docs/new.txt", "docs/one.txt", "notes/deep/three.txt", "notes/two.txt"])

        // And back, deeper.
        #expect(rename(second.tree.path + "/notes", first.tree.path + "/from-second") == 0)
        await second.settles(to: ["docs/later.txt", "docs/new.txt", "docs/one.txt"])
        first.tree.write("from-second/deep/four.txt")
        await first.settles(to: ["from-second/deep/four.txt", "from-second/deep/three.txt", "from-second/two.txt"])
        #expect(await first.settlesToDisk())
        #expect(await second.settlesToDisk())

        try await first.stop()
        // The other watcher still hears its root after the first one left.
        second.tree.write("after.txt")
        await second.settles(to: ["after.txt", "docs/later.txt", "docs/new.txt", "docs/one.txt"])
        try await second.stop()
    }
}
