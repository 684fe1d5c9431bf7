import Foundation
import Logging
import Searchlight
import Synchronization

/// The PostgreSQL index behind the synchronous ``Searchlight/IndexStore`` that the scanner,
/// the watcher and the commands use: each call runs ``PostgresIndex``'s async method through
/// a ``BlockingBridge`` and waits for it. `searchlight-serve` opens one for a `postgres://`
/// index (`searchlight` hands such commands over to it).
public final class PostgresStore: IndexStore {
    /// The asynchronous index each call waits for (the server uses it directly).
    public let index: PostgresIndex
    private let bridge: BlockingBridge
    /// Rows written and deleted since this process last vacuumed (``reclaimSpaceIfChurned()``).
    public let churn = IndexChurn()

    /// Closes the connections. Calls after this fail.
    public func close() { index.close() }

    /// The URL without password.
    public var path: String { index.location.description }

    /// Connects to the database at `url` (``PostgresIndex/init(url:readOnly:maximumConnections:retryPolicy:operationTimeout:statementTimeout:taskExecutor:environment:logger:)``).
    /// - Throws: ``PostgresIndexError``.
    /// - Parameter statementTimeout: When given, the server stops a statement that runs longer.
    public init(url: String, readOnly: Bool, statementTimeout: Duration? = nil, logger: Logger) throws {
        let bridge = BlockingBridge()
        self.bridge = bridge
        // A reader's statements stop at the statement timeout; a server that no longer answers
        // at all (a cut network) is given up soon after, not after the writers' 300 s.
        let operationTimeout = statementTimeout.map { $0 + .seconds(15) } ?? .seconds(300)
        index = try bridge.wait {
            try await PostgresIndex(url: url, readOnly: readOnly, operationTimeout: operationTimeout,
                                    statementTimeout: statementTimeout, taskExecutor: bridge, logger: logger)
        }
    }

    /// Since when the database has been unreachable, while it is (``PostgresIndex/unreachableSince``).
    public var unreachableSince: Date? { index.unreachableSince }

    /// Runs `operation` through the bridge. A database that cannot be reached is reported as
    /// a ``Searchlight/SearchlightError`` `.database` whose ``Searchlight/SearchlightError/isUnavailable``
    /// is true, with the ``PostgresIndexError`` as its cause: what the watcher retries and
    /// `serve` answers with 503. The call fails at once while the server stays away (see
    /// ``PostgresIndex/unreachableSince``), and the next call after it is back succeeds.
    func wait<T: Sendable>(_ operation: sending @escaping () async throws -> T) throws -> T {
        do {
            return try bridge.wait(operation)
        } catch {
            throw index.reported(error)
        }
    }

    deinit { index.close() }

    // MARK: Writing

    /// Applies the batch in one transaction, retried on a lost connection, and counts its churn.
    public func apply(_ batch: IndexBatch) throws {
        try countItemsBeforeChurn()
        try wait { [index] in try await index.apply(batch) }
        churn.note(batch)
    }

    /// ``PostgresIndex/deleteAllItems(inDomains:)``, waited for.
    @discardableResult public func deleteAllItems(inDomains domains: [String]) throws -> Int {
        try wait { [index] in try await index.deleteAllItems(inDomains: domains) }
    }

    /// ``PostgresIndex/deleteAllItems()``, waited for.
    @discardableResult public func deleteAllItems() throws -> Int {
        try wait { [index] in try await index.deleteAllItems() }
    }

    /// ``PostgresIndex/markUpdated(domain:date:)``, waited for.
    public func markUpdated(domain: String, date: Date) throws {
        try wait { [index] in try await index.markUpdated(domain: domain, date: date) }
    }

    // MARK: Reading

    /// ``PostgresIndex/items(withIdentifier:domain:)``, waited for.
    public func items(withIdentifier identifier: ItemIdentifier, domain: String?) throws -> [IndexedItem] {
        try wait { [index] in try await index.items(withIdentifier: identifier, domain: domain) }
    }

    /// ``PostgresIndex/itemCount(domain:)``, waited for.
    public func itemCount(domain: String?) throws -> Int {
        try wait { [index] in try await index.itemCount(domain: domain) }
    }

