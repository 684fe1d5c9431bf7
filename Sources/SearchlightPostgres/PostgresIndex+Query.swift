import Foundation
import Searchlight

extension PostgresIndex {
    /// Items matching a Spotlight query string, most recently modified first, then by identifier.
    ///
    /// The query is parsed by ``Searchlight/QueryParser`` and compiled to one PostgreSQL
    /// statement (``PostgresQueryCompiler``), `$time` read against now and the current calendar.
    ///
    /// ```swift
    /// let large = try await index.query("size > 100000000", domain: nil, limit: 50)
    /// ```
    ///
    /// - Parameters:
    ///   - queryString: The query, in the syntax of ``Searchlight/QueryParser``.
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many results, when given.
    /// - Returns: The matching items, most recently modified first.
    /// - Throws: `QueryParseError` when the query is malformed; ``PostgresIndexError`` when the
    ///   database fails or the query names an attribute this index cannot query.
    public func query(_ queryString: String, domain: String? = nil, limit: Int? = nil) async throws -> [IndexedItem] {
        try await query(QueryExpression(parsing: queryString), domain: domain, limit: limit)
    }

    /// Items matching a parsed query, most recently modified first, then by identifier.
    ///
    /// One statement; items are read without their thumbnail bytes. A reader signed in as a
    /// person gets only the items that person may open (row-level security), and the order and
    /// limit apply to those.
    ///
    /// - Parameters:
    ///   - expression: A parsed query.
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many results, when given.
    ///   - now: The instant `$time` values are relative to.
    ///   - calendar: The calendar (and time zone) that defines days, weeks, months and years.
    /// - Returns: The matching items, most recently modified first.
    /// - Throws: ``PostgresIndexError`` when the query names an attribute this index cannot query, or
    ///   the database fails.
    public func query(_ expression: QueryExpression, domain: String? = nil, limit: Int? = nil,
                      now: Date = Date(), calendar: Calendar = .current) async throws -> [IndexedItem] {
        try await fetchItems(PostgresQueryCompiler.statement(expression, select: Self.itemColumns, domain: domain,
                                                             limit: limit, now: now, calendar: calendar))
    }

    /// The number of items a query matches.
    ///
    /// The query's statement with `count(*)` and no ordering: no item is read.
    ///
    /// - Parameters:
    ///   - expression: A parsed query.
    ///   - domain: Only this domain, when given.
    ///   - now: The instant `$time` values are relative to.
    ///   - calendar: The calendar that defines days, weeks, months and years.
    /// - Returns: The number of matching items.
    /// - Throws: ``PostgresIndexError`` when the query names an attribute this index cannot query, or
    ///   the database fails.
    public func countQuery(_ expression: QueryExpression, domain: String? = nil,
                           now: Date = Date(), calendar: Calendar = .current) async throws -> Int {
        try await count(PostgresQueryCompiler.statement(expression, select: "count(*)::int8", domain: domain,
                                                        ordered: false, now: now, calendar: calendar))
    }

    /// The SQL a query runs, its parameters, and PostgreSQL's plan, for people (`query --explain`).
    ///
    /// The statement is planned (`EXPLAIN`), not run.
    ///
    /// - Returns: The SQL, its parameters, then one `-- plan:` line per line of the plan.
    /// - Throws: `QueryParseError` when the query is malformed; ``PostgresIndexError`` when it names
    ///   an attribute this index cannot query, or the database fails.
    public func explainQuery(_ queryString: String, domain: String? = nil, limit: Int? = nil) async throws -> String {
        try await explainQuery(queryString, domain: domain, limit: limit, forcingIndexes: false)
    }

    /// ``explainQuery(_:domain:limit:)``; with `forcingIndexes`, planned as if reading the
    /// whole table cost too much (`enable_seqscan = off`): on a small index, this shows which
    /// indexes a query can use.
    ///
    /// The plan is asked for in a transaction of its own, so `SET LOCAL` ends with it.
    ///
    /// - Throws: `QueryParseError` when the query is malformed; ``PostgresIndexError`` when it names
    ///   an attribute this index cannot query, or the database fails.
    /// - Parameters:
    ///   - queryString: The query, in the syntax of ``Searchlight/QueryParser``.
    ///   - domain: Only this domain, when given.
    ///   - limit: The limit the query would have.
    ///   - forcingIndexes: Whether to plan as if sequential scans were off.
    /// - Returns: The SQL, its parameters, then the plan's lines.
    public func explainQuery(_ queryString: String, domain: String?, limit: Int?,
                             forcingIndexes: Bool) async throws -> String {
        let statement = try PostgresQueryCompiler.statement(QueryExpression(parsing: queryString),
                                                            select: Self.itemColumns, domain: domain, limit: limit,
                                                            now: Date(), calendar: .current)
        var plain = statement
        plain.sql = "EXPLAIN " + statement.sql
        let explain = plain
        let plan = try await withTransaction("cannot read the index") { connection in
            if forcingIndexes { try await connection.query("SET LOCAL enable_seqscan = off", logger: self.logger) }
            var lines: [String] = []
            for try await line in try await connection.query(explain.query, logger: self.logger).decode(String.self) {
                lines.append("-- plan: " + line)
            }
            return lines
        }
        return ([statement.description] + plan).joined(separator: "\n")
    }
}
