import Foundation
import Glibc
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Searchlight
import SearchlightServer
import Testing

/// The rules of Docs/Contract.md#web-page: loopback by default, a token off loopback, files only for indexed
/// items below their root, `open` only from this machine with the token.
@Suite("serve: security", .serialized, .ownThread)
struct ServerSecurityTests {
    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    @Test func traversalAttemptsNeverLeaveTheRoot() async throws {
        let app = try await fixture.makeServer().makeApplication()
        let domain = ItemLocation.percentEncode(Array(fixture.domain.utf8), keepingSlashes: false)
        let secret = fixture.outside.path + "/secret.txt"
        let relative = "../" + URL(fileURLWithPath: fixture.outside.path).lastPathComponent + "/secret.txt"
        try await app.test(.router) { client in
            for attempt in [
                "/api/files/\(domain)/../\(relative)",
                "/api/files/\(domain)/%2E%2E/%2E%2E" + secret,
                "/api/files/\(domain)/" + relative.replacingOccurrences(of: "/", with: "%2F"),
                "/api/files/\(domain)/%2F" + secret.dropFirst().replacingOccurrences(of: "/", with: "%2F"),
                "/api/files/\(domain)//etc/passwd",
                "/api/files/\(domain)/notes/%2E%2E/Quarterly%20Report%202024.txt",
                "/api/files/\(domain)/notes/./budget.csv",
                "/api/files/" + ItemLocation.percentEncode(Array(fixture.outside.path.utf8), keepingSlashes: false) + "/secret.txt",
                "/api/files/%2F/etc/passwd",
            ] {
                let response = try await client.get(attempt)
                #expect(response.status == .notFound || response.status == .badRequest, "\(attempt)")
                #expect(!response.text.contains("outside the root"), "\(attempt)")
                #expect(!response.text.contains("root:"), "\(attempt)")
            }
            // A file in the root that is not indexed is not served either.
            fixture.tree.write("new.txt", "not indexed yet\n")
            #expect(try await client.get(fixture.path("/api/files/", "new.txt")).status == .notFound)
        }
    }

    @Test func aSymlinkedFolderOrFileIsNotFollowed() async throws {
        // After the scan, the indexed folder `notes` becomes a link to a folder outside the root
        // holding a file of the same name, and an indexed file becomes a link too.
        fixture.outside.write("notes/budget.csv", "outside the root\n")
        try FileManager.default.removeItem(atPath: fixture.tree.url("notes"))
        #expect(symlink(fixture.outside.url("notes"), fixture.tree.url("notes")) == 0)
        try FileManager.default.removeItem(atPath: fixture.tree.url("Quarterly Report 2024.txt"))
        #expect(symlink(fixture.outside.url("secret.txt"), fixture.tree.url("Quarterly Report 2024.txt")) == 0)
        let app = try await fixture.makeServer().makeApplication()
        try await app.test(.router) { client in
            for id in ["notes/budget.csv", "Quarterly Report 2024.txt"] {
                let response = try await client.get(fixture.path("/api/files/", id))
                #expect(response.status == .notFound, "\(id)")
                #expect(!response.text.contains("outside the root"))
                #expect((response.json["error"] as? String)?.contains("symbolic link") == true)
            }
            // A FIFO in place of a file is refused without blocking.
            try FileManager.default.removeItem(atPath: fixture.tree.url("Holiday/beach sunset.png"))
            #expect(mkfifo(fixture.tree.url("Holiday/beach sunset.png"), 0o644) == 0)
            #expect(try await client.get(fixture.path("/api/files/", "Holiday/beach sunset.png")).status == .notFound)
        }
    }

