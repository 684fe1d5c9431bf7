import Foundation
import Logging
import Searchlight
import Synchronization

/// The PostgreSQL index as the library's reader and writer (``Searchlight/IndexWriter``, and
/// the file indexer's `FileIndexWriter`): both executables open one for a `postgres://` index,
/// for the watcher and the commands (``open(_:readOnly:logger:)``), and `searchlight-serve`
/// for its server.
///
/// Its work is ``PostgresIndex``'s, whose calls are async (postgres-nio). The async twins of
/// the reader's requirements (`PostgresStore+Async.swift`, what the server awaits) call them
/// directly. The synchronous requirements, which the scanner's threads, the watcher and the
/// commands call, must wait for that async work: each runs the call as a task on a dispatch
/// queue of this handle's own (``BlockingBridge``), which is also the executor of every task
/// the handle's ``PostgresIndex`` starts, and blocks its caller's thread until the task ends.
/// The caller's thread is never one that the task needs: a caller may itself be a thread of
/// Swift's pool (the watcher's services), and on a machine of two cores, two such callers
/// waiting for pool work would wait for ever.
///
/// ```swift
/// let store = try PostgresStore(url: "postgres://searchlight@db.example/index", readOnly: false, logger: logger)
/// try store.apply(batch)                                     // waits
/// let found = try await store.query("kMDItemTitle == 'report*'", domain: nil, limit: 20)  // awaits
/// ```
///
/// ## Errors and deadlines
///
/// Every synchronous call reports a database that cannot be reached as a
/// ``Searchlight/SearchlightError`` `.database` whose ``Searchlight/SearchlightError/isUnavailable``
/// is true, its cause the ``PostgresIndexError`` (``PostgresIndex/reported(_:)``): the one fault
/// the watcher waits out for both backends, and what `serve` answers with 503. Other failures
/// are ``PostgresIndexError``s. A writer's calls may wait up to 300 s for a server that stopped
/// answering; a reader opened with a query timeout has its statements stopped by the server
/// at that timeout, and gives a silent server up 15 s later.
///
/// Its ``churn`` counts the rows this process wrote since it last vacuumed
/// (``reclaimSpace()``), not other machines' writes.
///
/// ## Topics
///
/// ### Connecting
///
/// - ``init(url:readOnly:statementTimeout:logger:)``
/// - ``init(url:queryTimeout:logger:)``
/// - ``index``
/// - ``close()``
/// - ``unreachableSince``
///
/// ### Writing, waited for
///
/// - ``apply(_:)``
/// - ``deleteAllItems(inDomains:)``
/// - ``deleteAllItems()``
/// - ``markUpdated(domain:date:)``
///
/// ### Reading, waited for
///
/// - ``items(withIdentifier:domain:)``
/// - ``itemCount(domain:)``
/// - ``forEachItem(domain:_:)``
/// - ``domains()``
/// - ``statistics()``
/// - ``searchResults(words:domain:limit:scope:)``
/// - ``query(_:domain:limit:)``
public final class PostgresStore: IndexWriter {
    /// The async index this handle's calls run on.
    public let index: PostgresIndex
    /// Where the synchronous calls wait for the index's async ones; also the executor of
    /// every task the index starts.
    private let bridge: BlockingBridge
    /// Rows written and deleted since this process last vacuumed (``reclaimSpaceIfChurned()``).
    public let churn = IndexChurn()

    /// Closes the connections. Calls after this fail.
    public func close() { index.close() }

    /// The URL without password.
    public var path: String { index.location.description }

    /// Whether the database stops this handle's statements at a timeout of its own
    /// (`statement_timeout`; and a database that stopped answering is given up soon after).
    public let stopsReadsItself: Bool

