import Foundation
import Glibc
import SearchlightTestSupport
import Testing

/// The database goes away (issue 21, deliverable 4): a cluster of the test's own is stopped
/// and started again (`pg_ctl stop -m fast`), or its sessions are ended (`pg_terminate_backend`),
/// under `watch` and `serve`; a statement is cancelled by the server under `search`. The
/// watcher keeps running and its index converges to the disk, `serve` answers 503 while the
/// server is away and 200 once it is back, and a cancelled statement is one line and exit 1.
@Suite("PostgreSQL going away", .serialized, .ownThread, .needsPostgres)
struct PostgresFaultTests {
    let tree = TemporaryTree("pg-faults")
    let work = TemporaryTree("pg-faults-work")

    /// Starts `watch` on `url` and waits for its "watching" line.
    func startWatch(url: String) throws -> (ChildProcess, String) {
        let log = work.path + "/watch.log"
        let process = try ChildProcess(
            [Searchlight.binary, "watch", tree.path, "--domain", "faults", "--no-thumbnails", "--no-content",
             "--self-check-interval", "0"] + Searchlight.busyMachine,
            environment: Searchlight.environment(index: url, extra: ["SEARCHLIGHT_PRESSURE_ROOT": work.path + "/none"]),
            stderr: .file(log))
        #expect(waitUntil(timeout: 60) { Self.read(log).contains("watching \(tree.path)") }, "\(Self.read(log))")
        return (process, log)
    }

