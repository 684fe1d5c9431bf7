import Foundation
import HummingbirdTesting
import Logging
import Searchlight
import SearchlightFiles
import SearchlightPostgres
import SearchlightServer
import SearchlightTestSupport
import Testing

/// A query that runs past the deadline is stopped (its task cancelled: sqlite3_interrupt; PostgreSQL's
/// statement_timeout) and answered 503, and the server keeps answering afterwards.
@Suite("serve: query deadline", .serialized, .ownThread)
struct ServerDeadlineTests {
    @Test(arguments: IndexBackend.available) func aSlowQueryIsStoppedAnd503(_ backend: IndexBackend) async throws {
        let work = TemporaryTree("serve-deadline")
        let path = work.path + "/index.sqlite"
        let url = backend == .postgres ? try await PostgresCluster.shared().makeDatabase("deadline") : nil
        let index: any FileIndexWriter = try url.map { try PostgresStore(url: $0, readOnly: false, logger: Logger(label: "test")) }
            ?? SearchableIndex(path: path)
        var random = SeededGenerator(seed: 7)
        var batch = IndexBatch()
        // Fewer on PostgreSQL, whose writes are slower: still far more than a millisecond's work.
        for number in 0..<(backend == .postgres ? 20_000 : 60_000) {
            var attributes = AttributeSet(contentType: "text/plain")
            let name = "file \(number) " + String((0..<24).map { _ in Character(UnicodeScalar(UInt8.random(in: 97...122, using: &random))) })
            attributes.displayName = name + ".txt"
            attributes.title = name
            batch.upsert(SearchableItem(uniqueIdentifier: ItemIdentifier("folder/\(name).txt"), domainIdentifier: "d",
                                        attributeSet: attributes, identifierIsPath: true))
        }
        try index.apply(batch)
        var configuration = SearchServer.Configuration()
        configuration.queryTimeout = .milliseconds(1)
        let server: SearchServer
        if let url {
            let served = try await PostgresStore(url: url, queryTimeout: configuration.queryTimeout, logger: Logger(label: "test"))
            server = try SearchServer(index: served, configuration: configuration, logger: Logger(label: "test"))
        } else {
            server = try SearchServer(indexPath: path, configuration: configuration, logger: Logger(label: "test"))
        }
        // Every item's every text attribute against a pattern of many wildcards: far longer than 1 ms.
        let slow = #"* == "*q*u*e*r*y*z*z*z*"cd || title == "*x*y*w*v*"cd"#.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        try await server.makeApplication().test(.router) { client in
            let response = try await client.get("/api/query?q=" + slow)
            #expect(response.status == .serviceUnavailable)
            #expect((response.json["error"] as? String)?.contains("took longer than") == true)
            // The interrupted handle is not lent again in its interrupted state: later reads
            // succeed, or are stopped by the same deadline, never fail with "interrupted".
            for _ in 0..<4 {
                let next = try await client.get("/api/items/d/" + "nothing.txt")
                #expect(next.status == .notFound
                        || (next.status == .serviceUnavailable && (next.json["error"] as? String)?.contains("took longer") == true),
                        "\(next.status) \(next.text)")
            }
        }
    }
}
