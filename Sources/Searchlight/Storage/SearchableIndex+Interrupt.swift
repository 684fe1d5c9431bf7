import GRDB

extension SearchableIndex {
    /// Stops the statement this handle is running, from any thread: the read that runs it throws
    /// ``SearchlightError`` (SQLite's `SQLITE_INTERRUPT` underneath). A deadline for queries
    /// that take too long; a handle that runs nothing is not affected.
    ///
    /// The corresponding C function is `sqlite3_interrupt(3)`.
    public func interrupt() {
        let connections = currentConnections
        connections.reader?.interrupt()
        connections.openedDatabase?.interrupt()
    }
}
