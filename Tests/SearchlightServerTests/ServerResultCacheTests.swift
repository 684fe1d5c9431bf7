import Foundation
import HummingbirdTesting
import Searchlight
@testable import SearchlightServer
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

/// The cache gives an answer again only to the reader it was computed for, and holds that
/// reader while it keeps the answer: a signed-in person's store, closed and freed, once left
/// its address to the next person's, who was then given the first person's answer.
@Suite("serve: recent answers, by reader")
struct ResultCacheReaderTests {
    private final class Reader: Sendable {}

    @Test func anAnswerIsGivenOnlyToItsReaderWhichItHolds() {
        let cache = ResultCache(capacity: 1 << 20)
        let other = Reader()
        weak var held: Reader?
        do {
            let first = Reader()
            held = first
            cache.store(Array("first's answer".utf8), for: "/api/search?q=pay", reader: first, marker: [1])
            #expect(cache.body(for: "/api/search?q=pay", reader: first, marker: [1]) == Array("first's answer".utf8))
            #expect(cache.body(for: "/api/search?q=pay", reader: first, marker: [2]) == nil)
        }
        // The first reader is gone from here; the cache still holds it, so no reader made now
        // can have its address.
        #expect(held != nil)
        #expect(cache.body(for: "/api/search?q=pay", reader: other, marker: [1]) == nil)
        // Another reader's answer for the same request replaces it, and lets the first go.
        cache.store(Array("other's answer".utf8), for: "/api/search?q=pay", reader: other, marker: [1])
        #expect(cache.body(for: "/api/search?q=pay", reader: other, marker: [1]) == Array("other's answer".utf8))
        #expect(held == nil)
    }
}
