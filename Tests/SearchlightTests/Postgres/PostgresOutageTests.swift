import Foundation
import Logging
import Searchlight
import SearchlightFiles
import SearchlightPostgres
import SearchlightTestSupport
import Testing

/// The store of the scanner and the watcher when its database goes away (issue 21): every
/// call fails with a `SearchlightError` that says the database is unreachable (never a hang),
/// and the store recovers by itself once the server is back, with no reopening.
@Suite("PostgreSQL store while its database is away", .serialized, .ownThread, .needsPostgres)
struct PostgresOutageTests {
    /// The failure of `body`, which must be the store's "unreachable" error.
    func unreachable(_ body: () throws -> Void) {
        do {
            try body()
            Issue.record("the call succeeded while the server was stopped")
        } catch let error as SearchlightError {
            #expect(error.code == .database && error.isUnavailable, "\(error)")
            guard case .other(let cause) = error.cause, let typed = cause as? PostgresIndexError else {
                Issue.record("the cause is not the typed PostgreSQL error: \(error)")
                return
            }
            #expect(typed.isConnectionLost && typed.isUnavailable, "\(typed)")
            #expect(error.description.contains("unreachable since"), "\(error)")
        } catch {
            Issue.record("not a SearchlightError: \(error)")
        }
    }

    @Test func callsFailWhileTheServerIsAwayAndSucceedOnceItIsBack() throws {
        let cluster = try ThrowawayPostgresCluster()
        defer { cluster.stop() }
        let url = try cluster.makeDatabase("outage")
        let store = try PostgresStore(url: url, readOnly: false, logger: Logger(label: "test"))
        var first = IndexBatch()
        first.upsert(PostgresIndexTests.item("kept.txt", domain: "d", text: "kept while away"))
        try store.apply(first)
        #expect(store.unreachableSince == nil)

        try cluster.halt()
        // Reads and writes alike: the first spends its retries, the others fail at once.
        unreachable { _ = try store.itemCount(domain: nil) }
        let since = try #require(store.unreachableSince)
        var second = IndexBatch()
        second.upsert(PostgresIndexTests.item("added.txt", domain: "d", text: "added once back"))
        unreachable { try store.apply(second) }
        unreachable { _ = try store.searchResults(words: ["kept"], domain: nil, limit: nil, scope: .all) }
        unreachable { try store.setState(DomainState(root: "/d"), domain: "d") }
        #expect(store.unreachableSince == since)

        // Back: the next call succeeds on a new connection, and nothing was half written.
        try cluster.resume()
        #expect(try store.itemCount(domain: nil) == 1)
        #expect(store.unreachableSince == nil)
        try store.apply(second)
        #expect(try Set(store.searchIdentifiers(words: ["once"], domain: nil, limit: nil, scope: .all))
                == [ItemIdentifier("added.txt")])
        #expect(try store.itemCount(domain: "d") == 2)
    }
}
