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

    /// Moves what writes left in the pending lists of the item table's GIN indexes into the
    /// indexes proper (`gin_clean_pending_list`), as a vacuum would later: every look-up of an
    /// index reads its whole pending list first. After a first scan of 2 000 files the name
    /// words' list held 95 pages, read by each of the several hundred look-ups of a respelling:
    /// 0.37 ms each, 450 ms for two words typed with a typo, where a clean index answers in 4
    /// buffers.
    ///
    /// Called after each batch of changes, on its own connection after the commit: it
    /// merges the batch's entries in bulk, which the writes' fast path (`fastupdate`) keeps. Only
    /// the indexes the role owns are cleaned (PostgreSQL allows no other); a failure is logged,
    /// never thrown: the entries stay pending until a vacuum, and searches are slower, not wrong.
    func cleanPendingLists() async {
        do {
            try await withConnection("cannot merge the index's pending words") { connection in
                try await connection.query("""
                    SELECT gin_clean_pending_list(i.indexrelid) FROM pg_index i
                    JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
                    WHERE i.indrelid = 'item'::regclass AND a.amname = 'gin' AND pg_has_role(c.relowner, 'USAGE')
                    """, logger: self.logger)
            }
        } catch {
            logger.debug("the GIN indexes' pending lists were not merged: \(error)")
        }
    }
}
