import Foundation
import Hummingbird
import NIOCore
import Searchlight
import SearchlightFiles
import SearchlightJSON

extension SearchServer {
    /// A search with filters looks at this many ranked results and keeps those that pass.
    ///
    /// A filter that keeps few results may therefore answer fewer than `limit` although more
    /// items pass it further down the ranking: the window bounds the cost of one request.
    static let filterWindow = 5000

    /// Adds the JSON API's routes: each reads through the signed-in person's index when there
    /// is one (``index(for:)``), and an unknown `/api/…` path is a 404 that names the OpenAPI
    /// document.
    ///
    /// The routes are those of `openapi.json`, which is served as it is at `/api/openapi.json`.
    /// Every read goes through ``read(_:)``, so each is bounded by the query timeout.
    ///
    /// - Parameter router: The main application's router, its access middleware already added.
    func addAPIRoutes(to router: Router<ServerContext>) {
        router.get("/api/search") { request, context in try await self.search(request, index: self.index(for: context)) }
        router.get("/api/query") { request, context in try await self.query(request, index: self.index(for: context)) }
        router.get("/api/items/**") { request, context in try await self.item(request, index: self.index(for: context)) }
        router.get("/api/thumbnails/**") { request, context in
            try await self.thumbnail(request, index: self.index(for: context))
        }
        router.get("/api/files/**") { request, context in try await self.file(request, index: self.index(for: context)) }
        router.head("/api/files/**") { request, context in try await self.file(request, index: self.index(for: context)) }
        router.post("/api/open/**") { request, context in try await self.open(request, context: context) }
        router.get("/api/status") { _, context in try await self.status(index: self.index(for: context)) }
        router.get("/api/events") { _, _ in self.events() }
        router.get("/api/openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(bytes: PackageResources.openapi_json)))
        }
        router.get("/api/**") { request, _ -> Response in
            throw APIError(.notFound, "no such endpoint: \(request.uri.path); see /api/openapi.json")
        }
    }

    /// What every search and query request may say besides its text.
    ///
    /// Read from the URL's query parameters only; other parameters are ignored.
    struct ResultRequest: Sendable {
        /// `q`: the words, or the query string; empty when not given.
        var text: String
        /// `domain`: only this domain; an empty value is none.
        var domain: String?
        /// `limit`: at most this many results, 100 by default, at most the server's
        /// ``Configuration/maximumLimit``.
        var limit: Int
        /// `kind` and `date`: the page's filters, applied to the ranked results.
        var filter: ResultFilter

        /// Reads the request's parameters.
        ///
        /// - Parameters:
        ///   - request: The request whose URL's query is read.
        ///   - maximumLimit: The server's ``Configuration/maximumLimit``: a larger `limit` is
        ///     lowered to it, without an error.
        /// - Throws: ``APIError`` 400 for a negative or non-numeric `limit`, or a filter that
        ///   does not parse.
        init(_ request: Request, maximumLimit: Int) throws {
            let parameters = QueryParameters(request.uri.query)
            text = parameters["q"] ?? ""
            domain = parameters["domain"].flatMap { $0.isEmpty ? nil : $0 }
            // The default page, within the server's limit too.
            limit = min(100, maximumLimit)
            if let given = parameters["limit"] {
                guard let value = Int(given), value >= 0 else {
                    throw APIError(.badRequest, "limit must be zero or more")
                }
                limit = min(value, maximumLimit)
            }
            filter = try ResultFilter(kind: parameters["kind"], date: parameters["date"])
        }

        /// How many results to ask the index for: more than the limit when some will be filtered out.
        ///
        /// Without a filter, the limit itself; with one, at least ``SearchServer/filterWindow``,
        /// the ranked results the filter looks at.
        var fetchLimit: Int { filter.isEmpty ? limit : max(limit, SearchServer.filterWindow) }
    }

