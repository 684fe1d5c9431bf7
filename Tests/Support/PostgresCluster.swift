import Foundation
import Glibc
import Synchronization

/// A throwaway PostgreSQL cluster for the tests of one process: created by
/// `Tests/Scripts/postgres-cluster.sh` in a temporary folder, listening on 127.0.0.1 only on a
/// free port, owned by an unprivileged user when the tests run as root, and stopped (its
/// folder deleted) when the process exits — by an `atexit` handler, or by the script's
/// watchdog when the process crashes.
///
/// Each test asks for a database of its own (``makeDatabase()``), so tests never share rows.
///
/// ```swift
/// @Suite(.enabled(if: PostgresCluster.isAvailable, Comment(rawValue: PostgresCluster.unavailableReason)))
/// struct MyTests {
///     @Test func works() async throws { let url = try await PostgresCluster.shared().makeDatabase() }
/// }
/// ```
public final class PostgresCluster: Sendable {
    /// The cluster's folder (data, socket, log, the superuser's password).
    public let directory: String
    public let port: Int
    /// The superuser's name and password (connections over TCP need the password).
    public let user: String
    public let password: String

    /// Whether the tests that need a server should run: when the server binaries are
    /// installed, and always in CI (`CI=true`), where their absence must fail, not skip.
    public static var isAvailable: Bool { serverBinaries != nil || isCI }

    /// Why the PostgreSQL tests are skipped, printed by the test runner.
    public static let unavailableReason =
        "PostgreSQL server binaries (initdb, pg_ctl) are not installed: apt-get install postgresql postgresql-contrib"

    /// The folder holding `initdb` and `pg_ctl`, if any version is installed.
    public static var serverBinaries: String? {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        return versions.sorted { $0.compare($1, options: .numeric) == .orderedDescending }
            .map { "/usr/lib/postgresql/\($0)/bin" }
            .first { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }
    }

    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// The cluster of this process, started on first use. Waiting for it takes no thread:
    /// the script runs on a thread of its own, so that tests of other suites keep the
    /// cooperative pool while the cluster starts.
    public static func shared() async throws -> PostgresCluster {
        try await sharedCluster.value
    }

    private static let sharedCluster = Task<PostgresCluster, any Error> {
        let cluster = try await onOwnThread { try PostgresCluster() }
        startedCluster.withLock { $0 = cluster }
        atexit { PostgresCluster.stopShared() }
        return cluster
    }

    /// The started cluster, for the `atexit` handler.
    private static let startedCluster = Mutex<PostgresCluster?>(nil)

    /// Runs blocking work (processes waited for) on a thread of its own.
    static func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    /// The script that starts and stops clusters.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scripts/postgres-cluster.sh").path

    private init() throws {
        guard Self.serverBinaries != nil else {
            throw ClusterError(message: "\(Self.unavailableReason)" + (Self.isCI ? " (required in CI)" : ""))
        }
        // As root the cluster belongs to `nobody`, who must reach its folder: /tmp, whatever
        // TMPDIR says.
        let temporary = getuid() == 0 ? "/tmp" : FileManager.default.temporaryDirectory.path
        directory = temporary + "/searchlight-postgres-\(getpid())-\(UUID().uuidString.prefix(8))"
        let output = try Self.run([Self.script, "start", directory, String(getpid())])
        var values: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        guard let port = values["PGPORT"].flatMap(Int.init), let user = values["PGUSER"],
              let passwordFile = values["PGPASSFILE_PLAIN"],
              let password = try? String(contentsOfFile: passwordFile, encoding: .utf8) else {
            throw ClusterError(message: "postgres-cluster.sh start printed no port: \(output)")
        }
        self.port = port
        self.user = user
        self.password = password.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The URL of `database`, with the password when `withPassword`.
    public func url(database: String, withPassword: Bool = true) -> String {
        let credentials = withPassword ? "\(user):\(password)" : user
        return "postgres://\(credentials)@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    /// Creates an empty database with a new name and returns its URL (password included).
    public func makeDatabase(_ label: String = "test") async throws -> String {
        let name = "\(label)_\(UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: ""))"
        try await Self.onOwnThread { try self.psql("CREATE DATABASE \(name)") }
        return url(database: name)
    }

    /// Runs SQL with `psql` as the superuser, in `database`; returns what it prints
    /// (unaligned, tuples only).
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        try Self.run([Self.serverBinaries.map { $0 + "/psql" } ?? "psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                      "-h", "127.0.0.1", "-p", String(port), "-U", user, "-d", database, "-c", sql],
                     environment: ["PGPASSWORD": password])
    }

    /// Stops the shared cluster (at exit).
    static func stopShared() {
        guard let cluster = startedCluster.withLock({ $0 }) else { return }
        _ = try? run([script, "stop", cluster.directory])
    }

    /// Runs a program and waits for it, returning its standard output; throws with its
    /// standard error when it fails. Output goes through files, not pipes: the server that
    /// the script starts outlives it, and so does the watchdog.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let base = FileManager.default.temporaryDirectory.path + "/searchlight-cluster-\(UUID().uuidString)"
        let outputPath = base + ".out", errorPath = base + ".err"
        defer {
            unlink(outputPath)
            unlink(errorPath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let program = arguments[0].hasPrefix("/") ? arguments : ["/usr/bin/env"] + arguments
        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        var argv = program.map { strdup($0) } + [nil]
        var envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, program[0], &actions, nil, &argv, &envp)
        guard spawned == 0 else {
            throw ClusterError(message: "cannot run \(program[0]): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // Exited normally with status 0: the low 7 bits hold no signal and the next 8 no code.
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            let message = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
            throw ClusterError(message: "\(arguments.prefix(2).joined(separator: " ")) failed (status \(status)): \(message)")
        }
        return output
    }

    /// A cluster that could not be started or used.
    public struct ClusterError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }
}
