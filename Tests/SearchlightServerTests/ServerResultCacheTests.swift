import Foundation
import HummingbirdTesting
import Searchlight
import SearchlightServer
import SearchlightTestSupport
import Testing

/// Answers given again from the server's cache of recent searches are the answers the index
/// gives now: a commit by another connection (a scan, a watch) is seen by the next request.
@Suite("serve: recent answers", .serialized, .ownThread)
struct ServerResultCacheTests {
    @Test(arguments: IndexBackend.available) func aSearchAskedAgainSeesTheIndexChange(_ backend: IndexBackend) async throws {
        let fixture = try await ServerFixture.make(backend)
        let app = try await fixture.makeServer().makeApplication()
        @Sendable func note(_ name: String) -> SearchableItem {
            var attributes = AttributeSet(contentType: "text/plain")
            attributes.displayName = name
            return SearchableItem(uniqueIdentifier: ItemIdentifier("notes/" + name), domainIdentifier: fixture.domain,
                                  attributeSet: attributes, identifierIsPath: true)
        }
        try await app.test(.router) { client in
            func names(_ path: String) async throws -> [String] {
                try await client.get(path).items.compactMap { $0["displayName"] as? String }.sorted()
            }
            let search = "/api/search?q=zebra&limit=10", query = "/api/query?q=" + #"displayName == "zebra*""#
                .addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            #expect(try await names(search).isEmpty)
            #expect(try await names(query).isEmpty)
            // Asked again with nothing changed: the same answer.
            #expect(try await names(search).isEmpty)
            try fixture.write([note("zebra crossing.txt")])
            #expect(try await names(search) == ["zebra crossing.txt"])
            #expect(try await names(query) == ["zebra crossing.txt"])
            try fixture.write([note("zebra stripes.txt")])
            #expect(try await names(search) == ["zebra crossing.txt", "zebra stripes.txt"])
            #expect(try await names(query) == ["zebra crossing.txt", "zebra stripes.txt"])
            // Another request (a smaller page) is another answer.
            #expect(try await client.get("/api/search?q=zebra&limit=1").items.count == 1)
        }
    }
}
