import Foundation
import Glibc
import Searchlight
import SearchlightTestSupport
import Testing
@testable import SearchlightFiles

/// A file manager's reorganization of a tree the watcher learned about live (copied in while
/// it ran): the tree's top folder renamed, a new folder made, a hundred of the tree's
/// subfolders moved into it, and the new folder moved inside the renamed one — all within
/// milliseconds, so that the moves land in folders too new to be watched. Once settled, the
/// index must equal the disk, and a self-check must repair nothing.
@Suite("Watch: reorganizing a tree learnt live", .serialized, .ownThread)
struct WatchReorganizationTests {
    /// The tree: 10 sections × 5 chapters × 5 leaves (310 folders), 5 files in each leaf and
    /// 1 in each chapter (1 500 files). Every folder name is unique.
    static func makeTree(in tree: TemporaryTree, at top: String) {
        for section in 0..<10 {
            for chapter in 0..<5 {
                let chapterPath = "\(top)/s\(section)/s\(section)c\(chapter)"
                tree.write("\(chapterPath)/index.html", "<!DOCTYPE html>\n<html><body>chapter</body></html>\n")
                for leaf in 0..<5 {
                    for file in 0..<5 {
                        tree.write("\(chapterPath)/s\(section)c\(chapter)l\(leaf)/page \(file).txt", "page \(file)\n")
                    }
                }
            }
        }
    }

    /// The hundred folders moved: every chapter of sections 0–3 (20, with their leaves) and
    /// 80 leaves of the other sections' chapters; none inside another.
    static var movedFolders: [String] {
        var folders = (0..<4).flatMap { section in (0..<5).map { "s\(section)/s\(section)c\($0)" } }
        for section in 4..<10 {
            for chapter in 0..<5 {
                for leaf in 0..<5 where folders.count < 100 && (section * 25 + chapter * 5 + leaf) % 3 != 0 {
                    folders.append("s\(section)/s\(section)c\(chapter)/s\(section)c\(chapter)l\(leaf)")
                }
            }
        }
        return folders
    }

    /// Windows as the watcher makes them by default, and small ones that cut the
    /// reorganization into several windows.
    @Test(arguments: [1024, 40])
    func aReorganizationWithinASecondLeavesTheIndexEqualToTheDisk(windowEvents: Int) async throws {
        let fixture = try WatchFixture { options in
            options.maximumWindowEvents = windowEvents
            options.selfCheckInterval = nil
        }
        try await fixture.start()
        Self.makeTree(in: fixture.outside, at: "docs")
        shell("cp", "-a", fixture.outside.url("docs"), fixture.tree.url("docs"))
        let copied = await RandomizedWatchTests.settle(index: fixture.index, domain: fixture.domain, root: fixture.tree.path)
        try #require(copied == nil, "the copied tree did not settle: \(copied ?? "")")

        let moved = Self.movedFolders
        #expect(moved.count == 100)
        var script = "set -e\ncd '\(fixture.tree.path)'\nmv docs manual\nmkdir extracted\n"
        for folder in moved { script += "mv 'manual/\(folder)' extracted/\n" }
        script += "mv extracted manual/\n"
        shell("sh", "-c", script)

        let difference = await RandomizedWatchTests.settle(index: fixture.index, domain: fixture.domain,
                                                           root: fixture.tree.path)
        #expect(difference == nil, "the index does not match the disk: \(difference ?? "")")
        #expect(await fixture.watcher.checkNow())
        #expect(fixture.watcher.selfCheckRepairs == 0, """
            the self-check repaired the index: \(fixture.log.all.filter { $0.contains("self-check") }.suffix(2))
            """)
        try await fixture.stop()
    }
}
