import GRDB

// The transactions every job of the index runs its statements in, and the one place where a
// database error becomes a ``SearchlightError``. `package`: the file indexer's bookkeeping
// (`SearchlightFiles`' `FileIndexWriter`) reads and writes its columns of this schema through them.
extension SearchableIndex {
    /// Runs `body` in a write transaction, turning database errors into ``SearchlightError``.
    ///
    /// GRDB's writer: one write transaction at a time per process, and SQLite's lock between
    /// processes, waited for up to 30 seconds (the busy timeout). `body` runs on GRDB's writer
    /// queue while the calling thread waits.
    ///
    /// - Parameter body: The statements; throwing rolls the transaction back.
    /// - Returns: What `body` returns, once the transaction has committed.
    /// - Throws: ``SearchlightError`` `.database` (or the error `body` threw, when it is one).
    package func write<T>(_ body: (Database) throws -> T) throws -> T {
        try databaseErrors("cannot write to the index") { try database.write(body) }
    }

    /// Runs `body` in a read transaction, turning database errors into ``SearchlightError``.
    /// Inside ``asyncRead(_:)``, `body` runs on the connection (and in the transaction) that read holds.
    ///
    /// A read sees one snapshot of the index, whatever writers commit meanwhile (WAL mode), and
    /// never waits for them.
    ///
    /// - Parameter body: The reads.
    /// - Returns: What `body` returns.
    /// - Throws: ``SearchlightError`` `.database` (or the error `body` threw, when it is one).
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
    ///
    /// - Parameter body: The reads, through ``ReadConnection``'s prepared statements only.
    /// - Returns: What `body` returns.
    /// - Throws: ``SearchlightError`` `.database` (or the error `body` threw, when it is one).
    package func readStatements<T>(_ body: (any ReadConnection) throws -> T) throws -> T {
        guard asyncReads.load(ordering: .relaxed) == 0, let reader = currentConnections.reader else {
            return try read { db in try body(db) }
        }
        return try databaseErrors("cannot read the index") { try reader.read { try body(reader) } }
    }

    /// Runs `body`; an error that is not already a ``SearchlightError`` becomes one, `.database`,
    /// with `message` and the error as its cause.
    ///
    /// The index's path goes into the error, so it prints one line that names the file.
    func databaseErrors<T>(_ message: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw SearchlightError.wrapping(error, .database, message, path: path)
        }
    }
}