    /// Reads a page at a time through the bridge and hands each item to `body` on the caller's thread.
    public func forEachItem(domain: String?, _ body: (IndexedItem) throws -> Bool) throws {
        var after: (domain: String, identifier: ItemIdentifier)?
        while true {
            let start = after
            let page = try wait { [index] in
                try await index.itemPage(domain: domain, after: start, limit: Self.pageSize)
            }
            for item in page where try !body(item) { return }
            guard page.count == Self.pageSize, let last = page.last else { return }
            after = (last.item.domainIdentifier, last.item.uniqueIdentifier)
        }
    }

    static let pageSize = 1000

    /// ``PostgresIndex/domains()``, waited for.
    public func domains() throws -> [String] {
        try wait { [index] in try await index.domains() }
    }

    /// ``PostgresIndex/statistics()``, waited for.
    public func statistics() throws -> IndexStatistics {
        try wait { [index] in try await index.statistics() }
    }

    // MARK: Searching

    /// `.names` leaves out the text (PostgreSQL's name search still looks at authors).
    public func searchResults(words: [String], domain: String?, limit: Int?, scope: SearchScope) throws -> [SearchResult] {
        let items = try wait { [index] in
            try await index.search(words: words, domain: domain, limit: limit, includingText: scope == .all)
        }
        return try items.enumerated().map { offset, item in
            try SearchResult(found: item, words: words, scope: scope, checkingPhrase: offset < RankedSearch.meaningCandidates)
        }
    }

    /// ``PostgresIndex``'s ranked search, waited for: references only, no item read.
    public func searchReferences(words: [String], domain: String?, limit: Int?,
                                 scope: SearchScope) throws -> [ItemReference] {
        try wait { [index] in
            try await index.searchReferences(words: words, domain: domain, limit: limit, includingText: scope == .all)
        }
    }

    /// ``PostgresIndex``'s count of a search's matches, waited for.
    public func countMatches(words: [String], domain: String?, scope: SearchScope) throws -> Int {
        try wait { [index] in try await index.countMatches(words: words, domain: domain, includingText: scope == .all) }
    }

    /// ``PostgresIndex/spellings(of:correctingIndexed:)``, waited for.
    public func spellings(of words: [String], correctingIndexed: Bool) throws -> [[Respellings.Spelling]] {
        try wait { [index] in try await index.spellings(of: words, correctingIndexed: correctingIndexed) }
    }

    /// How PostgreSQL reads the words (no query runs).
    public func searchPlan(words: [String], domain: String?, scope: SearchScope) throws -> [String] {
        PostgresIndex.searchPlan(words: words, includingText: scope == .all)
    }

    /// ``PostgresIndex/query(_:domain:limit:)``, waited for: the query compiled to SQL.
    public func query(_ queryString: String, domain: String?, limit: Int?) throws -> [IndexedItem] {
        try wait { [index] in try await index.query(queryString, domain: domain, limit: limit) }
    }

    /// Parses the query here (a malformed one never reaches the server), then counts in PostgreSQL.
    public func countQuery(_ queryString: String, domain: String?) throws -> Int {
        let expression = try QueryExpression(parsing: queryString)
        return try wait { [index] in try await index.countQuery(expression, domain: domain) }
    }

    /// A monitor that polls each domain's count of batches (``PostgresIndex/changeMarker()``).
    public func makeChangeMonitor() throws -> any IndexChangeMonitor {
        PostgresChangeMonitor(store: self)
    }

    /// ``PostgresIndex/changeMarker()``, waited for.
    func changeMarker() throws -> [Int64] {
        try wait { [index] in try await index.changeMarker() }
    }

    /// ``PostgresIndex/explainQuery(_:domain:limit:)``, waited for: the SQL and its plan.
    public func explainQuery(_ queryString: String, domain: String?, limit: Int?) throws -> String {
        try wait { [index] in try await index.explainQuery(queryString, domain: domain, limit: limit) }
    }
}

/// Polls ``PostgresIndex/changeMarker()``: each domain's count of batches.
struct PostgresChangeMonitor: IndexChangeMonitor {
    let store: PostgresStore

    func marker() throws -> [Int64] { try store.changeMarker() }
}

extension PostgresIndexError: IndexStoreError {
    /// A URL that does not parse, or a query this index cannot answer, is the user's to fix: a usage error.
    public var isUsageError: Bool { code == .invalidLocation || code == .invalidQuery }
    /// The server stopped a statement at the handle's statement timeout.
    public var isTimeout: Bool { isStatementTimeout }
    /// The database cannot be reached now.
    public var isUnavailable: Bool { isConnectionLost }
}
