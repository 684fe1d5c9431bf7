import Foundation

/// What the library offers any application that reads an index, whatever stores it: the
/// SQLite file of ``SearchableIndex``, or the shared PostgreSQL database of
/// Docs/Contract.md#shared-index (`SearchlightPostgres`' `PostgresStore`, which
/// `searchlight-serve` links and `searchlight` does not): items, searches, queries, statistics,
/// meaning, and a marker of the index's changes. ``IndexWriter`` refines it with writes, as
/// GRDB's `DatabaseWriter` refines `DatabaseReader`.
///
/// What a file indexer keeps beside the items (change stamps, failures, its state of each
/// domain, the machine a domain's folder is on) is not here: `SearchlightFiles` refines this
/// pair (`FileIndexReader`, `FileIndexWriter`). Docs/Architecture.md draws the family.
///
/// The requirements are synchronous, as ``SearchableIndex``'s methods are: the scanner, the
/// watcher and the commands call them from threads of their own, and the SQLite index conforms
/// with the methods it has. What the server awaits has an async twin of the same name, as GRDB's
/// `read` has: the SQLite index runs the synchronous method in one ``asyncRead(_:)`` (GRDB's
/// async read, which a cancelled task interrupts), the PostgreSQL index awaits postgres-nio, so
/// that no thread of Swift's pool waits for a read (`IndexReader+Async.swift` says why each
/// conformer states its twins).
///
/// ```swift
/// let reader: any IndexReader = try SearchableIndex(path: path, readOnly: true)
/// let results = try reader.searchResults(words: ["report"], domain: nil, limit: 20, scope: .all)
/// let same = try await reader.searchResults(SearchWords(parsing: "report"), domain: nil, limit: 20)
/// ```
///
/// ## Topics
///
/// ### Reading items
///
/// - ``items(withIdentifier:domain:)``
/// - ``item(_:domain:)``
/// - ``thumbnail(of:domain:)``
/// - ``itemCount(domain:)``
/// - ``forEachItem(domain:_:)``
/// - ``domains()``
/// - ``statistics()``
///
/// ### Searching by words
///
/// - ``searchResults(words:domain:limit:scope:)``
/// - ``searchReferences(words:domain:limit:scope:)``
/// - ``searchIdentifiers(words:domain:limit:scope:)``
/// - ``countMatches(words:domain:scope:)``
/// - ``spellings(of:correctingIndexed:)``
///
/// ### Querying
///
/// - ``query(_:domain:limit:)``
/// - ``countQuery(_:domain:)``
/// - ``explainQuery(_:domain:limit:)``
///
/// ### Searching by meaning
///
/// - ``meaningWork(model:after:limit:)``
/// - ``hasMeaning(digest:)``
/// - ``meaningProgress(model:)``
/// - ``meaningResults(question:model:domain:limit:)``
///
/// ### Following changes and stopping reads
///
/// - ``changeMarker()``
/// - ``interrupt()``
/// - ``stopsReadsItself``
/// - ``close()``
///
/// ### Reading from async code
///
/// - ``asyncRead(_:)``
public protocol IndexReader: AnyObject, Sendable {
    /// What names the index in messages and `status`: a file's path, or a URL without password.
    var path: String { get }

    // MARK: Reading