    /// Connects to the database at `url` (``PostgresIndex/init(url:readOnly:maximumConnections:retryPolicy:operationTimeout:statementTimeout:taskExecutor:environment:logger:)``),
    /// waiting for the connection.
    ///
    /// - Throws: ``PostgresIndexError``.
    /// - Parameter statementTimeout: When given, the server stops a statement that runs longer.
    public init(url: String, readOnly: Bool, statementTimeout: Duration? = nil, logger: Logger) throws {
        let bridge = BlockingBridge()
        self.bridge = bridge
        stopsReadsItself = statementTimeout != nil
        index = try bridge.wait {
            try await PostgresIndex(url: url, readOnly: readOnly, operationTimeout: Self.operationTimeout(statementTimeout),
                                    statementTimeout: statementTimeout, taskExecutor: bridge, logger: logger)
        }
    }

    /// Connects read-only for `serve`, awaiting the connection: the database stops a statement
    /// at `queryTimeout` (as the server interrupts SQLite's), and a server that no longer
    /// answers at all (a cut network) is given up soon after (``stopsReadsItself``).
    ///
    /// - Throws: ``PostgresIndexError``.
    public init(url: String, queryTimeout: Duration, logger: Logger) async throws {
        let bridge = BlockingBridge()
        self.bridge = bridge
        stopsReadsItself = true
        index = try await PostgresIndex(url: url, readOnly: true, operationTimeout: Self.operationTimeout(queryTimeout),
                                        statementTimeout: queryTimeout, taskExecutor: bridge, logger: logger)
    }

