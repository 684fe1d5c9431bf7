import Foundation
import Glibc
import Searchlight
import SearchlightTestSupport
import Testing
@testable import SearchlightFiles

/// Fixed sequences of folder moves that land in one window (the consumer is held while they
/// are made), chosen where the watcher's picture of its folders is most easily wrong: folders
/// moved into folders too new to be watched, and the path they left taken by another folder
/// in the same window. Afterwards the index must hold exactly what the disk holds, a
/// self-check must repair nothing, and every moved folder must still be watched (a file
/// written in it later is indexed).
@Suite("Watch: held windows of folder moves", .serialized)
struct WatchHeldWindowTests {
    /// Runs `moves` (shell commands in the root) with the consumer held, then checks the index.
    static func check(prepare: @escaping (TemporaryTree) -> Void, moves: String, expected: Set<String>,
                      laterWrites: [String]) async throws {
        let fixture = try WatchFixture({ $0.selfCheckInterval = nil }, prepare: prepare)
        try await fixture.start()
        fixture.watcher.holdsWindows.store(true, ordering: .relaxed)
        shell("sh", "-c", "set -e\ncd '\(fixture.tree.path)'\n" + moves)
        fixture.watcher.holdsWindows.store(false, ordering: .relaxed)
        await fixture.settles(to: expected)
        #expect(await fixture.watcher.checkNow())
        #expect(fixture.watcher.selfCheckRepairs == 0, "\(fixture.log.all.filter { $0.contains("self-check") })")
        for path in laterWrites { fixture.tree.write(path) }
        await fixture.settles(to: expected.union(laterWrites))
        try await fixture.stop()
    }

    /// A folder moves into a new folder (inotify reports only where it left); another folder
    /// is renamed to the name it left.
    @Test func theNameAFolderLeftIsTakenByAnotherOne() async throws {
        try await Self.check(
            prepare: { tree in
                tree.write("a/d/s/f.txt")
                tree.write("a/e/t/g.txt")
            },
            moves: "mkdir n\nmv a/d n/d\nmv a/e a/d\n",
            expected: ["n/d/s/f.txt", "a/d/t/g.txt"],
            laterWrites: ["n/d/s/later.txt", "a/d/t/later.txt", "n/later.txt"])
    }

    /// A folder moves into a new folder, then one of its subfolders moves out of it into
    /// another new folder, and the first new folder is renamed.
    @Test func aSubfolderLeavesAFolderThatMovedIntoANewOne() async throws {
        try await Self.check(
            prepare: { tree in
                tree.write("a/d/s/f.txt")
                tree.write("a/d/g.txt")
            },
            moves: "mkdir n k\nmv a/d n/d\nmv n/d/s k/s\nmv n m\n",
            expected: ["m/d/g.txt", "k/s/f.txt"],
            laterWrites: ["m/d/later.txt", "k/s/later.txt"])
    }

    /// The issue's reorganization, small: the top folder renamed, a new folder made, folders
    /// of the tree moved into it, and the new folder moved inside the renamed one.
    @Test func aReorganizationInOneWindow() async throws {
        try await Self.check(
            prepare: { tree in
                for section in ["s1", "s2", "s3"] {
                    for chapter in ["c1", "c2"] { tree.write("docs/\(section)/\(section)\(chapter)/page.txt") }
                }
            },
            moves: """
                mv docs manual
                mkdir extracted
                mv manual/s1/s1c1 extracted/
                mv manual/s2 extracted/
                mv manual/s3/s3c2 extracted/
                mv extracted manual/
                """,
            expected: ["manual/extracted/s1c1/page.txt", "manual/s1/s1c2/page.txt", "manual/extracted/s2/s2c1/page.txt",
                       "manual/extracted/s2/s2c2/page.txt", "manual/s3/s3c1/page.txt", "manual/extracted/s3c2/page.txt"],
            laterWrites: ["manual/extracted/s1c1/later.txt", "manual/extracted/s2/s2c2/later.txt", "manual/s3/later.txt"])
    }
}
