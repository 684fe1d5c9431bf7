#if canImport(Glibc)
import Glibc
#endif
@testable import SearchlightFiles
import SystemPackage
import SearchlightTestSupport
import Testing

/// ``Inotify/hasActivity(since:)`` is what keeps a watcher's self-check from counting as
/// repairs the changes of events it had not received yet: it must see every event that is
/// not in the watcher's inbox, wherever it is on the way.
///
/// On a thread of its own, the reader included (a child task, which inherits it): in a full run
/// whose other tests held the pool's two threads, a reader started as an unstructured task did
/// not run for 60 s.
@Suite("Inotify activity", .ownThread)
struct InotifyActivityTests {
    /// The sequence behind self-checks that "repaired" moved folders in randomized runs on a
    /// loaded machine: the reader reads a batch (a folder's move), its thread is preempted
    /// before the batch reaches the inbox, the check marks activity, walks the disk (seeing
    /// the move), and ends before the batch arrives. The read counters alone said nothing
    /// happened: the check counted the move's items as repairs.
    @Test func aBatchReadButNotYetHandedOnIsActivity() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let inotify = try Inotify()
        _ = try inotify.addWatch(directory.filePath)
        var iterator = inotify.events().makeAsyncIterator()
        // Moved in whole: one event, one batch. A file written in place is three events, which
        // the reader may read in two batches, the second after the mark below (a loaded full
        // run once did): that would be activity the test did not make.
        let outside = try TemporaryDirectory()
        defer { outside.remove() }
        try writeFile(outside("moved.txt"), "here")
        #expect(withCPath(outside("moved.txt"), { from in withCPath(directory("moved.txt")) { rename(from, $0) } }) == 0)
        let batch = try await iterator.next()
        #expect(batch?.isEmpty == false)
        // The batch is read, not handed on: a check starting now must count it as activity.
        let mark = inotify.markActivity()
        #expect(inotify.hasActivity(since: mark), "a batch in the reader's hands is not activity")
        // Asking for the next batch hands this one on; with nothing queued, nothing is on the way.
        async let next: [InotifyEvent]? = { [iterator] in
            var iterator = iterator
            return try await iterator.next()
        }()
        #expect(await eventually { !inotify.hasActivity(since: mark) })
        // A new event ends the reader's wait.
        try writeFile(directory("later.txt"), "later")
        let later = try await next
        #expect(later?.isEmpty == false)
    }
}
