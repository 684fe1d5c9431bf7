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