    /// The items with this identifier (in one domain, or in every domain), thumbnail bytes included.
    ///
    /// - Parameters:
    ///   - identifier: The identifier to look for.
    ///   - domain: Only this domain; `nil`: every domain.
    /// - Returns: The items that are not expired, by domain name.
    /// - Throws: ``SearchlightError`` or the store's ``IndexStoreError`` when the index cannot be read.
    func items(withIdentifier identifier: ItemIdentifier, domain: String?) throws -> [IndexedItem]
    /// The item with this identifier in this domain, thumbnail bytes included.
    func item(_ identifier: ItemIdentifier, domain: String) throws -> IndexedItem?
    /// The thumbnail of an item, if it has one.
    func thumbnail(of identifier: ItemIdentifier, domain: String) throws -> Thumbnail?
    /// How many items the index holds (in one domain, or in every domain).
    ///
    /// - Parameter domain: Only this domain; `nil`: every domain.
    /// - Returns: The number of items that are not expired.
    /// - Throws: ``SearchlightError`` or the store's ``IndexStoreError`` when the index cannot be read.
    func itemCount(domain: String?) throws -> Int
    /// Every item, by domain then identifier; `body` returns `false` to stop.
    ///
    /// The items are read a part at a time, never all held in memory, without their thumbnail
    /// bytes.
    ///
    /// - Parameters:
    ///   - domain: Only this domain; `nil`: every domain.
    ///   - body: Called with each item; returns `false` to stop.
    /// - Throws: What `body` throws; the index's errors as the other reads.
    func forEachItem(domain: String?, _ body: (IndexedItem) throws -> Bool) throws
    /// The index's domains (the `domain` table), in byte order of their names.
    func domains() throws -> [String]
    /// What the index holds, per domain, and its size (`searchlight status`).
    ///
    /// - Returns: Each domain's items, failures, thumbnails and last update, and the bytes the
    ///   index takes.
    /// - Throws: ``SearchlightError`` or the store's ``IndexStoreError`` when the index cannot be read.
    func statistics() throws -> IndexStatistics

    // MARK: Searching

    /// Docs/Contract.md#search: every word a prefix of some word of the item, ranked, with where each matched.
    ///
    /// ```swift
    /// let results = try store.searchResults(words: ["quarterly", "rep"], domain: nil, limit: 20, scope: .all)
    /// results.first?.matchedIn  // .name
    /// ```
    ///
    /// - Parameters:
    ///   - words: The words as typed; words with no letter or digit find nothing.
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many results, the best first; `nil`: all of them.
    ///   - scope: ``SearchScope/all``, or ``SearchScope/names`` for names, titles, keywords and
    ///     folders only.
    /// - Throws: ``SearchlightError`` or the store's ``IndexStoreError`` when the index cannot be read.
    func searchResults(words: [String], domain: String?, limit: Int?, scope: SearchScope) throws -> [SearchResult]
    /// The domains and identifiers of ``searchResults(words:domain:limit:scope:)``, in the
    /// same order, without reading the items: for output that prints paths only.
    func searchReferences(words: [String], domain: String?, limit: Int?, scope: SearchScope) throws -> [ItemReference]
    /// How many items ``searchResults(words:domain:limit:scope:)`` would return without a limit,
    /// counted without ranking them (`search --count`).
    func countMatches(words: [String], domain: String?, scope: SearchScope) throws -> Int
    /// The spellings the index holds for each of `words` (folded words), best first: the word
    /// itself when some indexed word starts with it, then the indexed words a typo away
    /// (``SpellingNeighbors``), looked for only when no indexed word starts with the word or
    /// when `correctingIndexed`; a word never corrected kept as it is (``Respellings``).
    func spellings(of words: [String], correctingIndexed: Bool) throws -> [[Respellings.Spelling]]
    /// The respellings (each a search's words, ``Respellings/next(limit:)``) that some item may
    /// match, in their order: every one a search finds something for is among them, so that a
    /// search that found nothing tries only those. All of them, by default: a store whose
    /// searches that find nothing cost little needs no cheaper test.
    func plausibleRespellings(_ respellings: [[String]]) throws -> [[String]]
    /// How each word of a search is read, one line per word, for `search --explain`: none
    /// when the store has nothing to say.
    func searchPlan(words: [String], domain: String?, scope: SearchScope) throws -> [String]
    /// Which way a ranked search of `words` with `limit` finds its results, one line for
    /// `search --explain`: `nil` when the store has nothing to say.
    func searchPath(words: [String], domain: String?, limit: Int?, scope: SearchScope) throws -> String?
    /// Docs/Contract.md#query-language: the items matching a query string, most recently modified first.
    ///
    /// - Parameters:
    ///   - queryString: A Spotlight query string (`title == "report*"cd && size > 1000`).
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many items; `nil`: all of them.
    /// - Throws: ``QueryParseError`` when the query is malformed, or the store's
    ///   ``IndexStoreError`` whose ``IndexStoreError/isUsageError`` is `true` when it cannot
    ///   answer a well-formed one (exit status 64 either way); ``SearchlightError`` or the
    ///   store's ``IndexStoreError`` when the index cannot be read.
    func query(_ queryString: String, domain: String?, limit: Int?) throws -> [IndexedItem]
    /// The items matching a parsed query, most recently modified first (``query(_:domain:limit:)``
    /// without parsing the string again).
    func query(_ expression: QueryExpression, domain: String?, limit: Int?) throws -> [IndexedItem]
    /// How many items match a query string (`query --count`).
    ///
    /// - Returns: The number of matching items, counted without reading them.
    /// - Throws: ``QueryParseError`` when the query is malformed; the index's errors as
    ///   ``query(_:domain:limit:)`` says.
    func countQuery(_ queryString: String, domain: String?) throws -> Int
    /// How many items match a parsed query.
    func countQuery(_ expression: QueryExpression, domain: String?) throws -> Int
    /// What runs for a query (`query --explain`).
    ///
    /// - Returns: The statement, its parameters, and the database's plan, one line each, for
    ///   people; nothing is fetched.
    /// - Throws: ``QueryParseError`` when the query is malformed; the index's errors as
    ///   ``query(_:domain:limit:)`` says.
    func explainQuery(_ queryString: String, domain: String?, limit: Int?) throws -> String

