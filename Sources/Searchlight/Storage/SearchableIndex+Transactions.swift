import GRDB

// The transactions every job of the index runs its statements in, and the one place where a
// database error becomes a ``SearchlightError``. `package`: the file indexer's bookkeeping
// (`SearchlightFiles`' `FileIndexStore`) reads and writes its columns of this schema through them.
extension SearchableIndex {
    /// Runs `body` in a write transaction, turning database errors into ``SearchlightError``.
    package func write<T>(_ body: (Database) throws -> T) throws -> T {
        try databaseErrors("cannot write to the index") { try database.write(body) }
    }

    /// Runs `body` in a read transaction, turning database errors into ``SearchlightError``.
    /// Inside ``asyncRead(_:)``, `body` runs on the connection (and in the transaction) that read holds.
    package func read<T>(_ body: (Database) throws -> T) throws -> T {
        try databaseErrors("cannot read the index") {
            Self.isInsideAsyncRead ? try database.unsafeReentrantRead(body) : try database.read(body)
        }
    }

    /// Runs `body`; an error that is not already a ``SearchlightError`` becomes one, `.database`,
    /// with `message` and the error as its cause.
    func databaseErrors<T>(_ message: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw SearchlightError.wrapping(error, .database, message, path: path)
        }
    }
}