    @Test func aTokenIsNeededForEveryRequestWhenGiven() async throws {
        let app = try await fixture.makeServer { $0.token = "s3cret-token" }.makeApplication()
        try await app.test(.router) { client in
            let missing = try await client.get("/api/status")
            #expect(missing.status == .unauthorized)
            #expect((missing.json["error"] as? String)?.contains("token") == true)
            #expect(try await client.get("/").status == .unauthorized)
            #expect(try await client.get("/api/search?q=plan", [.authorization: "Bearer wrong"]).status == .unauthorized)
            #expect(try await client.get(fixture.path("/api/files/", "notes/budget.csv"), [.authorization: "Bearer s3cret-tokeN"])
                .status == .unauthorized)
            #expect(try await client.get("/api/search?q=plan", [.authorization: "Bearer s3cret-token"]).items.count == 1)
            // The page's address with the token sets a cookie and drops the token from the address.
            let entry = try await client.get("/?token=s3cret-token&q=plan+v2")
            #expect(entry.status == .seeOther)
            #expect(entry.headers[.location] == "/?q=plan%20v2")
            let cookie = try #require(entry.headers[.setCookie])
            #expect(cookie.contains("searchlight_token=s3cret-token") && cookie.contains("HttpOnly"))
            #expect(try await client.get("/?token=nope").status == .unauthorized)
            let withCookie = try await client.get("/api/status", [.cookie: "searchlight_token=s3cret-token"])
            #expect(withCookie.status == .ok)
        }
    }

    @Test func withoutATokenOnlyLoopbackHostsAreAnswered() async throws {
        let (group, port, running) = try await fixture.startServer()
        func status(host: String) -> String {
            let connection = try? Connection(port: port)
            connection?.send("GET /api/status HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
            _ = connection?.read(until: "\r\n")
            return connection?.text.components(separatedBy: "\r\n").first ?? ""
        }
        for host in ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)", "localhost", "127.0.0.1"] {
            #expect(status(host: host) == "HTTP/1.1 200 OK", "\(host)")
        }
        // A site that rebinds its name to 127.0.0.1 cannot read the API.
        #expect(status(host: "evil.example:\(port)") == "HTTP/1.1 403 Forbidden")
        await group.triggerGracefulShutdown()
        try await running.value
    }

    @Test func aNonLoopbackAddressNeedsAToken() async throws {
        for host in ["0.0.0.0", "192.168.1.10", "::"] {
            await #expect(throws: APIError.self) { try await fixture.makeServer { $0.host = host } }
        }
        await #expect(throws: APIError.self) {
            try await fixture.makeServer { $0.host = "0.0.0.0"; $0.token = "" }
        }
        _ = try await fixture.makeServer { $0.host = "0.0.0.0"; $0.token = "t" }
        #expect(ServerAddress.isLoopback("127.3.2.1") && ServerAddress.isLoopback("::1") && !ServerAddress.isLoopback("127.0.0.1.evil"))
    }

    @Test func openNeedsLoopbackAndTheToken() async throws {
        let server = try await fixture.makeServer()
        let path = fixture.path("/api/open/", "notes/budget.csv")
        // In process there is no peer address: not from this machine.
        try await server.makeApplication().test(.router) { client in
            let response = try await client.execute(uri: path, method: .post,
                                                    headers: [.hostHeader: "localhost", HTTPField.Name("X-Searchlight-Token")!: server.openToken])
            #expect(response.status == .forbidden)
        }
        // Over a real socket from 127.0.0.1.
        try await server.makeApplication().test(.live) { client in
            let noToken = try await client.execute(uri: path, method: .post, headers: [.hostHeader: "localhost"])
            #expect(noToken.status == .forbidden)
            #expect((noToken.json["error"] as? String)?.contains("token") == true)
            let wrong = try await client.execute(uri: path, method: .post,
                                                 headers: [.hostHeader: "localhost", HTTPField.Name("X-Searchlight-Token")!: "x"])
            #expect(wrong.status == .forbidden)
            let notIndexed = try await client.execute(uri: fixture.path("/api/open/", "../secret.txt"), method: .post,
                                                      headers: [.hostHeader: "localhost", HTTPField.Name("X-Searchlight-Token")!: server.openToken])
            #expect(notIndexed.status == .notFound)
            let environment = ProcessInfo.processInfo.environment
            if (environment["DISPLAY"] ?? "").isEmpty && (environment["WAYLAND_DISPLAY"] ?? "").isEmpty {
                let response = try await client.execute(uri: path, method: .post,
                                                        headers: [.hostHeader: "localhost", HTTPField.Name("X-Searchlight-Token")!: server.openToken])
                #expect(response.status == .conflict)
                #expect((response.json["error"] as? String)?.contains("no desktop") == true)
            }
        }
        // The page carries the per-run token.
        try await server.makeApplication().test(.router) { client in
            let page = try await client.get("/").text
            #expect(page.contains("content=\"" + server.openToken + "\""))
        }
    }
}
