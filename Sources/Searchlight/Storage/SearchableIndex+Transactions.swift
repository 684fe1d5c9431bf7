import GRDB

// The transactions every job of the index runs its statements in, and the one place where a
// database error becomes a ``SearchlightError``. `package`: the file indexer's bookkeeping
// (`SearchlightFiles`' `FileIndexWriter`) reads and writes its columns of this schema through them.
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

    /// Runs `body` in a read transaction on the lightest connection that can: a read-only
    /// handle's ``SQLiteReader`` (no GRDB connection is opened), else GRDB's, as ``read(_:)``
    /// does (inside ``asyncRead(_:)``, the connection and snapshot that read holds: while an
    /// async read runs on the handle, every read goes there). For reads made of
    /// ``ReadStatement``s alone: name search, the spelling pass.
    package func readStatements<T>(_ body: (any ReadConnection) throws -> T) throws -> T {
        guard asyncReads.load(ordering: .relaxed) == 0, let reader = currentConnections.reader else {
            return try read { db in try body(db) }
        }
        return try databaseErrors("cannot read the index") { try reader.read { try body(reader) } }
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