    // MARK: Meaning (Docs/Contract.md#search-by-meaning)

    /// Items with text that wait for vectors of `model` (none yet, a changed text, another
    /// model), by ``MeaningWork/key``, after `key` (empty: from the first), at most `limit`.
    func meaningWork(model: String, after key: [UInt8], limit: Int) throws -> [MeaningWork]
    /// Whether vectors of `digest` are stored (an item with the same text has them).
    func hasMeaning(digest: [UInt8]) throws -> Bool
    /// How far the pass is for `model`, and what the vectors take.
    func meaningProgress(model: String?) throws -> MeaningProgress
    /// The `limit` items nearest to `question` (a unit vector of `model`), best first, each
    /// saying ``SearchResult/Field/meaning`` and its ``SearchResult/similarity``.
    func meaningResults(question: [Float], model: String, domain: String?, limit: Int) throws -> [SearchResult]

    // MARK: Following changes

    /// A value that differs after any commit by any process (SQLite's `PRAGMA data_version`,
    /// asked of one connection of the handle's own; the PostgreSQL index's batch counts): what
    /// the page's live updates, `query --live` and the server's cache of answers poll before
    /// they read again. Only equality means anything.
    ///
    /// ```swift
    /// var seen = try index.changeMarker()
    /// // later
    /// if try index.changeMarker() != seen { /* read again */ }
    /// ```
    func changeMarker() throws -> [Int64]
    /// Stops what this handle is reading now, from another thread: the read fails. The SQLite
    /// index interrupts its statement; a store whose statements have a deadline of their own
    /// (the PostgreSQL index's statement timeout) need do nothing (the default).
    func interrupt()
    /// Whether this handle's statements stop at a deadline of their own (the PostgreSQL
    /// index's `statement_timeout`, and its own timeout for a database that stopped answering):
    /// the server then waits for a read rather than cancelling it at its query timeout.
    /// Default: `false`.
    var stopsReadsItself: Bool { get }
    /// Closes the index before the process ends: a SQLite index then leaves no write-ahead
    /// log behind. Calls after this fail.
    func close()

    // MARK: Async twins (each conformer states them: IndexReader+Async.swift says why)

    /// Runs `body`, which reads this index synchronously, without blocking a thread of Swift's
    /// pool: the calling task is suspended meanwhile, and cancelling it stops the read (the
    /// SQLite index: GRDB's async read, whose statement `sqlite3_interrupt` stops, every read of
    /// `body` on one connection and one snapshot). Default: a dispatch thread of its own.
    ///
    /// ```swift
    /// let count = try await index.asyncRead { try $0.itemCount(domain: nil) }
    /// ```
    /// - Throws: What `body` throws; the store's error or `CancellationError` when the task was
    ///   cancelled.
    func asyncRead<T: Sendable>(_ body: @escaping @Sendable (Self) throws -> T) async throws -> T

