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
    public func searchResults(_ search: SearchWords, domain: String?, limit: Int?) async throws -> [SearchResult] {
        try await asyncRead { try $0.searchResults(search, domain: domain, limit: limit, scope: .all) }
    }

    /// A typed search of everything as typed, in one async read.
    public func typedResults(_ search: SearchWords, domain: String?, limit: Int?) async throws -> [SearchResult] {
        try await asyncRead { try $0.typedResults(search, domain: domain, limit: limit, scope: .all) }
    }

    /// The items nearest in meaning to `question`, in one async read.
    public func meaningResults(question: [Float], model: String, domain: String?, limit: Int) async throws -> [SearchResult] {
        try await asyncRead { try $0.meaningResults(question: question, model: model, domain: domain, limit: limit) }
    }

    /// The items matching a query string, in one async read.
    public func query(_ queryString: String, domain: String?, limit: Int?) async throws -> [IndexedItem] {
        try await asyncRead { try $0.query(queryString, domain: domain, limit: limit) }
    }

    /// The items matching a parsed query, in one async read.
    public func query(_ expression: QueryExpression, domain: String?, limit: Int?) async throws -> [IndexedItem] {
        try await asyncRead { try $0.query(expression, domain: domain, limit: limit) }
    }

    /// How many items a parsed query matches, in one async read.
    public func countQuery(_ expression: QueryExpression, domain: String?) async throws -> Int {
        try await asyncRead { try $0.countQuery(expression, domain: domain) }
    }

    /// One item, thumbnail bytes and text included, in one async read.
    public func item(_ identifier: ItemIdentifier, domain: String) async throws -> IndexedItem? {
        try await asyncRead { try $0.item(identifier, domain: domain) }
    }

    /// An item's thumbnail, in one async read.
    public func thumbnail(of identifier: ItemIdentifier, domain: String) async throws -> Thumbnail? {
        try await asyncRead { try $0.thumbnail(of: identifier, domain: domain) }
    }

    /// What the index holds, in one async read.
    public func statistics() async throws -> IndexStatistics {
        try await asyncRead { try $0.statistics() }
    }
}
