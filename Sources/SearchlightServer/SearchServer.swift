import Foundation
import Hummingbird
import Logging
import NIOCore
import Searchlight
import SearchlightFiles
import SearchlightJSON
import ServiceLifecycle

/// The web page and JSON API of `searchlight serve` (Docs/Contract.md#web-page), as a `Service`.
///
/// It reads the index through the async twins of ``SearchlightFiles/FileIndexReader``, which no
/// thread waits for (the SQLite index's GRDB reads on a few read-only connections, or the
/// PostgreSQL index's own connections) and
/// follows the index's changes for the page's live updates (``IndexChanges``); it never writes. Run it in
/// a `ServiceGroup`, alone or beside a watcher that writes the same index:
///
/// ```swift
/// let server = try SearchServer(indexPath: path, configuration: .init(), logger: logger)
/// try await ServiceGroup(services: [server], gracefulShutdownSignals: [.sigterm], logger: logger).run()
/// ```
///
/// ## Overview
///
/// The server answers four kinds of requests, all described in `/api/openapi.json`: the page
/// and its assets (`/`), searches and queries (`/api/search`, `/api/query`), items, thumbnails
/// and files (`/api/items/…`, `/api/thumbnails/…`, `/api/files/…`), and the index's status and
/// changes (`/api/status`, `/api/events`, a stream of server-sent events). With
/// ``Configuration/elasticsearchPort`` it also speaks the part of Elasticsearch's search API
/// that Samba's Spotlight backend uses, on a listener of its own.
///
/// Every read has a deadline (``Configuration/queryTimeout``): past it the read's task is
/// cancelled, which interrupts an SQLite statement, and the client gets 503; a PostgreSQL
/// index stops its own statements at the same timeout. Answers to recent searches and queries
/// are kept (``Configuration/resultCacheBytes``) and given again while the index's change
/// marker is unchanged.
///
/// Access: on a loopback address the server answers whoever connects from this machine; on
/// any other address it refuses to start without a ``Configuration/token``, which every
/// request must then carry. Opening a file on the desktop (`POST /api/open/…`) always needs
/// ``openToken``, which the page carries. On a shared index with
/// ``Configuration/signInURL``, each request signs in as a database role and reads only what
/// that person may read.
///
/// The class is `Sendable`: its mutable state (the caches, the change monitor) sits behind
/// locks of their own, and one instance serves every connection. ``makeRouter()`` and ``makeApplication()`` expose the
/// routes and the Hummingbird application for a caller (or a test) that runs them itself.
///
/// ## Topics
///
/// ### Making a server
///
/// - ``init(indexPath:configuration:logger:onListening:onElasticsearchListening:)``
/// - ``init(index:configuration:logger:onListening:onElasticsearchListening:)``
/// - ``Configuration``
///
/// ### Running it
///
/// - ``run()``
/// - ``makeApplication()``
/// - ``makeRouter()``
/// - ``openToken``
public final class SearchServer: Service, Sendable {
    /// Where the server listens, who may use it, and how long a query may take.
    ///
    /// ```swift
    /// var configuration = SearchServer.Configuration()
    /// configuration.port = 0                     // any free port: onListening says which
    /// configuration.queryTimeout = .seconds(2)
    /// configuration.maximumLimit = 200
    /// ```
    public struct Configuration: Sendable {
        /// The address to listen on; anything but a loopback address needs a ``token``.
        public var host = ServerDefaults.host
        /// The port; 0 picks a free one (see ``SearchServer/init(indexPath:configuration:logger:onListening:onElasticsearchListening:)``).
        public var port = ServerDefaults.port
        /// When set, every request must carry it: `Authorization: Bearer TOKEN`, or the cookie
        /// that `/?token=TOKEN` sets. Also the token of `POST /api/open`.
        ///
        /// Compared in constant time. An empty string counts as no token.
        public var token: String?
        /// A query or search running longer is interrupted and answered with 503.
        ///
        /// The answer comes at the deadline only when the read stops when cancelled, as an SQLite
        /// statement does; a PostgreSQL index is given the same timeout as its statements' own.
        public var queryTimeout: Duration = .seconds(ServerDefaults.queryTimeoutSeconds)
        /// Read-only handles on an SQLite index: searches that run side by side, one per core
        /// (more only make searches share the cores and evict each other's pages).
        public var readers = max(2, ProcessInfo.processInfo.activeProcessorCount)
        /// How often the index is checked for changes while a page listens.
        ///
        /// One read of the change marker per interval, shared by every listening page; none while no
        /// page listens.
        public var changeInterval: Duration = .milliseconds(500)
        /// At most this many results per search or query.
        ///
        /// A request that asks for more gets this many, without an error.
        public var maximumLimit = 1000
        /// Bytes of recent search and query answers kept, given again while the index has not
        /// changed (for at most 10 s); 0 keeps none.
        public var resultCacheBytes = 8 << 20
        /// The items opened before, which rank higher, and where the page's openings are kept:
        /// those of the person running the server.
        ///
        /// The page's `POST /api/open` records each opening here.
        public var history = OpenHistory.standard()
        /// The question's encoder of search by meaning, when a model is installed (Docs/Contract.md#search-by-meaning).
        ///
        /// `nil`: searches by meaning are not offered, and words are searched as words only.
        public var questionEncoder: QuestionEncoder?
        /// The port of the Elasticsearch search API that Samba's Spotlight backend speaks
        /// (0 picks a free one); `nil`: not served.
        public var elasticsearchPort: Int?
        /// Where the Elasticsearch endpoint listens: a loopback address, since Samba sends no
        /// credentials.
        public var elasticsearchHost = ServerDefaults.host
        /// On a shared index (its `postgres://` URL): every request signs in with HTTP Basic as
        /// a database role, and reads as that role (``PersonIndexes``), so that each person sees
        /// what they may read. `nil`: no sign-in. Loopback only (behind a TLS proxy).
        public var signInURL: String?