    static func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// The items of the domain with their sizes, one `path size` line each, sorted: what the
    /// index says of the disk.
    func items(in index: String) -> [String] {
        guard let result = try? Searchlight.run(["query", "kMDItemFSSize >= 0", "--json"], index: index),
              result.status == 0 else { return ["(unreadable)"] }
        return result.lines.compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return "\(object["path"] ?? "?") \(object["size"] ?? "?")"
        }.sorted()
    }

    /// What a scan of the tree into a fresh SQLite file finds.
    func disk() throws -> [String] {
        let sqlite = work.path + "/disk-\(UUID().uuidString.prefix(8)).sqlite"
        let scan = try Searchlight.run(["scan", tree.path, "--domain", "faults", "--no-thumbnails", "--no-content"],
                                       index: sqlite)
        #expect(scan.status == 0, "\(scan.stderr)")
        return items(in: sqlite)
    }

    /// Sends SIGTERM and expects a clean end.
    func stop(_ process: ChildProcess, log: String) {
        process.terminate()
        #expect(process.exits(within: 60), "no exit after SIGTERM: \(Self.read(log))")
        #expect(process.terminationStatus == 0, "\(Self.read(log))")
    }

    /// Changes of every kind: added, modified (larger), deleted, a new folder, a rename.
    func change(_ round: Int) {
        tree.write("added \(round).txt", "new in round \(round)\n")
        tree.write("changed.txt", String(repeating: "longer ", count: round + 2) + "\n")
        tree.remove("gone \(round).txt")
        tree.write("folder \(round)/inside.txt", "inside\n")
        tree.rename("renamed \(round).txt", "renamed \(round) now.txt")
    }

    func makeTree() {
        tree.write("kept.txt", "kept\n")
        tree.write("changed.txt", "before\n")
        for round in 0..<4 {
            tree.write("gone \(round).txt", "to be deleted\n")
            tree.write("renamed \(round).txt", "to be renamed\n")
        }
    }

    /// (a) The server stops while `watch` runs, changes happen, the server starts again: the
    /// watcher is still running, the index converges to the disk, SIGTERM ends it.
    @Test func aWatchOutlivesTheServerStoppingAndCatchesUp() throws {
        let cluster = try ThrowawayPostgresCluster()
        defer { cluster.stop() }
        let url = try cluster.makeDatabase("faults")
        makeTree()
        let (watch, log) = try startWatch(url: url)
        #expect(waitUntil(timeout: 60) { items(in: url) == (try? disk()) }, "\(items(in: url))")
        change(0)
        #expect(waitUntil(timeout: 60) { items(in: url) == (try? disk()) }, "\(items(in: url))")

        try cluster.halt()
        change(1)
        // The watcher met the stopped server (its store says so once) and is still running.
        #expect(waitUntil(timeout: 120) { Self.read(log).contains("database is unreachable") }, "\(Self.read(log))")
        change(2)
        #expect(watch.isRunning, "the watcher ended: \(Self.read(log))")
        let unreachable = try Searchlight.run(["status"], index: url)
        #expect(unreachable.status == 1 && unreachable.stderr.split(separator: "\n").count == 1
                && unreachable.stderr.contains("running watches retry"), "\(unreachable.stderr)")

        try cluster.resume()
        change(3)
        let expected = try disk()
        // A watcher that ended cannot catch up: no need to wait for it.
        #expect(waitUntil(timeout: 180) { !watch.isRunning || items(in: url) == expected })
        #expect(items(in: url) == expected, "\(items(in: url)) ≠ \(expected): \(Self.read(log))")
        #expect(watch.isRunning, "\(Self.read(log))")
        stop(watch, log: log)
    }

    /// (b) Every session of the watcher is ended by an administrator, again and again, while
    /// it indexes: it reconnects and loses nothing.
    @Test func aWatchWhoseSessionsAreTerminatedLosesNothing() throws {
        let cluster = try ThrowawayPostgresCluster()
        defer { cluster.stop() }
        let url = try cluster.makeDatabase("terminated")
        makeTree()
        let (watch, log) = try startWatch(url: url)
        #expect(waitUntil(timeout: 60) { items(in: url) == (try? disk()) }, "\(items(in: url))")
        for round in 0..<4 {
            change(round)
            let ended = try cluster.psql("""
                SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                WHERE datname = 'terminated' AND pid <> pg_backend_pid()
                """)
            #expect(Int(ended.trimmingCharacters(in: .whitespacesAndNewlines)) != nil)
        }
        let expected = try disk()
        #expect(waitUntil(timeout: 120) { items(in: url) == expected }, "\(items(in: url)) ≠ \(expected): \(Self.read(log))")
        #expect(watch.isRunning, "\(Self.read(log))")
        stop(watch, log: log)
    }

    /// `GET url`: the status and the body (curl, with a deadline: a hang fails the test).
    func get(_ url: String) throws -> (status: Int, body: String) {
        let body = work.path + "/body-\(UUID().uuidString.prefix(8))"
        let result = try ChildProcess.run(["curl", "-s", "-o", body, "-w", "%{http_code}", "--max-time", "90", url])
        defer { unlink(body) }
        return (Int(String(decoding: result.stdout, as: UTF8.self)) ?? 0, Self.read(body))
    }

    /// (c) `serve` on a shared index: 503 while the server is stopped (not a hang, not 500),
    /// 200 again once it is back, without a restart.
    @Test func serveAnswers503WhileTheServerIsAwayAndRecovers() throws {
        let cluster = try ThrowawayPostgresCluster()
        defer { cluster.stop() }
        let url = try cluster.makeDatabase("served")
        makeTree()
        let scan = try Searchlight.run(["scan", tree.path, "--domain", "faults", "--no-thumbnails", "--no-content"], index: url)
        #expect(scan.status == 0, "\(scan.stderr)")
        let output = work.path + "/serve.out", log = work.path + "/serve.log"
        let serve = try ChildProcess([Searchlight.binary, "serve", "--port", "0", "--no-sign-in"],
                                     environment: Searchlight.environment(index: url, extra: [:]),
                                     stdout: .file(output), stderr: .file(log))
        #expect(waitUntil(timeout: 60) { Self.read(output).contains("\n") }, "\(Self.read(log))")
        let address = try #require(Self.read(output).firstRange(of: /http:\/\/127\.0\.0\.1:[0-9]+\//).map {
            String(Self.read(output)[$0])
        }, "\(Self.read(output)) \(Self.read(log))")
        let search = address + "api/search?q=kept"
        let before = try get(search)
        #expect(before.status == 200 && before.body.contains("kept.txt"), "\(before)")

        try cluster.halt()
        for _ in 0..<3 {
            let away = try get(search)
            #expect(away.status == 503, "\(away)")
        }
        let away = try get(search)
        #expect(away.status == 503 && away.body.contains("unreachable"), "\(away)")
        #expect(serve.isRunning, "\(Self.read(log))")

        try cluster.resume()
        #expect(waitUntil(timeout: 60) { (try? get(search))?.status == 200 }, "\(Self.read(log))")
        let after = try get(search)
        #expect(after.body.contains("kept.txt"), "\(after)")
        stop(serve, log: log)
    }

    /// (d) A statement the server cancels (`pg_cancel_backend`, `statement_timeout`) while
    /// `search` waits for a lock: one clear line and exit 1, no hang and no retry.
    @Test func aStatementCancelledByTheServerIsOneLineAndExit1() async throws {
        makeTree()
        let cluster = try await PostgresCluster.shared()
        let url = try await cluster.makeDatabase("cancel")
        let database = String(url.split(separator: "/").last!.split(separator: "?")[0])
        let scan = try Searchlight.run(["scan", tree.path, "--no-thumbnails", "--no-content"], index: url)
        #expect(scan.status == 0, "\(scan.stderr)")
        // Another session holds the item table: every read of it waits.
        let holder = try ChildProcess(
            [PostgresCluster.serverBinaries.map { $0 + "/psql" } ?? "psql", "-X", "-q", "-h", "127.0.0.1",
             "-p", String(cluster.port), "-U", cluster.user, "-d", database,
             "-c", "BEGIN; LOCK TABLE item IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(600);"],
            environment: ["PGPASSWORD": cluster.password])
        defer {
            // psql waits for its statement whatever the signal: its session is ended first.
            _ = try? cluster.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                  + "WHERE datname = '\(database)' AND pid <> pg_backend_pid()", database: database)
            holder.send(SIGKILL)
            holder.waitUntilExit()
        }
        #expect(waitUntil(timeout: 60) {
            (try? cluster.psql("SELECT count(*) FROM pg_locks WHERE mode = 'AccessExclusiveLock' AND granted "
                               + "AND relation = 'item'::regclass", database: database))?.hasPrefix("1") == true
        })
        let waiting = try ChildProcess([Searchlight.binary, "search", "kept"],
                                       environment: Searchlight.environment(index: url, extra: [:]),
                                       stdout: .file(work.path + "/cancel.out"), stderr: .file(work.path + "/cancel.err"))
        #expect(waitUntil(timeout: 60) {
            let cancelled = try? cluster.psql("""
                SELECT count(pg_cancel_backend(pid)) FROM pg_stat_activity
                WHERE datname = '\(database)' AND wait_event_type = 'Lock' AND query LIKE '%item%'
                """, database: database)
            return cancelled?.hasPrefix("1") == true
        })
        #expect(waiting.exits(within: 60), "search did not end after its statement was cancelled")
        let stderr = Self.read(work.path + "/cancel.err")
        #expect(waiting.terminationStatus == 1, "\(stderr)")
        #expect(stderr.hasPrefix("searchlight: ") && stderr.split(separator: "\n").count == 1, "\(stderr)")
        #expect(stderr.contains("canceling statement due to user request"), "\(stderr)")

        // The same with the server's statement timeout, set for the database.
        try cluster.psql("ALTER DATABASE \(database) SET statement_timeout = '500ms'")
        let timedOut = try Searchlight.run(["search", "kept"], index: url)
        #expect(timedOut.status == 1, "\(timedOut.stderr)")
        #expect(timedOut.stderr.hasPrefix("searchlight: ") && timedOut.stderr.split(separator: "\n").count == 1
                && timedOut.stderr.contains("statement timeout"), "\(timedOut.stderr)")
    }
}
