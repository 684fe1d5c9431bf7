import GRDB

extension SearchableIndex {
    /// Whether the running task is inside ``asyncRead(_:)``: then this handle's reads use the
    /// connection and the snapshot that read holds.
    @TaskLocal static var isInsideAsyncRead = false

    /// Runs `body` in one of GRDB's async reads (``IndexReader/asyncRead(_:)``, in which the
    /// async twins of the reader's requirements run): the calling task is suspended, no thread
    /// of Swift's pool waits, while `body` runs on the connection's own queue, and every read
    /// `body` makes through this handle uses that read's connection and one snapshot of the
    /// index. Cancelling the task stops the statement that runs (`sqlite3_interrupt`): `body`
    /// then throws.
    ///
    /// ```swift
    /// let results = try await index.asyncRead { try $0.searchResults(words: ["report"], limit: 60) }
    /// ```
    /// - Throws: What `body` throws; ``SearchlightError`` when the index cannot be read;
    ///   `CancellationError` when the task was cancelled before the read started.
    public func asyncRead<T: Sendable>(_ body: @escaping @Sendable (SearchableIndex) throws -> T) async throws -> T {
        let database = try database
        asyncReads.add(1, ordering: .relaxed)
        defer { asyncReads.subtract(1, ordering: .relaxed) }
        return try await Self.$isInsideAsyncRead.withValue(true) {
            do {
                return try await database.read { _ in try body(self) }
            } catch let error as SearchlightError {
                throw error
            } catch let error as CancellationError {
                throw error
            } catch {
                return try databaseErrors("cannot read the index") { () throws -> T in throw error }
            }
        }
    }
}

// The SQLite index's async twins of ``IndexReader``'s requirements, each one GRDB async read
// (``asyncRead(_:)``), which no thread of Swift's pool waits for and which a cancelled task
// interrupts (the server's query timeout). Without them, the index's synchronous
// `statistics()` would witness `await statistics()` and run on the caller's thread, neither
// suspending nor stopping at the deadline (IndexReader+Async.swift).
extension SearchableIndex {
    /// A typed search of everything, respelled when it finds nothing, in one async read.
    ///
    /// What the server's `/api/search` awaits: the words as a person typed them, with
    /// Spotlight's search words (`kind:pdf`, `date:week`) read by ``SearchWords``. When the
    /// words find nothing, the search is made again with the index's spellings of them.
    ///
    /// ```swift
    /// let results = try await index.searchResults(SearchWords(parsing: "budget kind:pdf"), domain: nil, limit: 20)
    /// ```
    ///
    /// - Parameters:
    ///   - search: The parsed search.
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many results, the best first; `nil`: all of them.
    /// - Returns: The results, best first.
    /// - Throws: ``SearchlightError`` when the index cannot be read; `CancellationError`, or
    ///   ``SearchlightError`` for the interrupted statement, when the task is cancelled.
    public func searchResults(_ search: SearchWords, domain: String?, limit: Int?) async throws -> [SearchResult] {
        try await asyncRead { try $0.searchResults(search, domain: domain, limit: limit, scope: .all) }
    }

    /// A typed search of everything as typed, in one async read.
    ///
    /// As ``searchResults(_:domain:limit:)``, never respelled: what a caller that offers the
    /// respelling itself asks.
    ///
    /// - Returns: The results, best first.
    /// - Throws: ``SearchlightError`` when the index cannot be read; `CancellationError`, or
    ///   ``SearchlightError`` for the interrupted statement, when the task is cancelled.
    public func typedResults(_ search: SearchWords, domain: String?, limit: Int?) async throws -> [SearchResult] {
        try await asyncRead { try $0.typedResults(search, domain: domain, limit: limit, scope: .all) }
    }

    /// The items nearest in meaning to `question`, in one async read.
    ///
    /// - Parameters:
    ///   - question: The question's vector, of `model`'s dimension, of unit length.
    ///   - model: The model whose stored vectors are compared.
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many results.
    /// - Returns: The nearest items, best first, each with its ``SearchResult/similarity``.
    /// - Throws: ``SearchlightError`` when the index cannot be read; `CancellationError`, or
    ///   ``SearchlightError`` for the interrupted statement, when the task is cancelled.
    public func meaningResults(question: [Float], model: String, domain: String?, limit: Int) async throws -> [SearchResult] {
        try await asyncRead { try $0.meaningResults(question: question, model: model, domain: domain, limit: limit) }
    }

    /// The items matching a query string, in one async read.
    ///
    /// ```swift
    /// let recent = try await index.query("contentModificationDate > $time.today(-7)", domain: nil, limit: 100)
    /// ```
    ///
    /// - Returns: The matching items, most recently modified first.
    /// - Throws: ``QueryParseError`` when the query is malformed; ``SearchlightError`` when the
    ///   index cannot be read or the task was cancelled while the query ran;
    ///   `CancellationError` when it was cancelled before.
    public func query(_ queryString: String, domain: String?, limit: Int?) async throws -> [IndexedItem] {
        try await asyncRead { try $0.query(queryString, domain: domain, limit: limit) }
    }

    /// The items matching a parsed query, in one async read.
    ///
    /// - Returns: The matching items, most recently modified first.
    /// - Throws: ``SearchlightError`` when the index cannot be read; `CancellationError`, or
    ///   ``SearchlightError`` for the interrupted statement, when the task is cancelled.
    public func query(_ expression: QueryExpression, domain: String?, limit: Int?) async throws -> [IndexedItem] {
        try await asyncRead { try $0.query(expression, domain: domain, limit: limit) }
    }

    /// How many items a parsed query matches, in one async read.
    ///
    /// - Returns: The number of matching items.
    /// - Throws: ``SearchlightError`` when the index cannot be read; `CancellationError`, or
    ///   ``SearchlightError`` for the interrupted statement, when the task is cancelled.
    public func countQuery(_ expression: QueryExpression, domain: String?) async throws -> Int {
        try await asyncRead { try $0.countQuery(expression, domain: domain) }
    }

    /// One item, thumbnail bytes and text included, in one async read.
    ///
    /// - Returns: The item, or `nil` when the domain has no such item.
    /// - Throws: ``SearchlightError`` when the index cannot be read; `CancellationError`, or
    ///   ``SearchlightError`` for the interrupted statement, when the task is cancelled.
    public func item(_ identifier: ItemIdentifier, domain: String) async throws -> IndexedItem? {
        try await asyncRead { try $0.item(identifier, domain: domain) }
    }

    /// An item's thumbnail, in one async read.
    ///
    /// - Returns: The thumbnail, or `nil` when there is no such item or it has none.
    /// - Throws: ``SearchlightError`` when the index cannot be read; `CancellationError`, or
    ///   ``SearchlightError`` for the interrupted statement, when the task is cancelled.
    public func thumbnail(of identifier: ItemIdentifier, domain: String) async throws -> Thumbnail? {
        try await asyncRead { try $0.thumbnail(of: identifier, domain: domain) }
    }

    /// What the index holds, in one async read.
    ///
    /// - Returns: The statistics, domains by name.
    /// - Throws: ``SearchlightError`` when the index cannot be read; `CancellationError`, or
    ///   ``SearchlightError`` for the interrupted statement, when the task is cancelled.
    public func statistics() async throws -> IndexStatistics {
        try await asyncRead { try $0.statistics() }
    }
}