        /// The defaults (``SearchlightJSON/ServerDefaults``): loopback, port 8765, no token, 5 s per query.
        public init() {}

        /// Whether ``host`` is a loopback address.
        public var isLoopback: Bool { ServerAddress.isLoopback(host) }
    }

    /// Where the server listens, who may use it, and how long a query may take.
    public let configuration: Configuration
    /// The token `POST /api/open` needs: the configured token, else one made for this run and
    /// written into the page.
    ///
    /// Anyone who can read the page can read the token: it keeps other web sites' pages (which
    /// cannot read this page) from opening files, not people on this machine.
    public let openToken: String
    /// What the handlers read, each read awaited.
    ///
    /// Requests of a signed-in person read through their own handle instead (``index(for:)``).
    let index: any FileIndexReader
    /// The people signed in, with ``Configuration/signInURL``.
    let people: PersonIndexes?
    /// The index's change marker, polled while a page listens to `/api/events`.
    let changes: IndexChanges
    /// Recent search and query answers, by request, while the index has not changed.
    ///
    /// Bounded by ``Configuration/resultCacheBytes``; the oldest answers go first.
    let results: ResultCache
    /// The hits of recent searches of the Elasticsearch endpoint, read once for all their pages.
    let elasticsearchHits = ElasticsearchHits()
    /// The page's HTML, with ``openToken`` written into it.
    let page: Page
    /// The items opened before (``Configuration/history``).
    var history: OpenHistory { configuration.history }
    /// Where requests that fail, and the listeners, are reported.
    let logger: Logger
    /// Called with the host and port once the page's listener accepts connections.
    private let onListening: @Sendable (String, Int) async -> Void
    /// Called with the host and port once the Elasticsearch listener accepts connections.
    let onElasticsearchListening: @Sendable (String, Int) async -> Void

