import Foundation
import Glibc
import Logging
import Searchlight
import SearchlightServer


import SearchlightTestSupport
import Testing

/// `/api/events` and the server as a Service: a real socket, a real change to the index by
/// another connection, and a graceful shutdown that ends the open event stream.
@Suite("serve: live events", .serialized, .ownThread)
struct ServerEventsTests {
    @Test(arguments: IndexBackend.available) func aChangeToTheIndexReachesTheEventStream(_ backend: IndexBackend) async throws {
        let fixture = try await ServerFixture.make(backend)
        let (group, port, running) = try await fixture.startServer()
        let connection = try Connection(port: port)
        connection.send("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        #expect(connection.read(until: "event: ready\ndata: {\"version\":0}\n\n"), "\(connection.text)")
        #expect(connection.text.contains("text/event-stream"))

        // Another connection (this test's writer) commits: the stream says so.
        var item = SearchableItem(uniqueIdentifier: "added later.txt", domainIdentifier: fixture.domain,
                                  attributeSet: AttributeSet(contentType: "text/plain"))
        item.attributeSet.displayName = "added later.txt"
        try fixture.write([item])
        #expect(connection.read(until: "event: change\ndata: {\"version\":1}\n\n"), "\(connection.text)")

        // A graceful shutdown ends the open stream, then the server.
        await group.triggerGracefulShutdown()
        #expect(connection.read(until: "0\r\n\r\n"), "\(connection.text)")
        try await running.value
    }
}
