import GRDB
import Logging
import Searchlight
import SearchlightFiles
import Synchronization

/// The SQLite index as the server reads it: a few read-only handles, each lent to one request
/// at a time, read through GRDB's async reads (``Searchlight/SearchableIndex/asyncRead(_:)``).
///
/// SQLite runs one statement at a time per connection: with several handles, concurrent
/// searches run side by side (readers never wait for the watcher's writes in WAL mode), on
/// the handles' own queues while the requests' tasks are suspended. One handle per core keeps
/// both cores busy without making searches wait for each other's pages. Cancelling a read
/// (the server's query timeout) interrupts its statement, and only its own: a handle serves
/// one request at a time.
public final class SQLiteReaders: ServedIndex {
    private struct State {
        var idle: [SearchableIndex]
        var waiting: [CheckedContinuation<SearchableIndex, Never>] = []
    }

    private let state: Mutex<State>
    /// A connection of its own for `PRAGMA data_version`, which counts the commits of *other*
    /// connections: asked of one connection every time, its changes mean a commit.
    private let changes: DatabaseQueue

    /// Opens `count` read-only handles on the index at `path`.
    /// - Throws: ``Searchlight/SearchlightError`` when there is no index there or it cannot be opened.
    public init(path: String, count: Int, logger: Logger) throws {
        let handles = try (0..<max(count, 1)).map { _ in try SearchableIndex(path: path, readOnly: true, logger: logger) }
        state = Mutex(State(idle: handles))
        do {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.label = "searchlight.changes"
            changes = try DatabaseQueue(path: path, configuration: configuration)
        } catch let error as DatabaseError {
            throw SearchlightError(.cannotOpenIndex, "cannot follow the index's changes", path: path, cause: .database(error))
        }
    }

    /// Runs `body` with a handle of its own, in one async read of it.
    func read<T: Sendable>(_ body: @escaping @Sendable (SearchableIndex) throws -> T) async throws -> T {
        let index = await checkOut()
        defer { checkIn(index) }
        return try await index.asyncRead(body)
    }

    /// ``Searchlight/SearchableIndex``'s search with search words, on a handle lent to this read.
    public func searchResults(_ search: SearchWords, domain: String?, limit: Int?) async throws -> [SearchResult] {
        try await read { try $0.searchResults(search, domain: domain, limit: limit) }
    }

    /// ``Searchlight/SearchableIndex``'s ranking of the words as typed, on a handle lent to this read.
    public func typedResults(_ search: SearchWords, domain: String?, limit: Int?) async throws -> [SearchResult] {
        try await read { try $0.typedResults(search, domain: domain, limit: limit) }
    }

    /// ``Searchlight/SearchableIndex``'s nearest items by meaning, on a handle lent to this read.
    public func meaningResults(question: [Float], model: String, domain: String?, limit: Int) async throws -> [SearchResult] {
        try await read { try $0.meaningResults(question: question, model: model, domain: domain, limit: limit) }
    }

    /// A query string, parsed and run on a handle lent to this read.
    public func query(_ queryString: String, domain: String?, limit: Int?) async throws -> [IndexedItem] {
        try await read { try $0.query(queryString, domain: domain, limit: limit) }
    }

    /// A parsed query, run on a handle lent to this read.
    public func query(_ expression: QueryExpression, domain: String?, limit: Int?) async throws -> [IndexedItem] {
        try await read { try $0.query(expression, domain: domain, limit: limit) }
    }

    /// How many items a parsed query matches, counted on a handle lent to this read.
    public func count(_ expression: QueryExpression, domain: String?) async throws -> Int {
        try await read { try $0.countQuery(expression, domain: domain) }
    }

    /// One item, read on a handle lent to this read.
    public func item(_ identifier: ItemIdentifier, domain: String) async throws -> IndexedItem? {
        try await read { try $0.item(identifier, domain: domain) }
    }

    /// An item's thumbnail, read on a handle lent to this read.
    public func thumbnail(of identifier: ItemIdentifier, domain: String) async throws -> Thumbnail? {
        try await read { try $0.thumbnail(of: identifier, domain: domain) }
    }

    /// What the index holds, per domain, counted on a handle lent to this read.
    public func statistics() async throws -> IndexStatistics {
        try await read { try $0.statistics() }
    }

    /// Each domain's indexer state, read on a handle lent to this read.
    public func domainStates() async throws -> [String: DomainState] {
        try await read { try $0.domainStates() }
    }

    /// None: an SQLite index holds this machine's folders.
    public func domainHosts() async throws -> [String: String] { [:] }

    /// One read: the domains' states.
    public func domainOrigins() async throws -> DomainOrigins {
        DomainOrigins(states: try await domainStates(), hosts: [:])
    }

    /// `PRAGMA data_version` of the connection kept for it: it moves with every other connection's commit.
    public func changeMarker() async throws -> [Int64] {
        [try await changes.read { db in try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0 }]
    }

    private func checkOut() async -> SearchableIndex {
        if let index = state.withLock({ $0.idle.popLast() }) { return index }
        return await withCheckedContinuation { continuation in
            let index: SearchableIndex? = state.withLock { state in
                if let index = state.idle.popLast() { return index }
                state.waiting.append(continuation)
                return nil
            }
            if let index { continuation.resume(returning: index) }
        }
    }

    private func checkIn(_ index: SearchableIndex) {
        let waiter: CheckedContinuation<SearchableIndex, Never>? = state.withLock { state in
            if state.waiting.isEmpty {
                state.idle.append(index)
                return nil
            }
            return state.waiting.removeFirst()
        }
        waiter?.resume(returning: index)
    }
}