    /// Prepares a server for the SQLite index at `indexPath` (which must exist), read through
    /// a read-only handle whose ``Configuration/readers`` connections run searches side by side
    /// (``Searchlight/SearchableIndex/init(path:readOnly:concurrentReads:logger:)``).
    ///
    /// - Parameters:
    ///   - indexPath: The index file; the server never creates nor writes it.
    ///   - configuration: Where to listen, who may use it, the deadlines and caches.
    ///   - logger: Where the server and the index report.
    ///   - onListening: Called with the host and the port once the server accepts connections.
    ///   - onElasticsearchListening: The same for the Elasticsearch endpoint, when there is one.
    /// - Throws: ``APIError`` (400, a usage error) for a non-loopback host without a token;
    ///   ``SearchlightError`` when the index cannot be opened.
    public convenience init(indexPath: String, configuration: Configuration, logger: Logger,
                            onListening: @escaping @Sendable (String, Int) async -> Void = { _, _ in },
                            onElasticsearchListening: @escaping @Sendable (String, Int) async -> Void = { _, _ in }) throws {
        try Self.check(configuration)
        try self.init(index: SearchableIndex(path: indexPath, readOnly: true, concurrentReads: configuration.readers,
                                             logger: logger),
                      configuration: configuration, logger: logger, onListening: onListening,
                      onElasticsearchListening: onElasticsearchListening)
    }

    /// Prepares a server for any index: the PostgreSQL index (`PostgresStore`, opened with
    /// ``Configuration/queryTimeout`` as its statements' timeout, which stop there themselves),
    /// or the SQLite index.
    ///
    /// Nothing listens yet: ``run()`` binds the addresses. Without a configured token, a
    /// random one (32 random bytes, in hex) is made for `POST /api/open`.
    ///
    /// ```swift
    /// let store = try PostgresStore(url: url, readOnly: true, statementTimeout: .seconds(5), logger: logger)
    /// let server = try SearchServer(index: store, configuration: .init(), logger: logger) { host, port in
    ///     print("listening on http://\(host):\(port)")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - index: The index to read; the server never writes.
    ///   - configuration: Where to listen, who may use it, the deadlines and caches.
    ///   - logger: Where the server reports.
    ///   - onListening: Called with the host and the port once the server accepts connections.
    ///   - onElasticsearchListening: The same for the Elasticsearch endpoint, when there is one.
    /// - Throws: ``APIError`` (400, a usage error) for a non-loopback host without a token.
    public init(index: any FileIndexReader, configuration: Configuration, logger: Logger,
                onListening: @escaping @Sendable (String, Int) async -> Void = { _, _ in },
                onElasticsearchListening: @escaping @Sendable (String, Int) async -> Void = { _, _ in }) throws {
        try Self.check(configuration)
        self.configuration = configuration
        self.logger = logger
        self.onListening = onListening
        self.onElasticsearchListening = onElasticsearchListening
        openToken = configuration.token.flatMap { $0.isEmpty ? nil : $0 } ?? Self.randomToken()
        self.index = index
        people = configuration.signInURL.map {
            PersonIndexes(url: $0, queryTimeout: configuration.queryTimeout, logger: logger)
        }
        results = ResultCache(capacity: configuration.resultCacheBytes)
        changes = IndexChanges(marker: { try await index.changeMarker() }, interval: configuration.changeInterval,
                               logger: logger)
        page = Page(openToken: openToken)
    }

    /// Refuses a non-loopback host without a token, and an Elasticsearch endpoint off loopback.
    ///
    /// Run by both initializers, before anything is opened.
    ///
    /// - Throws: ``APIError`` 400 for a non-loopback host without a token or sign-in, a sign-in
    ///   off loopback, or an Elasticsearch endpoint off loopback.
    static func check(_ configuration: Configuration) throws(APIError) {
        if !configuration.isLoopback && (configuration.token ?? "").isEmpty && configuration.signInURL == nil {
            throw APIError(.badRequest, "--host \(configuration.host) is not a loopback address: "
                           + "give a token (--token or $SEARCHLIGHT_TOKEN) that every request must carry")
        }
        if configuration.signInURL != nil, !configuration.isLoopback {
            throw APIError(.badRequest, "--sign-in sends passwords (HTTP Basic): listen on a loopback address "
                           + "and put a TLS proxy in front for other machines")
        }
        if configuration.elasticsearchPort != nil, !ServerAddress.isLoopback(configuration.elasticsearchHost) {
            throw APIError(.badRequest, "--elasticsearch \(configuration.elasticsearchHost) is not a loopback address: "
                           + "Samba sends no credentials, so the endpoint listens on this machine only")
        }
    }

