import Foundation
import Glibc

/// A PostgreSQL cluster of one test's own, which the test stops and starts again: a database
/// that goes away under `watch` or `serve` (issue 21). The shared ``PostgresCluster`` serves
/// many suites at once and must never be stopped; this one has its own folder and port, and
/// ``stop()`` (or the script's watchdog, when the test process dies) removes it.
public final class ThrowawayPostgresCluster: Sendable {
    public let directory: String
    public let port: Int
    public let user: String
    public let password: String

    /// Creates and starts a cluster (`postgres-cluster.sh start`).
    public init() throws {
        guard PostgresCluster.serverBinaries != nil else {
            throw PostgresCluster.ClusterError(message: PostgresCluster.unavailableReason)
        }
        let temporary = getuid() == 0 ? "/tmp" : FileManager.default.temporaryDirectory.path
        directory = temporary + "/searchlight-throwaway-\(getpid())-\(UUID().uuidString.prefix(8))"
        let output = try PostgresCluster.run([PostgresCluster.script, "start", directory, String(getpid())])
        var values: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        guard let port = values["PGPORT"].flatMap(Int.init), let user = values["PGUSER"],
              let passwordFile = values["PGPASSFILE_PLAIN"],
              let password = try? String(contentsOfFile: passwordFile, encoding: .utf8) else {
            throw PostgresCluster.ClusterError(message: "postgres-cluster.sh start printed no port: \(output)")
        }
        self.port = port
        self.user = user
        self.password = password.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The URL of `database`, password included.
    public func url(database: String) -> String {
        "postgres://\(user):\(password)@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    /// Creates a database and returns its URL.
    public func makeDatabase(_ name: String) throws -> String {
        try psql("CREATE DATABASE \(name)")
        return url(database: name)
    }

    /// Runs SQL as the superuser; returns what it prints (unaligned, tuples only).
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        try PostgresCluster.run([PostgresCluster.serverBinaries.map { $0 + "/psql" } ?? "psql", "-X", "-q", "-A", "-t",
                                 "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", String(port), "-U", user,
                                 "-d", database, "-c", sql], environment: ["PGPASSWORD": password])
    }

    /// Stops the server (`pg_ctl stop -m fast`: its sessions are ended), keeping its data.
    public func halt() throws { _ = try PostgresCluster.run([PostgresCluster.script, "halt", directory]) }

    /// Starts the halted server again, on the same port.
    public func resume() throws { _ = try PostgresCluster.run([PostgresCluster.script, "resume", directory]) }

    /// Stops the server and deletes its folder.
    public func stop() { _ = try? PostgresCluster.run([PostgresCluster.script, "stop", directory]) }
}
