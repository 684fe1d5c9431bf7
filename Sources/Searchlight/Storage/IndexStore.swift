import Foundation

/// What the library offers any application of an index, whatever stores it: the SQLite file
/// of ``SearchableIndex``, or the shared PostgreSQL database of Docs/Contract.md#shared-index (`SearchlightPostgres`'
/// `PostgresStore`, which `searchlight-serve` links and `searchlight` does not): items and
/// batches, reads, searches, queries and change observation.
///
/// What a file indexer keeps beside the items (change stamps, failures, its state of each
/// domain, the machine a domain's folder is on) is not here: `SearchlightFiles` owns that
/// seam (`FileIndexStore`, which refines this one), as GRDB's `DatabaseWriter` refines
/// `DatabaseReader`. Docs/Architecture.md says where each conformance lives.
///
/// The requirements are synchronous, as ``SearchableIndex``'s methods are: the scanner and the
/// watcher call them from threads of their own, and the SQLite index conforms with the methods
/// it has, so its path costs nothing more than a call through a witness table.
public protocol IndexStore: AnyObject, Sendable {
    /// What names the index in messages and `status`: a file's path, or a URL without password.
    var path: String { get }

    // MARK: Writing

    /// Applies a batch in one transaction: all of its changes land, or none.
    ///
    /// ```swift
    /// var batch = IndexBatch()
    /// batch.upsert(SearchableItem(uniqueIdentifier: "note-1", domainIdentifier: "notes", attributeSet: attributes))
    /// batch.delete("note-0", domain: "notes")
    /// try store.apply(batch)
    /// ```
    ///
    /// - Throws: ``SearchlightError`` (the SQLite index: a full disk, a busy or read-only
    ///   database, damage) or the store's ``IndexStoreError``; nothing of the batch is applied.
    func apply(_ batch: IndexBatch) throws
    /// Deletes every item of the domains, and the domains; returns the number of items deleted.
    @discardableResult func deleteAllItems(inDomains domains: [String]) throws -> Int
    /// Deletes every item and domain; returns the number of items deleted.
    @discardableResult func deleteAllItems() throws -> Int
    /// Records when a domain was last brought up to date (``IndexStatistics/Domain/lastUpdateDate``).
    func markUpdated(domain: String, date: Date) throws

    // MARK: Reading

    /// The items with this identifier (in one domain, or in every domain), thumbnail bytes included.
    func items(withIdentifier identifier: ItemIdentifier, domain: String?) throws -> [IndexedItem]
    /// The item with this identifier in this domain, thumbnail bytes included.
    func item(_ identifier: ItemIdentifier, domain: String) throws -> IndexedItem?
    /// The thumbnail of an item, if it has one.
    func thumbnail(of identifier: ItemIdentifier, domain: String) throws -> Thumbnail?
    /// How many items the index holds (in one domain, or in every domain).
    func itemCount(domain: String?) throws -> Int
    /// Every item, by domain then identifier; `body` returns `false` to stop.
    func forEachItem(domain: String?, _ body: (IndexedItem) throws -> Bool) throws
    /// The index's domains (the `domain` table), in byte order of their names.
    func domains() throws -> [String]
    /// What the index holds, per domain, and its size (`searchlight status`).
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
    /// How many items match a query string (`query --count`).
    func countQuery(_ queryString: String, domain: String?) throws -> Int
    /// What runs for a query (`query --explain`).
    func explainQuery(_ queryString: String, domain: String?, limit: Int?) throws -> String

    // MARK: Meaning (Docs/Contract.md#search-by-meaning)

    /// Items with text that wait for vectors of `model` (none yet, a changed text, another
    /// model), by ``MeaningWork/key``, after `key` (empty: from the first), at most `limit`.
    func meaningWork(model: String, after key: [UInt8], limit: Int) throws -> [MeaningWork]
    /// Whether vectors of `digest` are stored (an item with the same text has them).
    func hasMeaning(digest: [UInt8]) throws -> Bool
    /// Stores vectors in one transaction, each item's only while it has the text they were
    /// made from; returns how many items got them.
    @discardableResult func storeMeaning(_ results: [MeaningVectors]) throws -> Int
    /// Deletes the vectors no item uses any more (the pass, at the end of each round); returns
    /// how many texts' vectors went.
    @discardableResult func forgetUnusedMeaning() throws -> Int
    /// How far the pass is for `model`, and what the vectors take.
    func meaningProgress(model: String?) throws -> MeaningProgress
    /// The `limit` items nearest to `question` (a unit vector of `model`), best first, each
    /// saying ``SearchResult/Field/meaning`` and its ``SearchResult/similarity``.
    func meaningResults(question: [Float], model: String, domain: String?, limit: Int) throws -> [SearchResult]

    // MARK: Following changes

    /// A monitor that tells when any process committed a change (``IndexChangeMonitor``).
    func makeChangeMonitor() throws -> any IndexChangeMonitor
    /// Stops what this handle is reading now, from another thread: the read fails. The SQLite
    /// index interrupts its statement; a store whose statements have a deadline of their own
    /// (the PostgreSQL index's statement timeout) need do nothing (the default).
    func interrupt()
}

extension SearchableIndex: IndexStore {}

extension IndexStore {
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

    /// Nothing to say: a store that can explain its reading of the words implements it.
    public func searchPlan(words: [String], domain: String?, scope: SearchScope) throws -> [String] { [] }

    /// Nothing to say: a store that can tell which way its search went implements it.
    public func searchPath(words: [String], domain: String?, limit: Int?, scope: SearchScope) throws -> String? { nil }

    /// The identifiers of ``searchReferences(words:domain:limit:scope:)``, in the same order.
    public func searchIdentifiers(words: [String], domain: String? = nil, limit: Int? = nil,
                                  scope: SearchScope = .all) throws -> [ItemIdentifier] {
        try searchReferences(words: words, domain: domain, limit: limit, scope: scope).map(\.identifier)
    }

    /// ``markUpdated(domain:date:)`` now.
    public func markUpdated(domain: String) throws { try markUpdated(domain: domain, date: Date()) }
}

/// An error of an ``IndexStore`` other than ``SearchlightError`` (the PostgreSQL index's):
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
