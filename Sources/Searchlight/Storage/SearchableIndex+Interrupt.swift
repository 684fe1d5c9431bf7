import GRDB

extension SearchableIndex {
    /// Stops the statement this handle is running, from any thread: the read that runs it throws
    /// ``SearchlightError`` (SQLite's `SQLITE_INTERRUPT` underneath). A deadline for queries
    /// that take too long; a handle that runs nothing is not affected.
    ///
    /// The corresponding C function is `sqlite3_interrupt(3)`.
    ///
    /// Every statement running on the handle's connections at that moment is stopped, the
    /// lightweight reader's and GRDB's alike; statements that start afterwards run normally.
    /// An async read is better stopped by cancelling its task, which interrupts its connection
    /// only.
    ///
    /// ```swift
    /// let timer = DispatchWorkItem { index.interrupt() }
    /// DispatchQueue.global().asyncAfter(deadline: .now() + 5, execute: timer)
    /// defer { timer.cancel() }
    /// let results = try index.search(words: words)   // throws when interrupted
    /// ```
    public func interrupt() {
        let connections = currentConnections
        connections.reader?.interrupt()
        connections.openedDatabase?.interrupt()
    }
}
