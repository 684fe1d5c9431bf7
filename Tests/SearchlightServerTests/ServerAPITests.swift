import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Searchlight
import SearchlightServer
import SearchlightTestSupport
import Testing

/// Every endpoint of the JSON API, in process (HummingbirdTesting's router mode), over a real
/// index of a real folder.
@Suite("serve: the JSON API", .serialized, .ownThread)
struct ServerAPITests {
    @Test(arguments: IndexBackend.available) func searchAnswersItemsWithTheirURLs(_ backend: IndexBackend) async throws {
        let fixture = try await ServerFixture.make(backend)
        let app = try await fixture.makeServer().makeApplication()
        try await app.test(.router) { client in
            let response = try await client.get("/api/search?q=quarterly+rep")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            let items = response.items
            #expect(items.map { $0["id"] as? String } == ["Quarterly Report 2024.txt"])
            let item = try #require(items.first)
            // The CLI's --json object, in its order, then the URLs.
            let keys = ["id", "domain", "path", "displayName", "title", "contentType", "contentTypeTree",
                        "contentDescription", "keywords", "size", "contentModificationDate", "contentCreationDate",
                        "pixelWidth", "pixelHeight", "thumbnail", "failure", "itemURL", "fileURL", "thumbnailURL",
                        "openURL", "kind"]
            for key in keys { #expect(item.keys.contains(key), "missing \(key)") }
            #expect(item["path"] as? String == fixture.tree.path + "/Quarterly Report 2024.txt")
            #expect(item["thumbnailURL"] is NSNull)
            #expect(item["host"] is NSNull)
            #expect(item["kind"] as? String == "text")
            #expect(item["fileURL"] as? String == fixture.path("/api/files/", "Quarterly Report 2024.txt"))
            #expect((item["itemURL"] as? String)?.hasPrefix("/api/items/%2F") == true)

            let photo = try #require(try await client.get("/api/search?q=beach").items.first)
            #expect(photo["kind"] as? String == "image")
            #expect(photo["thumbnailURL"] as? String == fixture.path("/api/thumbnails/", "Holiday/beach sunset.png"))

            #expect(try await client.get("/api/search?q=").items.isEmpty)
            #expect(try await client.get("/api/search?q=zzzzzz").items.isEmpty)
            // Words without letters find nothing, as `searchlight search` finds nothing: no
            // typed text is an error.
            let symbols = try await client.get("/api/search?q=%2B%2B%20%CC%81")
            #expect(symbols.status == .ok)
            #expect(symbols.items.isEmpty)
        }
    }

    /// Words that find nothing together, one a typo that another document holds, are searched
    /// respelled, as `searchlight search` does (issue 48); the result says so.
    @Test(arguments: IndexBackend.available) func searchRespellsWordsThatFindNothingTogether(_ backend: IndexBackend) async throws {
        let fixture = try await ServerFixture.make(backend)
        var typo = SearchableItem(uniqueIdentifier: "notes/typo.txt", domainIdentifier: fixture.domain,
                                  attributeSet: AttributeSet(contentType: "text/plain"), identifierIsPath: true)
        typo.attributeSet.displayName = "typo.txt"
        typo.attributeSet.textContent = "a reprot with a typo"
        try fixture.write([typo])
        let app = try await fixture.makeServer().makeApplication()
        try await app.test(.router) { client in
            let items = try await client.get("/api/search?q=quartely+reprot").items
            #expect(items.map { $0["id"] as? String } == ["Quarterly Report 2024.txt"])
            #expect(items.first?["searchingAlsoFor"] as? String == "quarterly report")
        }
    }

    @Test(arguments: IndexBackend.available) func searchFiltersByKindDateFolderAndLimit(_ backend: IndexBackend) async throws {
        let fixture = try await ServerFixture.make(backend)
        let app = try await fixture.makeServer().makeApplication()
        try await app.test(.router) { client in
            let all = try await client.get("/api/query?q=" + "size >= 0".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
            #expect(all.status == .ok)
            #expect(all.items.count == 6)
            let images = try await client.get("/api/query?q=size+%3E%3D+0&kind=image")
            #expect(images.items.map { $0["id"] as? String } == ["Holiday/beach sunset.png"])
            let sheets = try await client.get("/api/query?q=size+%3E%3D+0&kind=spreadsheet,pdf")
            #expect(sheets.items.map { $0["id"] as? String } == ["notes/budget.csv"])
            #expect(try await client.get("/api/query?q=size+%3E%3D+0&date=today").items.count == 6)
            #expect(try await client.get("/api/query?q=size+%3E%3D+0&limit=2").items.count == 2)
            #expect(try await client.get("/api/query?q=size+%3E%3D+0&domain=elsewhere").items.isEmpty)
            #expect(try await client.get("/api/search?q=plan&domain=" + fixture.domain.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
                .items.count == 1)
            let badKind = try await client.get("/api/search?q=plan&kind=movies")
            #expect(badKind.status == .badRequest)
            #expect((badKind.json["error"] as? String)?.contains("unknown kind") == true)
            #expect(try await client.get("/api/search?q=plan&date=decade").status == .badRequest)
            #expect(try await client.get("/api/search?q=plan&limit=-1").status == .badRequest)
        }
    }

    /// The server's `maximumLimit` bounds every answer: a larger `limit`, and the default page
    /// of a request that gives none.
    @Test func theServersLimitBoundsTheDefaultPageToo() async throws {
        let fixture = try ServerFixture()
        let app = try await fixture.makeServer { $0.maximumLimit = 2 }.makeApplication()
        try await app.test(.router) { client in
            let unbounded = try await client.get("/api/query?q=size+%3E%3D+0")
            #expect(unbounded.items.count == 2)
            #expect(try await client.get("/api/query?q=size+%3E%3D+0&limit=50").items.count == 2)
            #expect(try await client.get("/api/query?q=size+%3E%3D+0&limit=1").items.count == 1)
        }
    }

    /// The search box takes Spotlight's search words, as `searchlight search` does (one shared path).
    @Test(arguments: IndexBackend.available) func searchBoxTakesSearchWords(_ backend: IndexBackend) async throws {
        let fixture = try await ServerFixture.make(backend)
        let app = try await fixture.makeServer().makeApplication()
        try await app.test(.router) { client in
            func ids(_ text: String) async throws -> [String] {
                let response = try await client.get("/api/search?q=" + text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
                #expect(response.status == .ok, "\(text): \(response.text)")
                return response.items.compactMap { $0["id"] as? String }.sorted()
            }
            #expect(try await ids("kind:spreadsheet") == ["notes/budget.csv"])
            #expect(try await ids("kind:spreadsheet plan").isEmpty)
            // The page's kinds: the search word and the `kind` the API gives each item agree.
            let text = try await client.get("/api/search?q=kind%3Atext+plan")
            #expect(text.items.map { $0["id"] as? String } == ["notes/plan v2 (draft).md"])
            #expect(text.items.map { $0["kind"] as? String } == ["text"])
            #expect(try await ids("kind:document plan").isEmpty)
            #expect(try await ids("name:budget date:today") == ["notes/budget.csv"])
            let all = try await client.get("/api/search?q=kind%3Aspreadsheet")
            #expect(all.items.first?["matchedIn"] as? String == "attributes")
            let bad = try await client.get("/api/search?q=" + "plan modified:>notadate".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
            #expect(bad.status == .badRequest)
            #expect((bad.json["error"] as? String)?.contains("modified:>notadate") == true, "\(bad.text)")
        }
    }

    @Test(arguments: IndexBackend.available) func malformedQueryIs400WithTheColumn(_ backend: IndexBackend) async throws {
        let fixture = try await ServerFixture.make(backend)
        let app = try await fixture.makeServer().makeApplication()
        let query = #"title == "report"#
        let expected = try #require(Self.parseError(query))
        try await app.test(.router) { client in
            let response = try await client.get("/api/query?q=" + query.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
            #expect(response.status == .badRequest)
            #expect(response.json["error"] as? String == expected.description)
            #expect(response.json["column"] as? Int == expected.column)
            #expect(response.json["caret"] as? String == expected.caretDisplay)
            #expect(try await client.get("/api/query?q=").status == .badRequest)
        }
    }

    static func parseError(_ query: String) -> QueryParseError? {
        do {
            _ = try QueryExpression(parsing: query)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: IndexBackend.available) func itemsAnswerEveryAttributeOrTheCLIMessage(_ backend: IndexBackend) async throws {
        let fixture = try await ServerFixture.make(backend)
        let app = try await fixture.makeServer().makeApplication()
        try await app.test(.router) { client in
            let response = try await client.get(fixture.path("/api/items/", "notes/plan v2 (draft).md"))
            #expect(response.status == .ok)
            #expect(response.json["displayName"] as? String == "plan v2 (draft).md")
            #expect(response.json["textPreview"] as? String == "Plan\n\nShip the search page.\n")
            // A name with %, a control character, ? and #: the encoding round-trips.
            let odd = "odd %2F name\u{1}?#.txt"
            let oddResponse = try await client.get(fixture.path("/api/items/", odd))
            #expect(oddResponse.json["id"] as? String == odd)
            #expect(oddResponse.json["itemURL"] as? String == fixture.path("/api/items/", odd))

            let missing = try await client.get(fixture.path("/api/items/", "nothing.txt"))
            #expect(missing.status == .notFound)
            #expect(missing.json["error"] as? String == "no item \"nothing.txt\" in domain \(fixture.domain.debugDescription)")
            #expect(try await client.get("/api/items/onlyadomain").status == .badRequest)
            #expect(try await client.get("/api/items/%ZZ/x").status == .badRequest)
            #expect(try await client.get("/api/nothing").status == .notFound)
        }
    }

    @Test(arguments: IndexBackend.available) func thumbnailsAreServedWithTheirTypeAndETag(_ backend: IndexBackend) async throws {
        let fixture = try await ServerFixture.make(backend)
        let app = try await fixture.makeServer().makeApplication()
        try await app.test(.router) { client in
            let path = fixture.path("/api/thumbnails/", "Holiday/beach sunset.png")
            let response = try await client.get(path)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "image/webp")
            let bytes = Array(buffer: response.body)
            #expect(bytes.count > 100 && Array(bytes[8..<12]) == Array("WEBP".utf8))
            let tag = try #require(response.headers[.eTag])
            #expect(try await client.get(path, [.ifNoneMatch: tag]).status == .notModified)
            #expect(try await client.get(fixture.path("/api/thumbnails/", "notes/budget.csv")).status == .notFound)
        }
    }

    @Test(arguments: IndexBackend.available) func filesAreServedWholeOrByRange(_ backend: IndexBackend) async throws {
        let fixture = try await ServerFixture.make(backend)
        let app = try await fixture.makeServer().makeApplication()
        let content = "Revenue grew in every region.\n"
        try await app.test(.router) { client in
            let path = fixture.path("/api/files/", "Quarterly Report 2024.txt")
            let whole = try await client.get(path)
            #expect(whole.status == .ok)
            #expect(whole.text == content)
            #expect(whole.headers[.contentType] == "text/plain; charset=utf-8")
            #expect(whole.headers[.acceptRanges] == "bytes")
            #expect(whole.headers[.contentDisposition]
                    == #"inline; filename="Quarterly Report 2024.txt"; filename*=UTF-8''Quarterly%20Report%202024.txt"#)
            let part = try await client.get(path, [.range: "bytes=8-11"])
            #expect(part.status == .partialContent)
            #expect(part.text == "grew")
            #expect(part.headers[.contentRange] == "bytes 8-11/\(content.utf8.count)")
            #expect(try await client.get(path, [.range: "bytes=-7"]).text == "egion.\n")
            let beyond = try await client.get(path, [.range: "bytes=500-"])
            #expect(beyond.status == .rangeNotSatisfiable)
            #expect(beyond.headers[.contentRange] == "bytes */\(content.utf8.count)")
            let head = try await client.execute(uri: path, method: .head, headers: [.hostHeader: "localhost"])
            #expect(head.status == .ok && head.headers[.contentLength] == String(content.utf8.count))
            // HTML is downloaded, never shown: its script cannot run in this origin.
            let html = try await client.get(fixture.path("/api/files/", "notes/page.html"))
            #expect(html.headers[.contentType] == "text/html")
            #expect(html.headers[.contentDisposition]?.hasPrefix("attachment;") == true)
            #expect(html.headers[.contentSecurityPolicy]?.contains("sandbox") == true)
            let download = try await client.get(path + "?download=1")
            #expect(download.headers[.contentDisposition]?.hasPrefix("attachment;") == true)
            let image = try await client.get(fixture.path("/api/files/", "Holiday/beach sunset.png"))
            #expect(image.headers[.contentType] == "image/png")
            #expect(Array(buffer: image.body).prefix(4) == [0x89, 0x50, 0x4E, 0x47])
        }
    }

    /// A file's tag changes with its modification time, even where the seconds and nanoseconds
    /// written in hexadecimal side by side would read the same (0x1a s 0x2b3 ns, 0x1a2 s 0xb3 ns).
    @Test func aFilesTagChangesWithItsTime() async throws {
        let fixture = try ServerFixture()
        let app = try await fixture.makeServer().makeApplication()
        let file = fixture.root.path + "/Quarterly Report 2024.txt"
        @Sendable func touch(_ seconds: Int, _ nanoseconds: Int) {
            var times = [timespec(tv_sec: seconds, tv_nsec: nanoseconds), timespec(tv_sec: seconds, tv_nsec: nanoseconds)]
            #expect(utimensat(AT_FDCWD, file, &times, 0) == 0)
        }
        try await app.test(.router) { client in
            let path = fixture.path("/api/files/", "Quarterly Report 2024.txt")
            touch(0x1a, 0x2b3)
            let first = try #require(try await client.get(path).headers[.eTag])
            #expect(try await client.get(path, [.ifNoneMatch: first]).status == .notModified)
            touch(0x1a2, 0xb3)
            let second = try #require(try await client.get(path).headers[.eTag])
            #expect(second != first)
            #expect(try await client.get(path, [.ifNoneMatch: first]).status == .ok)
        }
    }

    @Test(arguments: IndexBackend.available) func statusEventsPageAndOpenAPIAreServed(_ backend: IndexBackend) async throws {
        let fixture = try await ServerFixture.make(backend)
        let app = try await fixture.makeServer().makeApplication()
        try await app.test(.router) { client in
            let status = try await client.get("/api/status")
            #expect(status.json["items"] as? Int == 6)
            let domains = try #require(status.json["domains"] as? [[String: Any]])
            #expect(domains.first?["root"] as? String == fixture.tree.path)
            #expect(domains.first?["thumbnails"] as? Int == 1)

            let page = try await client.get("/")
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            #expect(!page.text.contains("__SEARCHLIGHT_OPEN_TOKEN__"))
            #expect(page.text.contains(#"<script src="/app.js""#))
            #expect(try await client.get("/app.js").text.contains("AbortController"))
            #expect(try await client.get("/style.css").headers[.contentType] == "text/css; charset=utf-8")

            let document = try await client.get("/api/openapi.json")
            let paths = try #require(document.json["paths"] as? [String: Any])
            #expect(document.json["openapi"] as? String == "3.0.3")
            #expect(Set(paths.keys) == ["/api/search", "/api/query", "/api/items/{domain}/{id}",
                                        "/api/thumbnails/{domain}/{id}", "/api/files/{domain}/{id}",
                                        "/api/open/{domain}/{id}", "/api/status", "/api/events", "/api/openapi.json"])
        }
    }

    /// A shared index holds other machines' folders: their items are found and shown, but their
    /// files are not served from this machine's disk, even where the same path exists here.
    @Test func filesOfAnotherMachineAreNotServed() async throws {
        guard PostgresCluster.isAvailable else { return }
        let fixture = try await ServerFixture.make(.postgres)
        try fixture.index.setOrigin(host: "elsewhere.example", root: fixture.tree.path, domain: fixture.domain)
        let app = try await fixture.makeServer().makeApplication()
        try await app.test(.router) { client in
            let found = try await client.get("/api/search?q=quarterly")
            #expect(found.items.map { $0["id"] as? String } == ["Quarterly Report 2024.txt"])
            // The page is told where the file is, and gets no link to it.
            let item = try #require(found.items.first)
            #expect(item["host"] as? String == "elsewhere.example")
            #expect(item["fileURL"] is NSNull && item["openURL"] is NSNull)
            #expect(item["itemURL"] is String)
            let file = try await client.get(fixture.path("/api/files/", "Quarterly Report 2024.txt"))
            #expect(file.status == .notFound)
            #expect((file.json["error"] as? String)?.contains("elsewhere.example") == true, "\(file.text)")
            #expect(!file.text.contains("Revenue"))
        }
    }
}
