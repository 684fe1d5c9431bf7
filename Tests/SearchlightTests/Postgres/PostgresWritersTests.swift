import Foundation
import Logging
import PostgresNIO
import Searchlight
import SearchlightPostgres
import SearchlightTestSupport
import Testing

@Suite("PostgreSQL writers", .needsPostgres)
struct PostgresWritersTests {
    /// What one writer does to its domain, batch after batch, and what its domain holds after.
    struct WriterScript {
        let domain: String
        /// Each batch, with the domain state written in its transaction.
        let batches: [(changes: IndexBatch, states: [String: String])]
        let expected: Set<String>

        init(domain: String, batchCount: Int, itemsPerBatch: Int) {
            self.domain = domain
            var batches: [(changes: IndexBatch, states: [String: String])] = []
            var expected = Set<String>()
            for number in 0..<batchCount {
                var batch = IndexBatch()
                for item in 0..<itemsPerBatch {
                    let id = "b\(number)/item-\(item).txt"
                    batch.upsert(PostgresIndexTests.item(Array(id.utf8), domain: domain, keywords: ["shared", domain],
                                                         modified: Double(number)))
                    expected.insert(id)
                }
                if number > 0 {
                    // Every batch also deletes one item of the previous one and moves its folder.
                    batch.delete(ItemIdentifier("b\(number - 1)/item-0.txt"), domain: domain)
                    expected.remove("b\(number - 1)/item-0.txt")
                    batch.move(ItemIdentifier("b\(number - 1)"), to: ItemIdentifier("moved\(number - 1)"), domain: domain)
                    for item in 1..<itemsPerBatch {
                        expected.remove("b\(number - 1)/item-\(item).txt")
                        expected.insert("moved\(number - 1)/item-\(item).txt")
                    }
                }
                batches.append((batch, [domain: "after \(number)"]))
            }
            self.batches = batches
            self.expected = expected
        }
    }

    @Test func concurrentWritersOfDifferentDomainsNeverConflict() async throws {
        let url = try await PostgresTestDatabase.makeURL()
        // Retries would hide a conflict: none is allowed here.
        let noRetry = PostgresIndex.RetryPolicy(maximumAttempts: 1)
        let scripts = (0..<4).map { WriterScript(domain: "host\($0):/srv/root", batchCount: 12, itemsPerBatch: 40) }
        // Each writer has its own handle and connections, as separate machines would. They are
        // opened one after another: the first makes the schema, which the others would wait for
        // on its lock, past the operation timeout on a machine crowded with other tests. (What
        // is tested here is writing at once.)
        // The deadline of each operation is five minutes, not the tests' one: in the full suite
        // (a load average of 30 on two cores, every PostgreSQL test at once) a writer's batch
        // waited more than a minute for the cluster, which is not what this test is about.
        let deadline = Duration.seconds(300)
        var writers: [PostgresIndex] = []
        for _ in scripts {
            writers.append(try await PostgresIndex(url: url, retryPolicy: noRetry, operationTimeout: deadline, environment: [:]))
        }
        let reader = try await PostgresIndex(url: url, readOnly: true, operationTimeout: deadline, environment: [:])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (writer, script) in zip(writers, scripts) {
                group.addTask {
                    for batch in script.batches { try await writer.apply(batch.changes, states: batch.states) }
                }
            }
            // A reader searches all along; it never waits for the writers nor fails.
            group.addTask {
                for _ in 0..<20 { _ = try await reader.countMatches(words: ["shared"]) }
            }
            try await group.waitForAll()
        }
        for script in scripts {
            var ids = Set<String>()
            try await reader.forEachItem(domain: script.domain) { ids.insert($0.item.uniqueIdentifier.description); return true }
            #expect(ids == script.expected, "\(script.domain)")
            #expect(try await reader.countMatches(words: ["shared"], domain: script.domain) == script.expected.count)
        }
        #expect(try await reader.domainStates().count == 4)
        #expect(Set(try await reader.domainStates().values) == ["after 11"])
        for index in writers + [reader] { index.close() }
    }

    @Test func aWriterWhoseConnectionIsKilledRetriesAndConverges() async throws {
        let cluster = try await PostgresCluster.shared()
        let url = try await PostgresTestDatabase.makeURL()
        let database = String(url.split(separator: "/").last!.split(separator: "?").first!)
        let writer = try await PostgresIndex(
            url: url, retryPolicy: .init(maximumAttempts: 10, initialDelay: .milliseconds(20)),
            // Long enough that a loaded machine terminates the waiting backend first: the retry
            // after the kill is what this tests, not the store's own timeout.
            operationTimeout: .seconds(90), environment: [:])
        defer { writer.close() }
        let script = WriterScript(domain: "laptop:/home/ana", batchCount: 4, itemsPerBatch: 25)
        try await writer.apply(script.batches[0].changes, states: script.batches[0].states)

        // A second session holds a lock that the writer's next batch waits for; while it
        // waits, its backend is terminated, then the lock is released.
        let locker = try await PostgresConnection.connect(
            configuration: .init(host: "127.0.0.1", port: cluster.port, username: cluster.user,
                                 password: cluster.password, database: database, tls: .disable),
            id: 99, logger: Logger(label: "test.locker"))
        try await locker.query("BEGIN", logger: locker.logger)
        try await locker.query("LOCK TABLE item IN SHARE MODE", logger: locker.logger)
        let rest = Task {
            for batch in script.batches.dropFirst() { try await writer.apply(batch.changes, states: batch.states) }
        }
        var terminated = 0
        try await eventually(timeout: 60, every: .milliseconds(20)) {
            let rows = try await locker.query("""
                SELECT count(pg_terminate_backend(pid))::int8 FROM pg_stat_activity
                WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'
                """, logger: locker.logger)
            for try await count in rows.decode(Int.self) { terminated = count }
            return terminated != 0
        }
        try await locker.query("COMMIT", logger: locker.logger)
        try await locker.close()
        #expect(terminated == 1)
        try await rest.value
        #expect(writer.retriedTransactions >= 1)
        var ids = Set<String>()
        try await writer.forEachItem(domain: script.domain) { ids.insert($0.item.uniqueIdentifier.description); return true }
        #expect(ids == script.expected)
    }
}