    /// What a request reads: the signed-in person's reads, else the server's.
    ///
    /// - Parameter context: The request's context, with the person the access middleware signed
    ///   in, if any.
    func index(for context: ServerContext) -> any FileIndexReader {
        context.person?.index ?? index
    }

    /// Runs `body` (a read of the index), stopped at the query timeout: its task is cancelled,
    /// which interrupts an SQLite statement; a store that stops its reads itself
    /// (``Searchlight/IndexReader/stopsReadsItself``: PostgreSQL's `statement_timeout`) is waited for.
    ///
    /// The deadline's task and `body` race in a task group; the group waits for `body` to notice
    /// its cancellation before the 503 goes out, so a read that ignores cancellation delays the
    /// answer.
    ///
    /// - Throws: ``APIError`` 503 when the deadline passed, or the store's own deadline
    ///   stopped the statement; whatever `body` throws otherwise.
    func read<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let deadline = configuration.queryTimeout
        let timedOut = APIError(.serviceUnavailable,
                                "the query took longer than \(deadline) and was stopped; make it more selective")
        do {
            if index.stopsReadsItself { return try await body() }
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask { try await body() }
                // `nil`: the deadline passed first.
                group.addTask {
                    try await Task.sleep(for: deadline)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let value = first else { throw timedOut }
                return value
            }
        } catch let error as any IndexStoreError where error.isTimeout {
            throw timedOut
        }
    }

    /// The router: the page, the API, and the access rules in front of both.
    ///
    /// For a test, or an application that mounts the routes in a Hummingbird application of
    /// its own; the Elasticsearch endpoint is not among them.
    public func makeRouter() -> Router<ServerContext> {
        let router = Router(context: ServerContext.self)
        router.addMiddleware {
            AccessMiddleware(token: configuration.token.flatMap { $0.isEmpty ? nil : $0 },
                             boundHost: configuration.host, people: people)
        }
        addPageRoutes(to: router)
        addAPIRoutes(to: router)
        return router
    }

    /// The Hummingbird application, listening where the configuration says.
    ///
    /// Only the page's listener: ``run()`` adds the Elasticsearch listener beside it when it is
    /// configured. Nothing is bound until the application runs.
    public func makeApplication() -> some ApplicationProtocol {
        let onListening = onListening
        let host = configuration.host
        return Application(
            router: makeRouter(),
            configuration: .init(address: .hostname(host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in
                await onListening(host, channel.localAddress?.port ?? 0)
            },
            logger: logger)
    }

    /// Serves until the task is cancelled or a graceful shutdown (SIGTERM, SIGINT) is triggered;
    /// open event streams end first, so that the connections close and shutdown completes.
    ///
    /// The change monitor (``IndexChanges``) runs beside the listeners and ends with them.
    ///
    /// - Throws: What Hummingbird throws when an address cannot be bound (a port in use).
    public func run() async throws {
        let application = makeApplication()
        try await withGracefulShutdownHandler {
            // The monitor ends with the application: cancelled if it throws, finished if it returns.
            async let monitor: Void = changes.run()
            // Both listeners stop at the graceful shutdown, which their tasks inherit.
            let elasticsearch = makeElasticsearchApplication()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await application.run() }
                if let elasticsearch { group.addTask { try await elasticsearch.run() } }
                try await group.waitForAll()
            }
            changes.finish()
            await monitor
        } onGracefulShutdown: {
            self.changes.finish()
        }
    }

    /// 32 random bytes as hex.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return Hexadecimal.lowercase((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
