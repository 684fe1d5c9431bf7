import Foundation
import GRDB

extension SearchableIndex {
    /// The `v2-query` migration: the B-tree indexes that selective queries need.
    ///
    /// The index budget is 400 bytes per item, so only two are added (each costs roughly the
    /// column plus a rowid, about 20–40 bytes per item):
    /// - `item_by_content_type`: `contentType == 'image/png'` and `contentTypeTree == "image"`
    ///   (a range over `image/…`), the most common selective predicates;
    /// - `item_by_modification_date`: date ranges (`contentModificationDate > $time.today(-7)`),
    ///   and results come in modification order, so a `LIMIT` can stop early.
    /// `size`, `pixelWidth`, `pixelHeight` and `creationDate` get none: their predicates are
    /// rarely selective alone and are checked on the rows the other conditions select.
    /// (`v3-compact` replaces `item_by_content_type` with `item_by_kind`, over the `content_kind`
    /// row that holds the type.)
    static func createQueryIndexes(_ db: Database) throws {
        try db.execute(sql: """
            CREATE INDEX item_by_content_type ON item(contentType);
            CREATE INDEX item_by_modification_date ON item(modificationDate);
            """)
    }

    /// Items matching a Spotlight query string, most recently modified first, then by identifier.
    ///
    /// ```swift
    /// let reports = try index.query(#"title == "report*"cd && contentModificationDate > $time.today(-7)"#)
    /// ```
    ///
    /// The query compiles to one SQL statement (`QueryCompiler`), whose `$time` dates are read
    /// against now and the current calendar; ``query(_:domain:limit:now:calendar:)`` takes
    /// both. Its cost is SQLite's: a test of the content type or the modification date uses
    /// an index, `w` and `t` tests of words are preselected by the full-text indexes, and the
    /// other tests are checked on every row those leave (a `textContent` test without `w` or
    /// `t` inflates each item's text). ``explainQuery(_:domain:limit:)`` shows the plan. Items come back as a list reads them: without their text and
    /// thumbnail bytes.
    ///
    /// - Parameters:
    ///   - queryString: The query, in the syntax of ``QueryParser``.
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many results, when given.
    /// - Returns: The matching items, most recently modified first.
    /// - Throws: ``QueryParseError`` when the query is malformed; ``SearchlightError`` when the
    ///   index cannot be read.
    public func query(_ queryString: String, domain: String? = nil, limit: Int? = nil) throws -> [IndexedItem] {
        try query(QueryExpression(parsing: queryString), domain: domain, limit: limit)
    }

    /// Items matching a parsed query, most recently modified first, then by identifier, `$time`
    /// read against now (``IndexReader/query(_:domain:limit:)``).
    ///
    /// - Parameters:
    ///   - expression: A parsed query (``QueryExpression/init(parsing:)``).
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many results, when given.
    /// - Returns: The matching items, most recently modified first.
    /// - Throws: ``SearchlightError`` when the index cannot be read.
    public func query(_ expression: QueryExpression, domain: String?, limit: Int?) throws -> [IndexedItem] {
        try query(expression, domain: domain, limit: limit, now: Date(), calendar: .current)
    }

    /// Items matching a parsed query, most recently modified first, then by identifier.
    ///
    /// The clock and the calendar are parameters so that a caller (a test, a server answering
    /// for a person in another time zone) can say what `$time.today` means.
    ///
    /// ```swift
    /// var calendar = Calendar(identifier: .gregorian)
    /// calendar.timeZone = TimeZone(identifier: "Europe/Paris")!
    /// let today = try index.query(QueryExpression(parsing: "contentModificationDate == $time.today"),
    ///                             calendar: calendar)
    /// ```
    ///
    /// - Parameters:
    ///   - expression: A parsed query.
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many results, when given.
    ///   - now: The instant `$time` values are relative to.
    ///   - calendar: The calendar (and time zone) that defines days, weeks, months and years.
    /// - Returns: The matching items, most recently modified first.
    /// - Throws: ``SearchlightError`` when the index cannot be read.
    public func query(_ expression: QueryExpression, domain: String? = nil, limit: Int? = nil,
                      now: Date = Date(), calendar: Calendar = .current) throws -> [IndexedItem] {
        let statement = Self.queryStatement(expression, select: Self.itemColumns, domain: domain, limit: limit,
                                            now: now, calendar: calendar)
        return try read { db in
            try ItemReader.items(of: db.cachedStatement(sql: statement.sql), arguments: statement.arguments)
        }
    }

    /// The number of items ``query(_:domain:limit:)`` would return without a limit.
    ///
    /// The same statement with `count(*)` and no ordering: no item is read.
    ///
    /// ```swift
    /// let pictures = try index.countQuery(#"contentTypeTree == "image""#, domain: "photos")
    /// ```
    ///
    /// - Parameters:
    ///   - queryString: The query, in the syntax of ``QueryParser``.
    ///   - domain: Only this domain, when given.
    /// - Returns: The number of matching items.
    /// - Throws: ``QueryParseError`` when the query is malformed; ``SearchlightError`` when the
    ///   index cannot be read.
    public func countQuery(_ queryString: String, domain: String? = nil) throws -> Int {
        try countQuery(QueryExpression(parsing: queryString), domain: domain)
    }

