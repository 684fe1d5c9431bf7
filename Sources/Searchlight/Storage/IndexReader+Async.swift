import Dispatch

// How a reader reads asynchronously when it has no way of its own. The async twins of the
// reader's requirements have no defaults on purpose: Swift takes a conformer's own synchronous
// method of the same signature over a protocol extension's async one as the witness of an async
// requirement, so a default here would never run, and the twin would block its caller. Each
// backend states its twins: the SQLite index as its synchronous method in one GRDB async read
// (`SearchableIndex+AsyncRead.swift`), the PostgreSQL index through postgres-nio
// (`PostgresStore+Async.swift`); another store writes each as `try await asyncRead { try $0.… }`.
extension IndexReader {
    /// Runs `body` with this index on a dispatch thread, the calling task suspended meanwhile
    /// (never a thread of Swift's pool, which a blocked read would starve); cancelling the task
    /// interrupts the read (``interrupt()``), which then throws. The default for a store that
    /// has no async reads of its own.
    ///
    /// A store with no async reads of its own states each twin with it:
    ///
    /// ```swift
    /// extension MyStore {
    ///     func statistics() async throws -> IndexStatistics {
    ///         try await asyncRead { try $0.statistics() }
    ///     }
    /// }
    /// ```
    ///
    /// The reads run on a concurrent queue of their own, whose threads libdispatch starts as
    /// needed: many reads at once cost as many threads.
    ///
    /// - Parameter body: The synchronous reads, given this index.
    /// - Returns: What `body` returns.
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
}

/// Where the default ``IndexReader/asyncRead(_:)`` reads: a queue of its own, whose threads
/// libdispatch starts as needed, so that a long read holds neither a thread of Swift's pool nor
/// one of the global queues that timers (a `Task.sleep`, a deadline) wake on.
private let indexReaderQueue = DispatchQueue(label: "searchlight.index-reader", attributes: .concurrent)
