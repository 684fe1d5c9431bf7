import Foundation
import Glibc
import SearchlightTestSupport
import Testing

@Suite("searchlight watch", .serialized, .ownThread)
struct WatchCommandTests {
    let tree = TemporaryTree("watch-cli")
    let work = TemporaryTree("watch-cli-index")

    /// Starts `searchlight watch` with its stderr in a file, and waits for its "watching" line.
    func startWatch(index: String, environment: [String: String] = [:]) throws -> (ChildProcess, String) {
        let log = work.path + "/watch-\(UUID().uuidString).log"
        var env: [String: String?] = ["SEARCHLIGHT_INDEX": index]
        for (key, value) in environment { env[key] = value }
        let process = try ChildProcess([Searchlight.binary, "watch", tree.path, "--no-thumbnails"] + Searchlight.busyMachine,
                                       environment: env, stderr: .file(log))
        let ready = waitUntil { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("watching") }
        #expect(ready, "no 'watching' line: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        return (process, log)
    }

    /// What `list` prints, relative to the tree.
    func listed(_ index: String) -> Set<String> { Set((try? Searchlight.run(["list"], index: index).paths(under: tree.path)) ?? []) }

    @Test(arguments: IndexBackend.available) func followsChangesAndStopsCleanlyOnSIGTERM(_ backend: IndexBackend) async throws {
        let index = try await backend.makeIndex(in: work.path, label: "follows")
        tree.write("first.txt")
        let socket = NotifySocket(path: work.path + "/notify.sock")
        let (watch, log) = try startWatch(index: index, environment: ["NOTIFY_SOCKET": socket.path])
        let ready = socket.receive(containing: "READY=1")
        #expect(ready != nil)
        #expect(ready?.joined().contains("STATUS=") == true)
        #expect(listed(index) == ["first.txt"])
        tree.write("reports/Quarterly Report.txt")
        #expect(waitUntil { listed(index) == ["first.txt", "reports/Quarterly Report.txt"] })
        #expect(try Searchlight.run(["search", "quarterly"], index: index).paths(under: tree.path) == ["reports/Quarterly Report.txt"])
        let status = try Searchlight.run(["status"], index: index).output
        #expect(status.contains("watch:       running"))
        #expect(status.contains("degraded:    none"))
        kill(watch.processIdentifier, SIGTERM)
        watch.waitUntilExit()
        #expect(watch.terminationStatus == 0)
        #expect(socket.receive(containing: "STOPPING=1") != nil)
        let text = try String(contentsOfFile: log, encoding: .utf8)
        #expect(!text.contains("Backtrac"))
        #expect(try Searchlight.run(["status"], index: index).output.contains("not running"))
    }

    @Test(arguments: IndexBackend.available) func theRootDisappearingExitsWith1AndLeavesTheIndex(_ backend: IndexBackend) async throws {
        let index = try await backend.makeIndex(in: work.path, label: "gone")
        tree.write("kept.txt")
        let (watch, log) = try startWatch(index: index)
        let outside = TemporaryTree("moved")
        #expect(rename(tree.path, outside.path + "/root") == 0)
        #expect(waitUntil { !watch.isRunning })
        watch.waitUntilExit()
        #expect(watch.terminationStatus == 1)
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("moved away"))
        #expect(listed(index) == ["kept.txt"])
        _ = rename(outside.path + "/root", tree.path)
    }

    @Test(arguments: IndexBackend.available) func aKilledWatchRestartsAndConverges(_ backend: IndexBackend) async throws {
        let index = try await backend.makeIndex(in: work.path, label: "killed")
        tree.write("a.txt")
        var (watch, _) = try startWatch(index: index)
        tree.write("b/c.txt")
        #expect(waitUntil { listed(index) == ["a.txt", "b/c.txt"] })
        kill(watch.processIdentifier, SIGKILL)
        watch.waitUntilExit()
        // Changes while nobody watches are found by the restart's reconcile.
        tree.remove("a.txt")
        tree.write("d.txt")
        (watch, _) = try startWatch(index: index)
        #expect(listed(index) == ["b/c.txt", "d.txt"])
        kill(watch.processIdentifier, SIGINT)
        watch.waitUntilExit()
        #expect(watch.terminationStatus == 0)
    }
}
