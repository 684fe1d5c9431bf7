import PostgresNIO
import Searchlight

/// The PostgreSQL index's side of an index that keeps its size: deleted and rewritten rows
/// are dead tuples, whose space PostgreSQL reuses only once a vacuum has passed. Its
/// autovacuum does that by itself (by default once a table's dead rows pass 20 % of it, looked
/// at every minute); a writer that churned half the index vacuums its tables at once when its
/// watch is idle, so that the next rows reuse that space instead of growing the files.
extension PostgresStore {
    /// Growth is left to autovacuum, which analyzes freshly written tables by itself.
    ///
    /// The SQLite index answers `true`: it has no autovacuum of its own.
    public var reclaimsAfterGrowth: Bool { false }

    /// Vacuums the index's tables now (``PostgresIndex/vacuum()``) and resets the churn.
    ///
    /// Blocks the calling thread for as long as the vacuum and the rebuilding of the indexes
    /// take, which on a large index is minutes; readers and writers go on meanwhile. The sizes
    /// are the whole database's (`pg_database_size`), other tables included.
    ///
    /// - Returns: The database's size before and after.
    /// - Throws: ``Searchlight/SearchlightError`` (unavailable) when the database cannot be
    ///   reached, ``PostgresIndexError`` when a statement fails.
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
    ///
    /// Only `item`, `thumbnail` and `domain` are vacuumed and only `item` and `thumbnail`
    /// reindexed; the tables of later schema versions (folders, people, vectors) are left to
    /// autovacuum. Runs on one connection, outside any transaction.
    ///
    /// - Throws: ``PostgresIndexError`` when a `VACUUM` fails or the connection is lost; a
    ///   refused rebuild of the indexes is logged, not thrown.
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
            // A vacuum frees the table's dead rows for reuse, but its indexes (GIN over words,
            // names and trigrams) keep the pages half the churn emptied: they are built again
            // beside the old ones, then swapped (`CONCURRENTLY`: readers and writers go on).
            // Only the tables' owner may; another machine's writer leaves it to the owner's.
            for table in ["item", "thumbnail"] {
                do {
                    // A rebuild cut short (a lost connection) leaves an invalid copy, `…_ccnew`,
                    // that every write would still maintain: dropped first.
                    let leftovers = try await connection.query("""
                        SELECT quote_ident(index.relname) FROM pg_index
                        JOIN pg_class index ON index.oid = pg_index.indexrelid
                        WHERE pg_index.indrelid = to_regclass(\(table)) AND NOT pg_index.indisvalid
                          AND index.relname LIKE '%ccnew%'
                        """, logger: self.logger)
                    var names: [String] = []
                    for try await name in leftovers.decode(String.self) { names.append(name) }
                    for name in names {
                        try await connection.query("DROP INDEX CONCURRENTLY IF EXISTS \(unescaped: name)", logger: self.logger)
                    }
                    try await connection.query("REINDEX TABLE CONCURRENTLY \(unescaped: table)", logger: self.logger)
                } catch let error as PSQLError where error.code == .server {
                    self.logger.info("the index's indexes were not rebuilt", metadata: [
                        "table": "\(table)", "reason": "\(error.serverInfo?[.message] ?? "")"])
                }
            }
            return (before, try await size())
        }
    }
}