    /// The number of items matching a parsed query, `$time` read against now.
    ///
    /// - Parameters:
    ///   - expression: The parsed query.
    ///   - domain: Only this domain, when given.
    /// - Returns: The number of matching items.
    /// - Throws: ``SearchlightError`` when the index cannot be read.
    public func countQuery(_ expression: QueryExpression, domain: String?) throws -> Int {
        try countQuery(expression, domain: domain, now: Date(), calendar: .current)
    }

    /// The number of items matching a parsed query.
    ///
    /// - Parameters:
    ///   - expression: The parsed query.
    ///   - domain: Only this domain, when given.
    ///   - now: The time `$time` dates are read against.
    ///   - calendar: The calendar whose days, weeks, months and years bound them.
    /// - Returns: The number of matching items.
    /// - Throws: ``SearchlightError`` when the index cannot be read.
    public func countQuery(_ expression: QueryExpression, domain: String? = nil,
                           now: Date = Date(), calendar: Calendar = .current) throws -> Int {
        let statement = Self.queryStatement(expression, select: "count(*)", domain: domain, limit: nil,
                                            now: now, calendar: calendar, ordered: false)
        return try read { db in try Int.fetchOne(db, sql: statement.sql, arguments: statement.arguments) ?? 0 }
    }

    /// The SQL that ``query(_:domain:limit:)`` runs, its parameters and SQLite's plan, for people:
    ///
    /// ```
    /// SELECT … FROM item … WHERE (item.kindId IN (SELECT content_kind.id FROM content_kind WHERE …
    /// -- :p1 = 'image/png'
    /// -- plan: SEARCH item USING INDEX item_by_kind (kindId=?)
    /// ```
    ///
    /// Nothing is fetched: SQLite plans the statement without running it.
    ///
    /// - Parameters:
    ///   - queryString: The query, in the syntax of ``QueryParser``.
    ///   - domain: Only this domain, when given.
    ///   - limit: The limit the query would run with (it can change the plan).
    /// - Returns: The SQL, one `-- :name = value` line per parameter, then one `-- plan:` line
    ///   per step of SQLite's plan.
    /// - Throws: ``QueryParseError`` when the query is malformed; ``SearchlightError`` when the
    ///   index cannot be read.
    public func explainQuery(_ queryString: String, domain: String? = nil, limit: Int? = nil) throws -> String {
        let expression = try QueryExpression(parsing: queryString)
        let statement = Self.queryStatement(expression, select: Self.itemColumns, domain: domain, limit: limit,
                                            now: Date(), calendar: .current)
        let plan = try queryPlan(statement)
        var lines = [statement.sql]
        for (name, value) in statement.parameters { lines.append("-- :\(name) = \(value)") }
        lines += plan.map { "-- plan: \($0)" }
        return lines.joined(separator: "\n")
    }

    /// SQLite's `EXPLAIN QUERY PLAN` lines for a compiled query.
    func queryPlan(_ statement: QueryStatement) throws -> [String] {
        try read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + statement.sql, arguments: statement.arguments)
                .map { $0["detail"] as String }
        }
    }

    /// The identifiers (row ids) of the items matching a query, in result order.
    func queryRowIDs(_ expression: QueryExpression, domain: String?, now: Date, calendar: Calendar,
                     in db: Database) throws -> [Int64] {
        let statement = Self.queryStatement(expression, select: "item.id", domain: domain, limit: nil,
                                            now: now, calendar: calendar)
        return try Int64.fetchAll(db, sql: statement.sql, arguments: statement.arguments)
    }

    /// A compiled query: SQL and its named arguments.
    struct QueryStatement {
        /// The statement, with `:name` parameters.
        var sql: String
        /// The parameters' values, in the order the compiler made them.
        var parameters: [(name: String, value: DatabaseValue)]
        /// ``parameters`` as GRDB binds them; a name given twice keeps its first value.
        var arguments: StatementArguments {
            StatementArguments(Dictionary(parameters.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a }))
        }
    }

    /// The statement of a query: `SELECT select FROM item …` with the compiled condition, the
    /// expiration and domain filters, then (when `ordered`) newest first, then by identifier
    /// and domain, then the limit.
    static func queryStatement(_ expression: QueryExpression, select: String, domain: String?, limit: Int?,
                               now: Date, calendar: Calendar, ordered: Bool = true) -> QueryStatement {
        var compiler = QueryCompiler(now: now, calendar: calendar)
        let condition = compiler.condition(for: expression)
        var parameters = compiler.parameters
        var sql = "SELECT \(select) FROM item \(itemJoins) WHERE \(condition) AND \(notExpired)"
        parameters.append(("now", Date().timeIntervalSince1970.databaseValue))
        if let domain {
            sql += " AND domain.name = :domain"
            parameters.append(("domain", domain.databaseValue))
        }
        if ordered {
            sql += " ORDER BY item.modificationDate DESC, item.identifier, domain.name"
        }
        if let limit {
            sql += " LIMIT :limit"
            parameters.append(("limit", max(0, limit).databaseValue))
        }
        return QueryStatement(sql: sql, parameters: parameters)
    }
}
