import Foundation
import Glibc
import SearchlightTestSupport
import Testing

/// `watch` under a supervisor that stops reading its notifications: the socket's queue fills,
/// and the watcher must go on following the disk and still stop on SIGTERM.
@Suite("searchlight watch under a silent supervisor", .serialized, .ownThread)
struct WatchSupervisorTests {
    let tree = TemporaryTree("watch-silent")
    let work = TemporaryTree("watch-silent-index")

    @Test func aSupervisorThatStopsReadingStallsNothing() throws {
        let index = work.path + "/index.sqlite"
        tree.write("first.txt")
        let socket = NotifySocket(path: work.path + "/notify.sock")
        let log = work.path + "/watch.log"
        let watch = try ChildProcess([Searchlight.binary, "watch", tree.path, "--no-thumbnails", "--no-content"] + Searchlight.busyMachine,
                                     environment: ["SEARCHLIGHT_INDEX": index, "NOTIFY_SOCKET": socket.path],
                                     stderr: .file(log))
        defer { if watch.isRunning { watch.send(SIGKILL); watch.waitUntilExit() } }
        // Read until READY=1, as a supervisor that only waits for readiness does; then never again.
        #expect(socket.receive(containing: "READY=1") != nil)
        // Each file is its own window (the next is made once the last is indexed), and each
        // window sends two status lines: the kernel's queue of ten fills within a few windows.
        let windows = 200
        for number in 1...windows {
            tree.write("notes/note-\(number).txt")
            let indexed = waitUntil(timeout: 30) { count(index) == number + 1 }
            #expect(indexed, "window \(number) was never indexed; log: \(tail(log))")
            guard indexed else { return }
        }
        // The index still follows the disk, deletes included.
        tree.remove("notes")
        #expect(waitUntil(timeout: 30) { count(index) == 1 }, "log: \(tail(log))")
        watch.terminate()
        #expect(watch.exits(within: 30), "SIGTERM did not end the watch; log: \(tail(log))")
        #expect(watch.terminationStatus == 0)
        #expect(tail(log).contains("notifications to the supervisor were dropped"))
    }

    private func count(_ index: String) -> Int {
        (try? Searchlight.run(["list"], index: index).lines.count) ?? -1
    }

    private func tail(_ log: String) -> String {
        String(((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").suffix(2_000))
    }
}
