import Searchlight

/// The PostgreSQL index's side of an index that keeps its size: deleted and rewritten rows
/// are dead tuples, whose space PostgreSQL reuses only once a vacuum has passed. Its
/// autovacuum does that by itself (by default once a table's dead rows pass 20 % of it, looked
/// at every minute); a writer that churned half the index vacuums its tables at once when its
/// watch is idle, so that the next rows reuse that space instead of growing the files.
extension PostgresStore: SpaceReclaiming {
    @discardableResult
    public func reclaimSpace() throws -> ReclaimedSpace {
        let items = try itemCount(domain: nil)
        defer { churn.reset(items: items) }
        let (before, after) = try wait { [index] in try await index.vacuum() }
        return ReclaimedSpace(before: before, after: after)
    }
}

extension PostgresIndex {
    /// Vacuums (and analyzes) the index's tables — a plain `VACUUM`, which takes no lock that
    /// readers or writers wait for — and returns the database's size before and after. A role
    /// that does not own the tables (another machine's writer) is skipped by PostgreSQL with a
    /// warning: the owner's writer and autovacuum do it.
    func vacuum() async throws -> (before: Int64, after: Int64) {
        try await withConnection("cannot vacuum the index") { connection in
            func size() async throws -> Int64 {
                let rows = try await connection.query("SELECT pg_database_size(current_database())", logger: self.logger)
                for try await (bytes) in rows.decode(Int64.self) { return bytes }
                return 0
            }
            let before = try await size()
            // Outside a transaction, as VACUUM must be.
            for table in ["item", "thumbnail", "domain"] {
                try await connection.query("VACUUM (ANALYZE) \(unescaped: table)", logger: self.logger)
            }
            return (before, try await size())
        }
    }
}
