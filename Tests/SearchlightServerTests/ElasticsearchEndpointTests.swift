import Foundation
import Glibc
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Searchlight
import SearchlightServer
import SearchlightTestSupport
import ServiceLifecycle
import Synchronization
import Testing

/// The Elasticsearch search API that Samba's Spotlight backend speaks, in process, over a real
/// index of a real folder: the bodies Samba 4.17 and later send, the answers it reads, and
/// the errors for what is not answered. (`SambaSpotlightTests` asks through Samba itself.)
@Suite("serve: Elasticsearch's search API for Samba", .serialized, .ownThread)
struct ElasticsearchEndpointTests {
    /// Samba 4.17's body (Debian 12): the scope is a phrase on `path.real.fulltext`.
    static func body417(_ query: String, scope: String, from: Int = 0, size: Int = 50) -> String {
        let escaped = query.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return #"{"from": \#(from), "size": \#(size), "_source": ["path.real"], "query": {"query_string": {"query": "(\#(escaped)) AND path.real.fulltext:\"\#(scope)\""}}}"#
    }

    /// The body of Samba 4.18 and later: the scope is a `prefix` filter, the default fields given.
    static func bodyLater(_ query: String, scope: String) -> String {
        let escaped = query.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return #"{"from": 0, "size": 50, "_source": ["path.real"], "query": {"bool": {"filter": [{"prefix": {"path.real": "\#(scope)/"}}], "must": [{"query_string": {"query": "\#(escaped)", "fields": ["file.filename", "content"]}}]}}}"#
    }

    func paths(_ response: TestResponse) -> [String] {
        let hits = (response.json["hits"] as? [String: Any])?["hits"] as? [[String: Any]] ?? []
        return hits.compactMap { (($0["_source"] as? [String: Any])?["path"] as? [String: Any])?["real"] as? String }.sorted()
    }

    func total(_ response: TestResponse) -> Int? {
        ((response.json["hits"] as? [String: Any])?["total"] as? [String: Any])?["value"] as? Int
    }

