import Foundation
import Hummingbird
import NIOCore
import Searchlight
import SearchlightJSON
import ServiceLifecycle

extension SearchServer {
    /// The Elasticsearch endpoint's application, when ``Configuration/elasticsearchPort`` is set:
    /// the search API that Samba's `spotlight backend = elasticsearch` speaks (Docs/Guide/Finder.md).
    ///
    /// A second Hummingbird application beside the main one, on its own host and port
    /// (``Configuration/elasticsearchHost``), run in a child task beside it by ``run()``. Once it listens,
    /// `onElasticsearchListening` is told its host and port (the port the system chose when
    /// the configuration asked for port 0).
    ///
    /// - Returns: The service, or `nil` when the endpoint is not configured.
    func makeElasticsearchApplication() -> (any Service)? {
        guard let port = configuration.elasticsearchPort else { return nil }
        let host = configuration.elasticsearchHost
        let onListening = onElasticsearchListening
        return Application(
            router: makeElasticsearchRouter(),
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in await onListening(host, channel.localAddress?.port ?? 0) },
            logger: logger)
    }

    /// The Elasticsearch endpoint's router: `POST /{index}/_search`, and a banner at `/`.
    ///
    /// Its middleware (``ElasticsearchAccess``) takes no token, since Samba sends none: it
    /// refuses a request whose `Host` is not a loopback address, the bound address or this
    /// machine's name, so that a web page rebinding its name to 127.0.0.1 cannot read it.
    ///
    /// `GET` with a body is answered as `POST` is, since Elasticsearch clients send both.
    /// `HEAD /` is answered 200 without a body: a client's check that the server is up.
    /// Public so that tests can drive the router without binding a port
    /// (`HummingbirdTesting`).
    public func makeElasticsearchRouter() -> Router<ServerContext> {
        let router = Router(context: ServerContext.self)
        router.addMiddleware { ElasticsearchAccess(boundHost: configuration.elasticsearchHost) }
        router.get("/") { _, _ in Self.elasticsearchBanner() }
        router.head("/") { _, _ in Response(status: .ok) }
        router.post("/**") { request, _ in try await self.elasticsearchSearch(request) }
        router.get("/**") { request, _ in try await self.elasticsearchSearch(request) }
        return router
    }

    /// What `GET /` answers: the machine's name and what the endpoint speaks, as an
    /// Elasticsearch server's banner (Samba asks it before searching).
    ///
    /// The name is the last of this machine's names in sorted order; nothing in the banner
    /// depends on the index.
    static func elasticsearchBanner() -> Response {
        var object = JSONLine()
        object.add("name", ElasticsearchAccess.machineNames().sorted().last)
        object.add("tagline", "Searchlight answers the part of Elasticsearch's search API that Samba's Spotlight backend uses")
        return .json(object.finished)
    }

    /// `POST /{index}/_search` (also `GET` with a body, and `/_search` for every index): the
    /// query of the body (``ElasticsearchSearch``) translated per domain into Searchlight's
    /// query, counted and read a page at a time, each hit's `_source` holding its `path.real`.
    ///
    /// The index name chooses the domains (``elasticsearchDomains(named:roots:)``); each
    /// domain's part of the query is read against its root (a path in the query is a path on
    /// this machine), and the parts are joined with `||` into one query. The answer has
    /// Elasticsearch's shape: `took`, `timed_out`, `_shards`, and `hits` with the total (a number
    /// with `rest_total_hits_as_int`) and the page `from`…`from + size`; `max_score` is `null`:
    /// the hits come most recently modified first, not by score.
    ///
    /// Samba asks each page of one Spotlight search as its own request; ``hits(of:needed:)``
    /// keeps the hits between pages, so a search costs one read of the index while the index is
    /// unchanged. The body is read up to ``ElasticsearchSearch/maximumBodySize`` bytes.
    ///
    /// Each domain's part is its query's selection against its root: a domain the query cannot
    /// reach (a path outside its folder) adds nothing, and one the query selects whole adds
    /// only its domain test. When no domain is left, nothing is read and the answer has no hit.
    /// Of the URL's parameters, `pretty` and `typed_keys` are accepted and change nothing;
    /// `took` counts the milliseconds from the parameters' check to the answer, and `_shards`
    /// always says one shard, successful.
    ///
    /// ```
    /// POST /_all/_search?rest_total_hits_as_int=true
    /// {"from": 0, "size": 50, "_source": ["path.real"],
    ///  "query": {"query_string": {"query": "file.filename:report*"}}}
    /// ```
    ///
    /// - Throws: ``ElasticsearchError`` for a path other than `…/_search`, an unknown
    ///   parameter, a body that does not parse or an unknown index name; the index's errors.
    /// - Parameter request: The HTTP request, its path ending in `/_search`.
    /// - Returns: The answer as JSON, status 200.
    func elasticsearchSearch(_ request: Request) async throws -> Response {
        let path = request.uri.path
        guard path.hasSuffix("/_search") else {
            throw ElasticsearchError(.notFound, type: "invalid_request_exception",
                                     "no handler for [\(request.method) \(path)]: Searchlight answers POST /{index}/_search")
        }
        var totalAsNumber = false
        let parameters = QueryParameters(request.uri.query)
        for name in parameters.names {
            switch name {
            case "pretty", "typed_keys": continue
            case "rest_total_hits_as_int": totalAsNumber = parameters[name] != "false"
            default: throw ElasticsearchError.request("unknown parameter [\(name)] of the search API")
            }
        }
        let started = ContinuousClock.now
        let body = try await request.body.collect(upTo: ElasticsearchSearch.maximumBodySize)
        let search = try ElasticsearchSearch(body: Array(body.readableBytesView))
        let states = try await read { [index] in try await index.domainStates() }
        let domains = try Self.elasticsearchDomains(named: String(path.dropFirst().dropLast("/_search".count)),
                                                    roots: states.compactMapValues(\.root))
        var parts: [QueryExpression] = []
        for (domain, root) in domains {
            let inDomain = QueryExpression.predicate(QueryPredicate(attribute: .domain,
                                                                    test: .comparison(.equal, .exactString(domain))))
            switch try search.query.selection(fields: search.defaultFields, root: root) {
            case .none: continue
            case .all: parts.append(inDomain)
            case .some(let expression): parts.append(.and([inDomain, expression]))
            }
        }
        var total = 0
        var found: [IndexedItem] = []
        if !parts.isEmpty {
            (total, found) = try await hits(of: parts.count == 1 ? parts[0] : QueryExpression.or(parts),
                                            needed: search.from + search.size)
        }
        let roots = Dictionary(uniqueKeysWithValues: domains)
        let hits = found.dropFirst(search.from).prefix(search.size).map { Self.hit($0, root: roots[$0.item.domainIdentifier] ?? "", source: search.source) }
        var totalObject = JSONLine()
        totalObject.add("value", total)
        totalObject.add("relation", "eq")
        var hitsObject = JSONLine()
        if totalAsNumber { hitsObject.add("total", total) } else { hitsObject.add("total", object: totalObject) }
        hitsObject.add("max_score", nil as Double?)
        hitsObject.add("hits", objects: hits)
        var shards = JSONLine()
        for (key, count) in [("total", 1), ("successful", 1), ("skipped", 0), ("failed", 0)] { shards.add(key, count) }
        var object = JSONLine()
        let elapsed = ContinuousClock.now - started
        object.add("took", Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000))
        object.add("timed_out", false)
        object.add("_shards", object: shards)
        object.add("hits", object: hitsObject)
        return .json(object.finished)
    }

    /// The total and the first hits (at least `needed`, when there are) of a search: those
    /// read for an earlier page of the same search while the index has not changed, else a
    /// window read now (``ElasticsearchHits``), counted only when the window is full.
    ///
    /// Costs one read of the change marker, then, unless kept hits suffice, one query of
    /// ``ElasticsearchHits/limit(needed:kept:)`` + 1 items, and one count only when more than that
    /// many match. The key is the expression's text, so two requests of the same query share
    /// their hits whatever their pages.
    ///
    /// - Parameters:
    ///   - expression: The whole query, every chosen domain's part joined.
    ///   - needed: The end of the page asked for (`from + size`).
    /// - Returns: The number of matches and the first items, in query order.
    /// - Throws: The index's errors.
    private func hits(of expression: QueryExpression, needed: Int) async throws -> (total: Int, items: [IndexedItem]) {
        let key = expression.description
        let marker = try await read { [index] in try await index.changeMarker() }
        if let kept = elasticsearchHits.hits(for: key, marker: marker, needed: needed) { return (kept.total, kept.items) }
        let limit = ElasticsearchHits.limit(needed: needed, kept: elasticsearchHits.keptCount(for: key))
        let (total, items) = try await read { [index] in
            let items = try await index.query(expression, domain: nil, limit: limit + 1)
            guard items.count > limit else { return (items.count, items) }
            return (try await index.countQuery(expression, domain: nil), Array(items.prefix(limit)))
        }
        elasticsearchHits.store(.init(total: total, items: items, marker: marker, stored: .now), for: key)
        return (total, items)
    }

    /// The domains an index name stands for, with their folders: `_all`, `*` or nothing for
    /// every domain that indexes a folder; else a comma-separated list of domain names or
    /// folders (`elasticsearch:index = /srv/share` asks `//srv/share/_search`).
    ///
    /// The name is percent-decoded first. Domains that recorded no root (not indexed from a
    /// folder) are never chosen. A domain named twice, or by its name and its folder, is chosen
    /// once, in the order first named.
    ///
    /// - Throws: ``ElasticsearchError`` 404 (`index_not_found_exception`) for a name that is neither.
    /// - Parameters:
    ///   - encoded: The path before `/_search`, without its leading `/`, still percent-encoded.
    ///   - roots: Each domain's root folder, by domain name.
    /// - Returns: The chosen domains and their folders.
    static func elasticsearchDomains(named encoded: String, roots: [String: String]) throws(ElasticsearchError)
        -> [(domain: String, root: String)] {
        guard let name = ItemLocation.percentDecode(encoded[...]).flatMap({ String(validating: $0, as: UTF8.self) }) else {
            throw .request("the index name is not UTF-8")
        }
        let all = roots.sorted { $0.key < $1.key }.map { (domain: $0.key, root: $0.value) }
        if name.isEmpty || name == "_all" || name == "*" { return all }
        var chosen: [(domain: String, root: String)] = []
        for part in name.split(separator: ",").map(String.init) {
            if part == "_all" || part == "*" { return all }
            let matching = all.filter { $0.domain == part || $0.root == part }
            if matching.isEmpty {
                throw ElasticsearchError(.notFound, type: "index_not_found_exception",
                                         "no such index [\(part)]: Searchlight's indexes are its domains ("
                                         + all.map(\.domain).joined(separator: ", ") + ") and their folders")
            }
            chosen += matching.filter { candidate in !chosen.contains { $0.domain == candidate.domain } }
        }
        return chosen
    }

    /// One hit: `_index` (the domain), `_id` (the path below its folder), `_source` with the
    /// fields asked for, nested as Elasticsearch nests dotted names (`{"path":{"real":…}}`).
    ///
    /// `path.real` is the root and the identifier joined with one `/`, as bytes: a name that is
    /// not UTF-8 has its invalid bytes escaped as `\udcXX`. Fields that the item
    /// lacks are written as `null`; `_score` is always `null`.
    ///
    /// - Parameters:
    ///   - indexed: The item found.
    ///   - root: Its domain's root folder on this machine.
    ///   - source: The `_source` fields asked for; none leaves `_source` out.
    /// - Returns: The hit as a JSON object.
    static func hit(_ indexed: IndexedItem, root: String, source: [ElasticsearchSearch.SourceField]) -> JSONLine {
        let item = indexed.item
        let attributes = item.attributeSet
        var groups: [(name: String, object: JSONLine)] = []
        /// Lets `body` write fields into the object of `group` (`path`, `file`, `meta`…), made the first
        /// time a group is named, so that fields asked for in any order share one nested object and the
        /// groups appear in the order they were first asked for.
        func add(_ group: String, _ body: (inout JSONLine) -> Void) {
            if let position = groups.firstIndex(where: { $0.name == group }) {
                body(&groups[position].object)
            } else {
                var object = JSONLine()
                body(&object)
                groups.append((group, object))
            }
        }
        for field in source {
            switch field {
            case .realPath:
                add("path") { $0.add("real", bytes: Array((root.hasSuffix("/") ? root : root + "/").utf8) + item.uniqueIdentifier.bytes) }
            case .fileName: add("file") { $0.add("filename", attributes.displayName) }
            case .fileSize: add("file") { $0.add("filesize", attributes.size) }
            case .contentType: add("file") { $0.add("content_type", attributes.contentType) }
            case .lastModified: add("file") { $0.add("last_modified", attributes.contentModificationDate) }
            case .created: add("file") { $0.add("created", attributes.contentCreationDate) }
            case .title: add("meta") { $0.add("title", attributes.title) }
            case .author: add("meta") { $0.add("author", attributes.authors.isEmpty ? nil : attributes.authors.joined(separator: ", ")) }
            }
        }
        var sourceObject = JSONLine()
        for group in groups { sourceObject.add(group.name, object: group.object) }
        var hit = JSONLine()
        hit.add("_index", item.domainIdentifier)
        hit.add("_id", bytes: item.uniqueIdentifier.bytes)
        hit.add("_score", nil as Double?)
        if !source.isEmpty { hit.add("_source", object: sourceObject) }
        return hit
    }
}
