import Dispatch

// The async twins of the reader's requirements, as GRDB's `DatabaseReader` has an async `read`
// beside its synchronous one. These defaults run the synchronous method in one
// ``IndexReader/asyncRead(_:)``: the SQLite index's is GRDB's async read
// (`SearchableIndex+AsyncRead.swift`), which a cancelled task interrupts; the PostgreSQL index
// implements every twin natively through postgres-nio (`PostgresStore+Async.swift`).
extension IndexReader {
    /// Runs `body` with this index on a dispatch thread, the calling task suspended meanwhile
    /// (never a thread of Swift's pool, which a blocked read would starve); cancelling the task
    /// interrupts the read (``interrupt()``), which then throws. The default for a store that
    /// has no async reads of its own.
    ///
    /// - Throws: What `body` throws.
    public func asyncRead<T: Sendable>(_ body: @escaping @Sendable (Self) throws -> T) async throws -> T {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                indexReaderQueue.async {
                    continuation.resume(with: Result(catching: { try body(self) }))
                }
            }
        } onCancel: {
            interrupt()
        }
    }

    /// The synchronous ``searchResults(_:domain:limit:scope:)`` of everything, in one ``asyncRead(_:)``.
    public func searchResults(_ search: SearchWords, domain: String?, limit: Int?) async throws -> [SearchResult] {
        try await asyncRead { try $0.searchResults(search, domain: domain, limit: limit, scope: .all) }
    }

    /// The synchronous ``typedResults(_:domain:limit:scope:)`` of everything, in one ``asyncRead(_:)``.
    public func typedResults(_ search: SearchWords, domain: String?, limit: Int?) async throws -> [SearchResult] {
        try await asyncRead { try $0.typedResults(search, domain: domain, limit: limit, scope: .all) }
    }

    /// The synchronous ``meaningResults(question:model:domain:limit:)``, in one ``asyncRead(_:)``.
    public func meaningResults(question: [Float], model: String, domain: String?, limit: Int) async throws -> [SearchResult] {
        try await asyncRead { try $0.meaningResults(question: question, model: model, domain: domain, limit: limit) }
    }

    /// The synchronous query of a string, in one ``asyncRead(_:)``.
    public func query(_ queryString: String, domain: String?, limit: Int?) async throws -> [IndexedItem] {
        try await asyncRead { try $0.query(queryString, domain: domain, limit: limit) }
    }

    /// The synchronous query of a parsed expression, in one ``asyncRead(_:)``.
    public func query(_ expression: QueryExpression, domain: String?, limit: Int?) async throws -> [IndexedItem] {
        try await asyncRead { try $0.query(expression, domain: domain, limit: limit) }
    }

    /// The synchronous count of a parsed expression, in one ``asyncRead(_:)``.
    public func countQuery(_ expression: QueryExpression, domain: String?) async throws -> Int {
        try await asyncRead { try $0.countQuery(expression, domain: domain) }
    }

    /// The synchronous ``item(_:domain:)``, in one ``asyncRead(_:)``.
    public func item(_ identifier: ItemIdentifier, domain: String) async throws -> IndexedItem? {
        try await asyncRead { try $0.item(identifier, domain: domain) }
    }

    /// The synchronous ``thumbnail(of:domain:)``, in one ``asyncRead(_:)``.
    public func thumbnail(of identifier: ItemIdentifier, domain: String) async throws -> Thumbnail? {
        try await asyncRead { try $0.thumbnail(of: identifier, domain: domain) }
    }

    /// The synchronous ``statistics()``, in one ``asyncRead(_:)``.
    public func statistics() async throws -> IndexStatistics {
        try await asyncRead { try $0.statistics() }
    }

    /// The synchronous ``changeMarker()``, in one ``asyncRead(_:)``.
    public func changeMarker() async throws -> [Int64] {
        try await asyncRead { try $0.changeMarker() }
    }
}

/// Where the default ``IndexReader/asyncRead(_:)`` reads: a queue of its own, whose threads
/// libdispatch starts as needed, so that a long read holds neither a thread of Swift's pool nor
/// one of the global queues that timers (a `Task.sleep`, a deadline) wake on.
private let indexReaderQueue = DispatchQueue(label: "searchlight.index-reader", attributes: .concurrent)
