import PostgresNIO

extension PostgresIndex {
    /// Reclaims the space of deleted rows and updates the planner's statistics (`VACUUM
    /// ANALYZE` of the index's tables), as autovacuum does in time: after a first load or a
    /// large removal, so that queries are planned on what the tables hold.
    ///
    /// One statement on one connection, outside a transaction; a plain `VACUUM` takes no lock
    /// that readers or writers wait for. Unlike the vacuum ``PostgresStore/reclaimSpace()`` runs,
    /// it does not rebuild the indexes, and it reports no sizes. A role that does not own the
    /// tables gets a warning from PostgreSQL and vacuums nothing.
    ///
    /// - Throws: ``PostgresIndexError`` when the database cannot be reached, after the retries of
    ///   ``retryPolicy``.
    public func vacuum() async throws {
        try await withConnection("cannot vacuum the index") { connection in
            try await connection.query("VACUUM (ANALYZE) item, thumbnail, domain", logger: self.logger)
        }
    }
}