    /// A reader's statements stop at the statement timeout; a server that no longer answers
    /// at all (a cut network) is given up soon after, not after the writers' 300 s.
    private static func operationTimeout(_ statementTimeout: Duration?) -> Duration {
        statementTimeout.map { $0 + .seconds(15) } ?? .seconds(300)
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

    /// Closes the index's connections when the store goes (``PostgresIndex/close()``).
    deinit { index.close() }

    // MARK: Writing

    /// Applies a batch in one transaction, waited for; its rows count toward the churn.
    ///
    /// The index's items are counted before this process's first write, as the baseline of
    /// the churn.
    ///
    /// - Parameter batch: The changes, in order.
    /// - Throws: ``Searchlight/SearchlightError`` (unavailable) when the database cannot be
    ///   reached, ``PostgresIndexError`` otherwise; nothing of the batch is applied.
    public func apply(_ batch: IndexBatch) throws {
        try countItemsBeforeChurn()
        try wait { [index] in try await index.apply(batch) }
        churn.note(batch)
    }

    /// Deletes every item of the domains, and the domains, waited for; returns how many items went.
    @discardableResult public func deleteAllItems(inDomains domains: [String]) throws -> Int {
        try wait { [index] in try await index.deleteAllItems(inDomains: domains) }
    }

    /// Deletes every item and domain this role may, waited for; returns how many items went.
    @discardableResult public func deleteAllItems() throws -> Int {
        try wait { [index] in try await index.deleteAllItems() }
    }

    /// Records when a domain was last brought up to date, waited for.
    public func markUpdated(domain: String, date: Date) throws {
        try wait { [index] in try await index.markUpdated(domain: domain, date: date) }
    }

    // MARK: Reading

    /// The items with this identifier (in one domain, or in every domain), waited for.
    public func items(withIdentifier identifier: ItemIdentifier, domain: String?) throws -> [IndexedItem] {
        try wait { [index] in try await index.items(withIdentifier: identifier, domain: domain) }
    }

    /// How many items the index holds (in one domain, or in every domain), waited for.
    public func itemCount(domain: String?) throws -> Int {
        try wait { [index] in try await index.itemCount(domain: domain) }
    }

    /// Reads a page at a time through the bridge and hands each item to `body` on the caller's thread.
    ///
    /// Each page of ``pageSize`` items is one statement, waited for; `body` runs between
    /// pages, so it may itself read the index.
    ///
    /// - Parameters:
    ///   - domain: Only this domain, when given.
    ///   - body: Called with each item, by domain then identifier; returns `false` to stop.
    /// - Throws: What `body` throws; the index's errors as ``apply(_:)`` reports them.
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

    /// The items ``forEachItem(domain:_:)`` reads per statement.
    static let pageSize = 1000

    /// The index's domains, in byte order of their names, waited for.
    public func domains() throws -> [String] {
        try wait { [index] in try await index.domains() }
    }

    /// What the index holds, per domain, and its size, waited for.
    public func statistics() throws -> IndexStatistics {
        try wait { [index] in try await index.statistics() }
    }

    // MARK: Searching

    /// `.names` leaves out the text (PostgreSQL's name search still looks at authors).
    public func searchResults(words: [String], domain: String?, limit: Int?, scope: SearchScope) throws -> [SearchResult] {
        try wait { [index] in try await index.searchResults(words: words, domain: domain, limit: limit, scope: scope) }
    }

    /// The domains and identifiers of a ranked search, without reading the items, waited for.
    public func searchReferences(words: [String], domain: String?, limit: Int?,
                                 scope: SearchScope) throws -> [ItemReference] {
        try wait { [index] in
            try await index.searchReferences(words: words, domain: domain, limit: limit, includingText: scope == .all)
        }
    }

    /// How many items a ranked search finds, counted without ranking, waited for.
    public func countMatches(words: [String], domain: String?, scope: SearchScope) throws -> Int {
        try wait { [index] in try await index.countMatches(words: words, domain: domain, includingText: scope == .all) }
    }

    /// The spellings the index holds for each word, best first, waited for.
    public func spellings(of words: [String], correctingIndexed: Bool) throws -> [[Respellings.Spelling]] {
        try wait { [index] in try await index.spellings(of: words, correctingIndexed: correctingIndexed) }
    }

    /// The respellings some item may match, waited for
    /// (``PostgresIndex/plausibleRespellings(_:)``).
    public func plausibleRespellings(_ respellings: [[String]]) throws -> [[String]] {
        try wait { [index] in try await index.plausibleRespellings(respellings) }
    }

    /// How each word of a search is read (`search --explain`): said without asking the database.
    public func searchPlan(words: [String], domain: String?, scope: SearchScope) throws -> [String] {
        PostgresIndex.searchPlan(words: words, includingText: scope == .all)
    }

    /// The items matching a query string, most recently modified first, waited for.
    public func query(_ queryString: String, domain: String?, limit: Int?) throws -> [IndexedItem] {
        try wait { [index] in try await index.query(queryString, domain: domain, limit: limit) }
    }

    /// The items matching a parsed query, most recently modified first, waited for.
    public func query(_ expression: QueryExpression, domain: String?, limit: Int?) throws -> [IndexedItem] {
        try wait { [index] in try await index.query(expression, domain: domain, limit: limit) }
    }

    /// How many items match a query string, waited for.
    public func countQuery(_ queryString: String, domain: String?) throws -> Int {
        try countQuery(QueryExpression(parsing: queryString), domain: domain)
    }

    /// How many items match a parsed query, waited for.
    public func countQuery(_ expression: QueryExpression, domain: String?) throws -> Int {
        try wait { [index] in try await index.countQuery(expression, domain: domain) }
    }

    /// Each domain's count of batches (``PostgresIndex/changeMarker()``), waited for.
    public func changeMarker() throws -> [Int64] {
        try wait { [index] in try await index.changeMarker() }
    }

    /// What runs for a query (`query --explain`): the SQL and PostgreSQL's plan, waited for.
    public func explainQuery(_ queryString: String, domain: String?, limit: Int?) throws -> String {
        try wait { [index] in try await index.explainQuery(queryString, domain: domain, limit: limit) }
    }
}

extension PostgresIndexError: IndexStoreError {
    /// A URL that does not parse, or a query this index cannot answer, is the user's to fix: a usage error.
    public var isUsageError: Bool { code == .invalidLocation || code == .invalidQuery }
    /// The server stopped a statement at the handle's statement timeout.
    public var isTimeout: Bool { isStatementTimeout }
    /// The database cannot be reached now.
    public var isUnavailable: Bool { isConnectionLost }
}
