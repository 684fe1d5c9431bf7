import Foundation
import Glibc
import Searchlight
import SearchlightTestSupport
import Testing
@testable import SearchlightFiles

/// A window of events is one transaction: `searchlight watch` killed at each step of a window
/// (debug builds' `SEARCHLIGHT_TEST_CRASH=POINT:N`) leaves the index as the window before or
/// the window after, and a restart brings it to the disk. On a thread of its own: it waits on the
/// watch process (`waitUntilReady`, `waitUntilExit`), which would hold one of the pool's two
/// threads, and its polling must not wait for a pool other tests hold (a full run once starved
/// it past 120 s).
@Suite("Watch window crashes", .serialized, .ownThread)
struct WatchWindowCrashTests {
    @Test(arguments: ["coalesced", "extracted", "committed"])
    func aKillAtAnyStepOfAWindowLeavesTheWindowBeforeOrAfter(point: String) async throws {
        let tree = TemporaryTree("crash-watch")
        let work = TemporaryTree("crash-index")
        for index in 0..<20 { tree.write("projects/alpha/doc \(index).txt", "text \(index)\n") }
        tree.write("projects/alpha/sub/deep.txt")
        tree.write("notes.txt", "first\n")
        let indexPath = work.path + "/index.sqlite"
        // The first window (1) is a warm-up; the second is killed at `point`.
        var watch = try WatchProcess(root: tree.path, index: indexPath, log: work.path + "/watch.log",
                                     environment: ["SEARCHLIGHT_TEST_CRASH": "\(point):2"])
        defer { watch.kill() }
        #expect(watch.waitUntilReady(), "\(watch.logText)")
        let index = try SearchableIndex(path: indexPath, readOnly: true)
        let domain = try RootFolder(path: tree.path).path
        // One event (a file moved in whole), so one window: a file written in place is three
        // events, which the watcher may read in two windows, the second being the one counted.
        work.write("warm-up.txt")
        #expect(Glibc.rename(work.url("warm-up.txt"), tree.url("warm-up.txt")) == 0)
        #expect(await RandomizedWatchTests.settle(index: index, domain: domain, root: tree.path, timeout: 120) == nil,
                "\(watch.logText)")
        let before = try RandomizedWatchTests.indexedFiles(index, domain: domain)

        // One window: the watcher is stopped while it all happens, so it reads the events at once.
        watch.pause()
        tree.mkdirs("archive")
        tree.rename("projects/alpha", "archive/alpha-2024")
        tree.write("archive/alpha-2024/sub/new.txt", "new\n")
        tree.write("fresh/inner/one.txt", "one\n")
        tree.write("notes.txt", "first\nsecond\n")
        tree.remove("warm-up.txt")
        watch.resume()
        watch.process.waitUntilExit()
        #expect(watch.process.wasSignaled, "the watch was not killed at \(point): \(watch.logText)")

        let after = try RandomizedWatchTests.indexedFiles(index, domain: domain)
        if point == "committed" {
            // The window is in the index. (Events that the kernel handed over after the window
            // was cut — the watcher may read a burst in two parts — wait for the restart.)
            #expect(after.keys.sorted() != before.keys.sorted(),
                    "killed after its commit, the window must be in the index: \(watch.logText)")
        } else {
            #expect(after.keys.sorted() == before.keys.sorted(), "killed before its commit, the window must leave no trace: \(watch.logText)")
        }
        watch = try WatchProcess(root: tree.path, index: indexPath, log: work.path + "/watch-2.log")
        #expect(watch.waitUntilReady(), "\(watch.logText)")
        let difference = await RandomizedWatchTests.settle(index: index, domain: domain, root: tree.path, timeout: 120)
        #expect(difference == nil, "after a restart: \(difference ?? "")")
        watch.terminate()
    }
}