    @Test(arguments: IndexBackend.available) func answersWhatSambaAsksWithRealPaths(_ backend: IndexBackend) async throws {
        let fixture = try await ServerFixture.make(backend)
        let server = try await fixture.makeServer()
        let root = fixture.tree.path
        let report = root + "/Quarterly Report 2024.txt"
        let plan = root + "/notes/plan v2 (draft).md"
        try await Application(router: server.makeElasticsearchRouter()).test(.router) { client in
            // What Samba writes for each Spotlight query, as its own parser tests show.
            let cases: [(String, [String])] = [
                ("file.filename:*report*", [report]),
                ("file.filename:*REPORT*", [report]),
                ("content:ship", [plan]),
                ("SHIP", [plan]),
                ("quarterly", [report]),
                ("budget", [root + "/notes/budget.csv"]),
                (#"file.content_type:(image\/*)"#, [root + "/Holiday/beach sunset.png"]),
                (#"file.content_type:(text\/csv image\/png)"#, [root + "/notes/budget.csv", root + "/Holiday/beach sunset.png"]),
                (#"file.filename:Quarterly\ Report\ 2024.txt"#, [report]),
                (#"(file.filename:*plan*) AND (content:ship)"#, [plan]),
                (#"file.filename:*report* OR content:ship"#, [report, plan]),
                (#"(file.filename:*plan*) AND ((NOT content:ship))"#, []),
                (#"(file.filename:*report*) AND ((NOT content:ship))"#, [report]),
                (#"path.real:\/nowhere\/at\/all"#, []),
            ]
            for (query, expected) in cases {
                for body in [Self.body417(query, scope: root), Self.bodyLater(query, scope: root)] {
                    let response = try await client.search("/_all/_search?pretty", body)
                    #expect(response.status == .ok, "\(query): \(response.text)")
                    #expect(paths(response) == expected.sorted(), "\(query)")
                    #expect(total(response) == expected.count, "\(query)")
                }
            }
            // Dates: everything was modified after 2001, nothing before.
            let after = try await client.search("/_all/_search", Self.body417(#"file.last_modified:{2001\-01\-01T00\:00\:00Z TO *}"#, scope: root))
            #expect(total(after) == 6)
            let before = try await client.search("/_all/_search", Self.body417(#"file.last_modified:{* TO 2001\-01\-01T00\:00\:00Z}"#, scope: root))
            #expect(total(before) == 0)
            // Sizes, both ends included: the report and the plan are 30 bytes.
            let sized = try await client.search("/_all/_search", Self.body417(#"file.filesize:[30 TO 30]"#, scope: root))
            #expect(paths(sized) == [report, plan])
            let larger = try await client.search("/_all/_search", Self.body417(#"file.filesize:{30 TO *}"#, scope: root))
            #expect(!paths(larger).contains(report))
            // A scope below the share: only that folder's files; outside every root: none.
            let notes = try await client.search("/_all/_search", Self.body417("file.filename:*", scope: root + "/notes"))
            #expect(paths(notes) == [root + "/notes/budget.csv", root + "/notes/page.html", root + "/notes/plan v2 (draft).md"])
            let elsewhere = try await client.search("/_all/_search", Self.body417("file.filename:*", scope: "/nowhere"))
            #expect(total(elsewhere) == 0)
            #expect((elsewhere.json["hits"] as? [String: Any])?["hits"] as? [Any] != nil)
            // The index names a domain, or its folder.
            let named = try await client.search("/" + fixture.domain.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! + "/_search",
                                                Self.body417("content:ship", scope: root))
            #expect(paths(named) == [plan])
            let byFolder = try await client.search("/" + root + "/_search", Self.body417("content:ship", scope: root))
            #expect(paths(byFolder) == [plan])
        }
    }

    @Test func pagesAreFromAndSizeOfOneTotal() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.makeServer()
        try await Application(router: server.makeElasticsearchRouter()).test(.router) { client in
            var seen: [String] = []
            for from in stride(from: 0, to: 6, by: 4) {
                let response = try await client.search("/_all/_search", Self.body417("file.filename:*", scope: fixture.tree.path,
                                                                                      from: from, size: 4))
                #expect(total(response) == 6)
                seen += paths(response)
            }
            #expect(Set(seen).count == 6)
            let counted = try await client.search("/_all/_search?rest_total_hits_as_int=true",
                                                  #"{"size": 0, "query": {"match_all": {}}}"#)
            #expect((counted.json["hits"] as? [String: Any])?["total"] as? Int == 6)
            // No `_source` asked: every field Searchlight has.
            let whole = try await client.search("/_search", #"{"query": {"query_string": {"query": "file.filename:quarterly*"}}}"#)
            let hit = try #require(((whole.json["hits"] as? [String: Any])?["hits"] as? [[String: Any]])?.first)
            let file = (hit["_source"] as? [String: Any])?["file"] as? [String: Any]
            #expect(file?["filename"] as? String == "Quarterly Report 2024.txt")
            #expect(file?["filesize"] as? Int == 30)
            #expect(file?["content_type"] as? String == "text/plain")
            #expect(hit["_id"] as? String == "Quarterly Report 2024.txt")
        }
    }

    @Test func refusesWhatItDoesNotAnswerAsElasticsearchDoes() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.makeServer()
        let scope = fixture.tree.path
        try await Application(router: server.makeElasticsearchRouter()).test(.router) { client in
            let refused: [(String, String)] = [
                (Self.body417("meta.raw.creator:Chouka", scope: scope), "meta.raw.creator"),
                (Self.body417("attributes.owner:0", scope: scope), "attributes.owner"),
                (Self.body417("file.filename:rep?rt", scope: scope), "?"),
                (Self.body417("content:report~2", scope: scope), "~"),
                (Self.body417("content:report^2", scope: scope), "^"),
                (Self.body417("content:/rep.*/", scope: scope), "regular"),
                (Self.body417("(content:report", scope: scope), "parenthesis"),
                (Self.body417("file.filesize:big", scope: scope), "numbers"),
                (Self.body417(#"file.last_modified:now\-1d"#, scope: scope), "date"),
                (Self.body417("content:a NOT content:b", scope: scope), "NOT"),
                (#"{"query": {"match": {"content": "x"}}}"#, "match"),
                (#"{"sort": ["_score"], "query": {"match_all": {}}}"#, "sort"),
                (#"{"_source": ["file.owner"]}"#, "file.owner"),
                (#"{"size": -1}"#, "size"),
                // Past Elasticsearch's result window; near `Int.max` the sum once overflowed.
                (#"{"from": 9990, "size": 11}"#, "Result window"),
                (#"{"from": 9223372036854774784, "size": 1024}"#, "Result window"),
                ("not json", "JSON"),
            ]
            for (body, word) in refused {
                let response = try await client.search("/_all/_search", body)
                #expect(response.status == .badRequest, "\(body)")
                let error = response.json["error"] as? [String: Any]
                #expect((error?["reason"] as? String)?.contains(word) == true, "\(body): \(response.text)")
                #expect((error?["root_cause"] as? [[String: Any]])?.first?["type"] as? String == error?["type"] as? String)
                #expect(response.json["status"] as? Int == 400)
            }
            let missing = try await client.search("/nothing-here/_search", "{}")
            #expect(missing.status == .notFound)
            #expect((missing.json["error"] as? [String: Any])?["type"] as? String == "index_not_found_exception")
        }
        // Samba sends no credentials: the endpoint is refused off loopback.
        #expect(throws: APIError.self) {
            var configuration = SearchServer.Configuration()
            configuration.elasticsearchPort = 9200
            configuration.elasticsearchHost = "0.0.0.0"
            configuration.token = "secret"
            _ = try SearchServer(indexPath: fixture.indexPath, configuration: configuration, logger: .init(label: "test"))
        }
    }
}

extension ElasticsearchEndpointTests {
    /// On a real socket: Samba says the machine's name in `Host` (its `get_myname()`); another
    /// name is a web page that rebinds its name to 127.0.0.1.
    @Test func answersTheMachinesNameAndRefusesOtherHosts() async throws {
        let fixture = try ServerFixture()
        let port = Mutex(0)
        var configuration = SearchServer.Configuration()
        configuration.port = 0
        configuration.elasticsearchPort = 0
        let server = try SearchServer(indexPath: fixture.indexPath, configuration: configuration, logger: Logger(label: "test"),
                                      onElasticsearchListening: { _, listening in port.withLock { $0 = listening } })
        let group = ServiceGroup(configuration: .init(services: [server], logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        defer { running.cancel() }
        await eventually(timeout: 120, every: .milliseconds(20)) { port.withLock { $0 } != 0 }
        let listening = port.withLock { $0 }
        try #require(listening != 0, "the endpoint did not start listening")
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, 255)
        let machine = String(cString: name).split(separator: ".").first.map(String.init) ?? "localhost"
        func status(host: String) throws -> String {
            let connection = try Connection(port: listening)
            connection.send("POST /_all/_search HTTP/1.1\r\nHost: \(host)\r\nContent-Type: application/json\r\n"
                            + "Content-Length: 2\r\nConnection: close\r\n\r\n{}")
            _ = connection.read(until: "\r\n")
            return connection.text.components(separatedBy: "\r\n").first ?? ""
        }
        let answers = try [machine, "127.0.0.1:\(listening)", "evil.example:\(listening)"].map(status(host:))
        #expect(answers == ["HTTP/1.1 200 OK", "HTTP/1.1 200 OK", "HTTP/1.1 403 Forbidden"])
        await group.triggerGracefulShutdown()
        try await running.value
    }
}

extension TestClientProtocol {
    /// A POST of a JSON body, as Samba sends it (a loopback Host).
    func search(_ uri: String, _ body: String) async throws -> TestResponse {
        try await execute(uri: uri, method: .post, headers: [.hostHeader: "127.0.0.1:9200", .contentType: "application/json"],
                          body: ByteBuffer(string: body))
    }
}