    /// ``searchResults(_:domain:limit:scope:)`` of everything, awaited: a search typed with
    /// Spotlight's search words (``SearchWords``), respelled when it finds nothing.
    func searchResults(_ search: SearchWords, domain: String?, limit: Int?) async throws -> [SearchResult]
    /// ``typedResults(_:domain:limit:scope:)`` of everything, awaited: never respelled.
    func typedResults(_ search: SearchWords, domain: String?, limit: Int?) async throws -> [SearchResult]
    /// ``meaningResults(question:model:domain:limit:)``, awaited.
    func meaningResults(question: [Float], model: String, domain: String?, limit: Int) async throws -> [SearchResult]
    /// The items matching a query string (``query(_:domain:limit:)``), awaited.
    func query(_ queryString: String, domain: String?, limit: Int?) async throws -> [IndexedItem]
    /// The items matching a parsed query, awaited.
    func query(_ expression: QueryExpression, domain: String?, limit: Int?) async throws -> [IndexedItem]
    /// How many items a parsed query matches, awaited.
    func countQuery(_ expression: QueryExpression, domain: String?) async throws -> Int
    /// ``item(_:domain:)``, awaited: thumbnail bytes and text included.
    func item(_ identifier: ItemIdentifier, domain: String) async throws -> IndexedItem?
    /// ``thumbnail(of:domain:)``, awaited.
    func thumbnail(of identifier: ItemIdentifier, domain: String) async throws -> Thumbnail?
    /// ``statistics()``, awaited.
    func statistics() async throws -> IndexStatistics
    /// ``changeMarker()``, awaited.
    func changeMarker() async throws -> [Int64]
}

extension IndexReader {
    /// All of `respellings`: each is tried by its search.
    public func plausibleRespellings(_ respellings: [[String]]) throws -> [[String]] { respellings }

    /// The first of ``items(withIdentifier:domain:)``: an identifier is unique in its domain.
    public func item(_ identifier: ItemIdentifier, domain: String) throws -> IndexedItem? {
        try items(withIdentifier: identifier, domain: domain).first
    }

    /// The thumbnail of ``item(_:domain:)``, with its bytes.
    public func thumbnail(of identifier: ItemIdentifier, domain: String) throws -> Thumbnail? {
        try item(identifier, domain: domain)?.item.attributeSet.thumbnail
    }

    /// Nothing to stop.
    public func interrupt() {}

    /// `false`: the server stops a read at its query timeout by cancelling it.
    public var stopsReadsItself: Bool { false }

    /// Nothing to say: a store that can explain its reading of the words implements it.
    public func searchPlan(words: [String], domain: String?, scope: SearchScope) throws -> [String] { [] }

    /// Nothing to say: a store that can tell which way its search went implements it.
    public func searchPath(words: [String], domain: String?, limit: Int?, scope: SearchScope) throws -> String? { nil }

    /// The identifiers of ``searchReferences(words:domain:limit:scope:)``, in the same order.
    public func searchIdentifiers(words: [String], domain: String? = nil, limit: Int? = nil,
                                  scope: SearchScope = .all) throws -> [ItemIdentifier] {
        try searchReferences(words: words, domain: domain, limit: limit, scope: scope).map(\.identifier)
    }
}

/// An error of an ``IndexReader`` or ``IndexWriter`` other than ``SearchlightError`` (the PostgreSQL index's):
/// it prints as one line, without any password, and says whether the user asked for
/// something malformed (a URL that does not parse: a usage error, exit status 64).
public protocol IndexStoreError: ReportableError {
    /// A malformed location or query: exit status 64, HTTP 400.
    var isUsageError: Bool { get }
    /// A statement that ran past the store's own deadline and was stopped: HTTP 503.
    var isTimeout: Bool { get }
    /// The index cannot be reached now (its database server stopped, restarted, or is cut
    /// off): nothing was done, and the same call may succeed later. HTTP 503.
    var isUnavailable: Bool { get }
}

extension IndexStoreError {
    /// `false`: a store without a deadline of its own never times out.
    public var isTimeout: Bool { false }
    /// `false`: a store that is a local file is never unreachable.
    public var isUnavailable: Bool { false }
}
