import Foundation
import Glibc
import SearchlightTestSupport
import Testing

/// The promise of Docs/Contract.md#shared-index: several `watch` processes (here two, each with its own root, as two
/// machines would run them) feed one PostgreSQL database while another process searches
/// it; once the changes settle the database answers as an SQLite index of the same roots.
@Suite("searchlight watch on PostgreSQL", .serialized, .ownThread, .needsPostgres)
struct PostgresWatchTests {
    let first = TemporaryTree("pg-watch-first")
    let second = TemporaryTree("pg-watch-second")
    let work = TemporaryTree("pg-watch-work")

    /// Starts `watch ROOT --domain DOMAIN` on `url` and waits for its "watching" line.
    func startWatch(_ root: TemporaryTree, domain: String, url: String) throws -> (ChildProcess, String) {
        let log = work.path + "/watch-\(domain).log"
        FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        defer { try? handle.close() }
        let process = try Searchlight.start(
            ["watch", root.path, "--domain", domain, "--no-thumbnails", "--no-content", "--self-check-interval", "0"] + Searchlight.busyMachine,
            index: url, environment: ["SEARCHLIGHT_PRESSURE_ROOT": work.path + "/no-pressure"], stderr: handle)
        let ready = waitUntil(timeout: 60) {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("watching \(root.path)")
        }
        #expect(ready, "no 'watching' line: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        return (process, log)
    }

    func stop(_ watch: ChildProcess) {
        kill(watch.processIdentifier, SIGTERM)
        watch.waitUntilExit()
        #expect(watch.terminationStatus == 0)
    }

    /// What `list --domain DOMAIN` prints, relative to the domain's root.
    func listed(_ domain: String, of root: TemporaryTree, in index: String) -> [String] {
        ((try? Searchlight.run(["list", "--domain", domain], index: index).paths(under: root.path)) ?? []).sorted()
    }

    @Test func twoWatchersFeedOneDatabaseWhileAThirdProcessSearches() async throws {
        first.write("Quarterly Report 2024.txt", "numbers\n")
        first.write("notes/Résumé.md")
        second.write("report draft.txt")
        second.write("photos/holiday.txt")
        let url = try await PostgresCluster.shared().makeDatabase("watch")
        let (watchFirst, logFirst) = try startWatch(first, domain: "first", url: url)
        defer { stop(watchFirst) }
        let (watchSecond, logSecond) = try startWatch(second, domain: "second", url: url)
        defer { stop(watchSecond) }
        #expect(listed("first", of: first, in: url) == ["Quarterly Report 2024.txt", "notes/Résumé.md"])
        #expect(listed("second", of: second, in: url) == ["photos/holiday.txt", "report draft.txt"])

        // Changes in both roots at once: new files, a renamed folder, a deletion, an edit;
        // a reader searches all along, and every search succeeds.
        var searches = 0
        for round in 0..<20 {
            first.write("inbox/report \(round).txt")
            second.write("more/Report-\(round)-notes.txt")
            if round == 5 { first.rename("notes", "Notes Renamed") }
            if round == 8 { second.remove("photos") }
            if round == 12 { first.write("Quarterly Report 2024.txt", "numbers and more numbers\n") }
            let search = try Searchlight.run(["search", "report", "--count"], index: url)
            #expect(search.status == 0, "\(search.stderr)")
            searches += 1
        }
        #expect(searches == 20)

        // Settled: each domain lists what an SQLite scan of the same root lists.
        let sqlite = work.path + "/index.sqlite"
        for (root, domain) in [(first, "first"), (second, "second")] {
            let scanned = try Searchlight.run(["scan", root.path, "--domain", domain, "--no-thumbnails", "--no-content"],
                                              index: sqlite)
            #expect(scanned.status == 0, "\(scanned.stderr)")
        }
        for (root, domain) in [(first, "first"), (second, "second")] {
            let expected = listed(domain, of: root, in: sqlite)
            #expect(expected.count > 20)
            #expect(waitUntil(timeout: 60) { listed(domain, of: root, in: url) == expected },
                    "\(domain): \(listed(domain, of: root, in: url)) ≠ \(expected)")
        }
        for command in [["search", "report"], ["search", "report", "--json"], ["search", "notes", "renamed"],
                        ["query", "kMDItemFSName == \"*report*\"cd"], ["list"]] {
            let expected = try Searchlight.run(command, index: sqlite)
            let actual = try Searchlight.run(command, index: url)
            #expect(actual.status == 0 && actual.output == expected.output, "\(command): \(actual.stderr)")
        }
        // Each watcher reported its health in its own domain's row; status sees both running.
        let status = try Searchlight.run(["status"], index: url)
        #expect(status.output.components(separatedBy: "watch:       running").count == 3, "\(status.output)")
        for log in [logFirst, logSecond] {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            #expect(!text.contains("error"), "\(text)")
        }
    }
}