    /// `GET /api/search?q=WORDS`: ranked name and content search (`searchlight search`).
    ///
    /// The words may hold Spotlight's search words (`kind:pdf`, `tag:work`); empty words
    /// answer `{"items":[]}` without reading. With `kind` or `date` filters, up to
    /// ``filterWindow`` ranked results are read and the first `limit` that pass are kept. The
    /// answer is cached until the index changes.
    ///
    /// The ranking and the origins of the domains are read within one ``read(_:)``, so the query
    /// timeout bounds both together.
    ///
    /// - Throws: ``APIError`` 400 for malformed search words or parameters, 503 past the
    ///   query timeout; the index's errors otherwise.
    /// - Parameters:
    ///   - request: The request; its `q`, `domain`, `limit`, `kind` and `date` parameters count.
    ///   - index: The signed-in person's reads of the index, else the server's.
    /// - Returns: `{"items":[…]}`, each item with its URLs and kind (``apiObject(_:base:origins:)``).
    func search(_ request: Request, index: any FileIndexReader) async throws -> Response {
        let asked = try ResultRequest(request, maximumLimit: configuration.maximumLimit)
        // Spotlight's search words (kind:pdf, tag:work…) as `searchlight search` reads them.
        let search: SearchWords
        do {
            search = try SearchWords(parsing: asked.text)
        } catch {
            throw APIError(.badRequest, error.description)
        }
        if search.isEmpty { return .json(Array(#"{"items":[]}"#.utf8)) }
        return .json(try await cached(request, index: index) { [index] in
            let predicate = asked.filter.predicate()
            let (ranked, origins) = try await self.read {
                (try await self.rankedResults(search, domain: asked.domain, limit: asked.fetchLimit, index: index),
                 try await index.domainOrigins())
            }
            let json = origins.itemJSON
            return Self.itemsObject(ranked.lazy.filter { predicate($0.item) }.prefix(asked.limit)) { result in
                Self.apiObject(result.item, base: json.object(for: result), origins: origins)
            }
        })
    }

    /// A search's results as every surface ranks them (``Searchlight/RankedSearch``): the
    /// rankings its composition asks for (``Searchlight/RankedSearch/Reading``), each awaited
    /// from `index`, with the items opened before and the model of the server's configuration.
    ///
    /// Each ranking is one await of the index; a search of words and of meaning reads several,
    /// one after another, then merges them as the command line does.
    ///
    /// - Parameters:
    ///   - search: The parsed search words.
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many results; `nil`: all of them.
    ///   - index: The index to read.
    /// - Returns: The results, best first.
    /// - Throws: The index's errors, and the encoder's when the search asks for meaning.
    func rankedResults(_ search: SearchWords, domain: String?, limit: Int?, index: any FileIndexReader) async throws -> [SearchResult] {
        var ranked = RankedSearch(search, domain: domain)
        ranked.history = history
        ranked.encoder = configuration.questionEncoder
        var reading = try ranked.reading(limit: limit)
        while let ranking = reading.next {
            try reading.record(await index.results(of: ranking, for: ranked))
        }
        return try reading.results()
    }

    /// `GET /api/query?q=QUERY`: a Spotlight query string (`searchlight query`).
    ///
    /// The query is parsed before the index is read, so a malformed one costs no read. Results
    /// come most recently modified first, filtered as ``search(_:index:)``'s are.
    ///
    /// - Throws: ``Searchlight/QueryParseError`` for a malformed query (answered as 400),
    ///   ``APIError`` 400 for malformed parameters, 503 past the query timeout.
    /// - Parameters:
    ///   - request: The request; its `q`, `domain`, `limit`, `kind` and `date` parameters count.
    ///   - index: The signed-in person's reads of the index, else the server's.
    /// - Returns: `{"items":[…]}`, each item with its URLs and kind.
    func query(_ request: Request, index: any FileIndexReader) async throws -> Response {
        let asked = try ResultRequest(request, maximumLimit: configuration.maximumLimit)
        // Parsed here first: a malformed query is answered without reading the index.
        _ = try QueryExpression(parsing: asked.text)
        return .json(try await cached(request, index: index) { [index] in
            let predicate = asked.filter.predicate()
            let (found, origins) = try await self.read {
                (try await index.query(asked.text, domain: asked.domain, limit: asked.fetchLimit), try await index.domainOrigins())
            }
            let json = origins.itemJSON
            return Self.itemsObject(found.lazy.filter(predicate).prefix(asked.limit)) {
                Self.apiObject($0, base: json.object(for: $0), origins: origins)
            }
        })
    }

    /// The answer to `request` kept in ``results`` while the index has not changed, else
    /// `compute`'s (then kept).
    /// Each person's answers are their own: the key holds the index they were read from.
    ///
    /// The key is the request's whole URI, so two requests that differ in any parameter are
    /// kept apart. Asking the change marker costs one read before every cached answer; with
    /// no room for answers (``Configuration/resultCacheBytes`` 0) nothing is asked.
    ///
    /// - Parameters:
    ///   - request: The request whose URI is the key.
    ///   - index: The reader the answer is read from; its object identity is part of the key.
    ///   - compute: Reads the index and makes the answer's bytes.
    /// - Returns: The answer's bytes, kept or new.
    /// - Throws: What `compute` throws, or the index's error while reading the change marker.
    func cached(_ request: Request, index: any FileIndexReader,
                _ compute: @escaping @Sendable () async throws -> [UInt8]) async throws -> [UInt8] {
        guard results.isEnabled else { return try await compute() }
        let key = "\(ObjectIdentifier(index)) " + request.uri.description
        let marker = try await read { [index] in try await index.changeMarker() }
        if let body = results.body(for: key, reader: index, marker: marker) { return body }
        let body = try await compute()
        results.store(body, for: key, reader: index, marker: marker)
        return body
    }

    /// `{"items":[…]}`.
    ///
    /// Written straight into bytes, each element's object as `object` makes it, in the order of
    /// `items`: no intermediate array of strings.
    static func itemsObject<Element>(_ items: some Sequence<Element>, object: (Element) -> JSONLine) -> [UInt8] {
        var bytes = Array(#"{"items":["#.utf8)
        for (position, item) in items.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += object(item).finished
        }
        bytes += Array("]}".utf8)
        return bytes
    }

    /// `base` (an item's or a search result's `--json` object) with what the page needs: the
    /// item's URLs (a client never builds one), its kind, and the machine it is on when that
    /// is another one (a shared index): its file is then neither served nor opened here, and
    /// `fileURL` and `openURL` are null.
    ///
    /// The URLs are relative to the server and percent-encoded by ``ItemLocation``, so any
    /// identifier, even one that is not UTF-8, has a URL that names it.
    ///
    /// - Parameters:
    ///   - indexed: The item, with whether it has a thumbnail (`thumbnailURL` is null without).
    ///   - base: The object `--json` writes for the item or the result.
    ///   - origins: The domains' hosts and roots, read in the same read as the item.
    /// - Returns: `base` with `itemURL`, `fileURL`, `thumbnailURL`, `openURL`, `kind` and `host`.
    static func apiObject(_ indexed: IndexedItem, base: JSONLine, origins: DomainOrigins) -> JSONLine {
        var object = base
        let location = ItemLocation(domain: indexed.item.domainIdentifier, identifier: indexed.item.uniqueIdentifier)
        let path = location.encodedPath
        let host = origins.remoteHost(of: indexed.item.domainIdentifier)
        object.add("itemURL", "/api/items/" + path)
        object.add("fileURL", host == nil ? "/api/files/" + path : nil)
        object.add("thumbnailURL", indexed.thumbnailInfo == nil ? nil : "/api/thumbnails/" + path)
        object.add("openURL", host == nil ? "/api/open/" + path : nil)
        object.add("kind", ItemKind(indexed.item).rawValue)
        object.add("host", host)
        return object
    }

    /// The item a request's path names after `prefix`.
    ///
    /// - Parameters:
    ///   - request: The request whose path is read.
    ///   - prefix: The route's fixed part, with its trailing slash (`/api/items/`).
    /// - Returns: The domain and identifier, percent-decoded.
    /// - Throws: ``APIError`` 400 when the path does not start with `prefix` or is not
    ///   `DOMAIN/ID`.
    static func location(of request: Request, after prefix: String) throws -> ItemLocation {
        let path = request.uri.path
        guard path.hasPrefix(prefix), let location = ItemLocation(encodedPath: path.dropFirst(prefix.count)) else {
            throw APIError(.badRequest, "expected \(prefix)DOMAIN/ID, each percent-encoded (see /api/openapi.json)")
        }
        return location
    }

    /// The CLI's message for an item that is not in the index.
    ///
    /// A 404 whose message quotes the identifier and the domain as `searchlight show` does.
    static func noItem(_ location: ItemLocation) -> APIError {
        APIError(.notFound, "no item \(location.identifier.lossyString.debugDescription) in domain \(location.domain.debugDescription)")
    }

    /// `GET /api/items/DOMAIN/ID`: every attribute of one item, and the start of its text.
    ///
    /// The domain and the identifier are percent-encoded path components (``ItemLocation``),
    /// so that any bytes of an identifier go through. `textPreview` holds the first
    /// ``textPreviewLength`` characters of the text.
    ///
    /// The item is read whole, text included, and only its preview is sent; not cached.
    ///
    /// - Parameters:
    ///   - request: The request; its path names the item.
    ///   - index: The signed-in person's reads of the index, else the server's.
    /// - Returns: The item's object (``apiObject(_:base:origins:)``) with `textPreview`.
    /// - Throws: ``APIError`` 400 for a malformed path, 404 when there is no such item.
    func item(_ request: Request, index: any FileIndexReader) async throws -> Response {
        let location = try Self.location(of: request, after: "/api/items/")
        let (found, origins) = try await read { [index] in
            (try await index.item(location.identifier, domain: location.domain), try await index.domainOrigins())
        }
        guard let indexed = found else { throw Self.noItem(location) }
        var object = Self.apiObject(indexed, base: origins.itemJSON.object(for: indexed), origins: origins)
        object.add("textPreview", indexed.item.attributeSet.textContent.map { String($0.prefix(Self.textPreviewLength)) })
        return .json(object.finished)
    }

    /// Characters of an item's text in `/api/items`.
    static let textPreviewLength = 2000

    /// `GET /api/thumbnails/DOMAIN/ID`: the thumbnail's bytes.
    ///
    /// Served as `image/FORMAT` with an `ETag` of its bytes (`If-None-Match` answers 304) and a
    /// content security policy that lets no script of an image run.
    ///
    /// `Cache-Control: no-cache` makes the browser ask again each time, and the `ETag` makes that
    /// question cheap: a thumbnail that did not change costs a read, not a transfer.
    ///
    /// The tag is computed from the bytes at each request (``fingerprint(_:)``), so the whole
    /// thumbnail is read even when the answer is 304.
    ///
    /// - Parameters:
    ///   - request: The request; its path names the item, `If-None-Match` counts.
    ///   - index: The signed-in person's reads of the index, else the server's.
    /// - Returns: 200 with the image, or 304 with its tag only.
    /// - Throws: ``APIError`` 400 for a malformed path, 404 when the item has no thumbnail.
    func thumbnail(_ request: Request, index: any FileIndexReader) async throws -> Response {
        let location = try Self.location(of: request, after: "/api/thumbnails/")
        let thumbnail = try await read { [index] in
            try await index.thumbnail(of: location.identifier, domain: location.domain)
        }
        guard let thumbnail else {
            throw APIError(.notFound, "no thumbnail for \(location.identifier.lossyString.debugDescription) "
                           + "in domain \(location.domain.debugDescription)")
        }
        let tag = "\"" + Self.fingerprint(thumbnail.bytes) + "\""
        if request.headers[.ifNoneMatch] == tag {
            return Response(status: .notModified, headers: [.eTag: tag])
        }
        return Response(status: .ok,
                        headers: [.contentType: "image/" + thumbnail.format, .eTag: tag, .cacheControl: "no-cache",
                                  .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; sandbox"],
                        body: .init(byteBuffer: ByteBuffer(bytes: thumbnail.bytes)))
    }

    /// ``FNV1a`` of `bytes`, as hex: an `ETag` that changes when the thumbnail does.
    ///
    /// The byte count is appended, so two thumbnails of different sizes never share a tag; not
    /// a cryptographic hash, and not meant to be one.
    static func fingerprint(_ bytes: [UInt8]) -> String {
        String(FNV1a.hash(bytes), radix: 16) + "-" + String(bytes.count, radix: 16)
    }

    /// `GET /api/status`: `searchlight status --json`.
    ///
    /// Two reads, each bounded by the query timeout: the statistics, then the domains' states.
    /// Not cached, unlike searches and queries.
    ///
    /// - Parameter index: The signed-in person's reads of the index, else the server's.
    /// - Throws: ``APIError`` 503 past the query timeout; the index's errors otherwise.
    func status(index: any FileIndexReader) async throws -> Response {
        .json(StatusJSON.object(for: try await read { [index] in try await index.statistics() },
                                states: try await read { [index] in try await index.domainStates() }))
    }

    /// `GET /api/events`: server-sent events, `ready` at once, then `change` whenever the
    /// index changes, and a comment now and then so that a closed page is noticed.
    ///
    /// The stream never ends on its own: it ends when the client goes away (the write fails) or
    /// the server shuts down. The first event tells the browser to reconnect after 3 seconds.
    /// Reads nothing per client: one monitor of the index serves every subscriber.
    func events() -> Response {
        let stream = changes.subscribe()
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody { writer in
                var isFirst = true
                for await event in stream {
                    let text: String
                    switch event {
                    case .changed(let version):
                        text = (isFirst ? "retry: 3000\nevent: ready\n" : "event: change\n") + "data: {\"version\":\(version)}\n\n"
                        isFirst = false
                    case .heartbeat:
                        text = ": still here\n\n"
                    }
                    try await writer.write(ByteBuffer(string: text))
                }
                try await writer.finish(nil)
            })
    }
}
