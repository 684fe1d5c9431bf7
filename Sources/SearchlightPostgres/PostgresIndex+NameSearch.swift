import Foundation
import PostgresNIO
import Searchlight

extension PostgresIndex {
    /// Items where, for every query word, some word of the item starts with it (Docs/Contract.md#search).
    ///
    /// Query words are split like names (``NameTokenizer``). An item's words are those of its
    /// name, title, keywords and folders, and, with `includeText`, of its authors (all split in
    /// Swift as the SQLite index splits them) and text (split as SQLite splits it:
    /// ``PostgreSQLTextWords``): SQLite's ``SearchScope``. Ranking: items where every word matches a whole word
    /// first; then by where each word matched best (name, title, authors and keywords,
    /// folders, text); then the most recently modified; then by identifier and domain.
    ///
    /// Compounds (`d70`, `x86_64`) are searched as typed first; when that finds nothing, the
    /// search is made again with their parts as words of their own. On a large index, a page is
    /// first read from the newest matches and the few rows that could rank before them
    /// (``TieredNamePage``), and few matches are ranked each on its row; with a `limit`, two
    /// shortcuts come next, each taken only when it fills the page: the items whose name holds
    /// every word whole, then (when no item holds any of the words whole) the names that start
    /// a word with each. The full ranking answers when none of them can.
    ///
    /// ```swift
    /// let found = try await index.search(words: ["quarterly", "rep"], domain: nil, limit: 20)
    /// ```
    ///
    /// - Parameters:
    ///   - words: The words as typed.
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many results, the best first; `nil`: all of them.
    /// - Returns: The items, best first.
    /// - Throws: `SearchlightError` `.invalidQuery` when the words hold no letter or digit
    ///   (as the SQLite index does), ``PostgresIndexError`` when the database fails.
    public func search(words: [String], domain: String? = nil, limit: Int? = nil) async throws -> [IndexedItem] {
        try await search(words: words, domain: domain, limit: limit, includingText: true)
    }

    /// ``search(words:domain:limit:)``, with or without the words of the text.
    ///
    /// Without the text (``Searchlight/SearchScope/names``, `search --names`), the words of
    /// names, titles, keywords and folders are read, and the text's GIN index is not: a faster
    /// search on an index of long texts.
    ///
    /// - Parameters:
    ///   - words: The words as typed.
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many results, the best first; `nil`: all of them.
    ///   - includeText: Whether the words of the items' text and authors count
    ///     (``Searchlight/SearchScope/all``), or only those of names, titles, keywords and folders.
    /// - Returns: The items, best first.
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    public func search(words: [String], domain: String?, limit: Int?,
                       includingText includeText: Bool) async throws -> [IndexedItem] {
        try await Self.asTypedThenParts(words) {
            try await searchAsTyped(words: $0, domain: domain, limit: limit, includingText: includeText)
        }
    }

    /// What `find` finds for the words as typed, compounds whole (``CompoundWords``: `d70`,
    /// `x86_64`); when that is nothing, what it finds for their parts as words of their own.
    ///
    /// Shared by the searches, the references and (in their own way) the counts, so that all
    /// of them agree on when the parts are tried.
    ///
    /// - Parameters:
    ///   - words: The words as typed.
    ///   - find: The search to run, given the words or their parts.
    /// - Returns: What `find` found for the words as typed, unless that is empty and some word
    ///   is a compound; then what it found for the parts.
    static func asTypedThenParts<Found: Collection>(_ words: [String],
                                                    _ find: ([String]) async throws -> Found) async throws -> Found {
        let found = try await find(words)
        guard found.isEmpty, let parts = CompoundWords.partTokens(CompoundWords.tokens(of: words)) else { return found }
        return try await find(parts)
    }

    /// ``search(words:domain:limit:includingText:)`` of the words as typed, compounds whole.
    ///
    /// Costs a few statements of a few milliseconds when ``TieredNamePage`` tells the page;
    /// otherwise the full ranked search as well.
    ///
    /// - Parameter columns: The item columns read: ``itemColumns``, or ``foundItemColumns`` (no
    ///   text: ``searchResults(words:domain:limit:scope:)`` reads what its results need after).
    func searchAsTyped(words: [String], domain: String?, limit: Int?, includingText includeText: Bool,
                       columns: String = itemColumns) async throws -> [IndexedItem] {
        if let found = try await rowByRow(words, select: columns, domain: domain, limit: limit,
                                          includingText: includeText, read: readItems) {
            return found
        }
        return try await tiersThenRanking(words, select: columns, domain: domain, limit: limit, includingText: includeText,
                                          failure: "cannot read the index", read: readItems)
    }

    /// The identifiers of what ``search(words:domain:limit:)`` returns, in the same order,
    /// without reading the items.
    ///
    /// Reads only the identifier and the domain name of each match, so it is much lighter than
    /// ``search(words:domain:limit:)`` for a long list. The identifiers of different domains are
    /// not told apart: ``searchReferences(words:domain:limit:includingText:)`` keeps the domain.
    ///
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    public func searchIdentifiers(words: [String], domain: String? = nil, limit: Int? = nil) async throws -> [ItemIdentifier] {
        try await searchIdentifiers(words: words, domain: domain, limit: limit, includingText: true)
    }

    /// ``searchIdentifiers(words:domain:limit:)``, with or without the words of the text.
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    public func searchIdentifiers(words: [String], domain: String?, limit: Int?,
                                  includingText: Bool) async throws -> [ItemIdentifier] {
        try await searchReferences(words: words, domain: domain, limit: limit, includingText: includingText).map(\.identifier)
    }

    /// The domains and identifiers of what ``search(words:domain:limit:)`` returns, in the
    /// same order, with or without the words of the text, without reading the items.
    ///
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    /// - Parameters:
    ///   - words: The words as typed.
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many results, the best first; `nil`: all of them.
    ///   - includeText: Whether the words of the text and authors count.
    /// - Returns: Each match's domain and identifier, best first.
    public func searchReferences(words: [String], domain: String?, limit: Int?,
                                 includingText includeText: Bool) async throws -> [ItemReference] {
        try await Self.asTypedThenParts(words) {
            try await referencesAsTyped(words: $0, domain: domain, limit: limit, includingText: includeText)
        }
    }

    /// ``searchReferences(words:domain:limit:includingText:)`` of the words as typed, compounds whole.
    ///
    /// First read row by row (``rowByRow(_:select:domain:limit:includingText:walking:ranking:few:smallest:read:)``:
    /// a page by ``TieredNamePage``, or few matches), on an index large enough; then, with a
    /// limit, the page of the best tier and that of the prefix tier (each `nil` when it does not
    /// apply; taken only when full, since a tier that holds fewer than `limit` leaves room for
    /// matches of the next ranks). Else every match is ranked by one statement
    /// (``nameSearch(_:select:domain:limit:includeText:)``).
    ///
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    private func referencesAsTyped(words: [String], domain: String?, limit: Int?,
                                   includingText includeText: Bool) async throws -> [ItemReference] {
        let select = "item.identifier, domain.name"
        if let found = try await rowByRow(words, select: select, domain: domain, limit: limit,
                                          includingText: includeText, read: readReferences) {
            return found
        }
        return try await tiersThenRanking(words, select: select, domain: domain, limit: limit, includingText: includeText,
                                          failure: "cannot search the index", read: readReferences)
    }

    /// The share of the rows holding `token` in the fields of `rank` or better, by the
    /// statistics of the field words (``TieredNamePage/fieldShare(_:_:)``), on `connection`;
    /// `nil` when there are none the reader may see.
    func fieldShare(_ page: TieredNamePage, _ token: String, _ rank: Int, on connection: PostgresConnection) async throws -> Double? {
        fieldSharesAsked.add(1, ordering: .relaxed)
        return try await Self.single(try await connection.query(page.fieldShare(token, rank).query, logger: logger), Double.self)
    }

    /// ``fieldShare(_:_:_:on:)`` of a search of every field and the text. For tests.
    func fieldShare(of token: String, rank: Int) async throws -> Double? {
        guard let page = TieredNamePage(RankedNameSearch([token], includeText: true)) else { return nil }
        return try await withConnection("cannot read the index") { try await self.fieldShare(page, token, rank, on: $0) }
    }

    /// The references a statement selecting `item.identifier, domain.name` returns, in its order.
    ///
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    private func fetchReferences(_ statement: SQLStatement) async throws -> [ItemReference] {
        try await reading(statement, "cannot search the index") { connection in
            try await self.readReferences(statement, on: connection)
        }
    }

    /// The references a statement selecting `item.identifier, domain.name` returns on `connection`, in its order.
    @Sendable private func readReferences(_ statement: SQLStatement, on connection: PostgresConnection) async throws -> [ItemReference] {
        var references: [ItemReference] = []
        for try await (id, domain) in try await connection.query(statement.query, logger: logger).decode((ByteBuffer, String).self) {
            references.append(ItemReference(domain: domain, identifier: ItemIdentifier(bytes: Array(id.readableBytesView))))
        }
        return references
    }

    /// Every match of ``searchReferences(words:domain:limit:includingText:)`` (or the first
    /// `limit`), ranked by the statement that ranks by sets of rows of the whole index alone
    /// (``RankedNameSearch``), what the other ways must agree with. For tests.
    func referencesRankedBySets(words: [String], domain: String?, limit: Int? = nil, includingText: Bool) async throws -> [ItemReference] {
        try await Self.asTypedThenParts(words) {
            try await fetchReferences(try Self.nameSearch($0, select: "item.identifier, domain.name", domain: domain, limit: limit,
                                                          includeText: includingText))
        }
    }

    /// Which part of the ranking by sets read each row of a page of `words` as typed
    /// (``referencesRankedBySets(words:domain:limit:includingText:)``): the number of its tier,
    /// or of the ranking of every match after the tiers. For tests.
    func tiersRankedBySets(words: [String], domain: String?, limit: Int, includingText: Bool) async throws -> [Int] {
        let statement = try Self.nameSearch(words, select: "page.tier", domain: domain, limit: limit, includeText: includingText)
        return try await reading(statement, "cannot search the index") { connection in
            var tiers: [Int] = []
            for try await tier in try await connection.query(statement.query, logger: self.logger).decode(Int.self) { tiers.append(tier) }
            return tiers
        }
    }

    /// What ``searchReferences(words:domain:limit:includingText:)`` reads row by row, however
    /// small the index (``rowByRow(_:select:domain:limit:includingText:walking:ranking:few:smallest:read:)``):
    /// `nil` when it leaves the answer to the full ranking by sets of rows. For tests.
    func referencesRankedRowByRow(words: [String], domain: String?, limit: Int?, includingText: Bool,
                                  walking: Int = TieredNamePage.walked, ranking: Int = TieredNamePage.betterAtMost,
                                  few: Int = RankedNameSearch.fewMatches) async throws -> [ItemReference]? {
        try await rowByRow(words, select: "item.identifier, domain.name", domain: domain, limit: limit, includingText: includingText,
                           walking: walking, ranking: ranking, few: few, smallest: 0, read: readReferences)
    }

    /// A search of `words` ranked row by row, each match tested on its own row: a first page by
    /// ``TieredNamePage``, else every match when they are at most ``RankedNameSearch/fewMatches``.
    /// `nil` when neither tells the answer, or the index is small (then the full ranking, by
    /// sets of rows, must).
    ///
    /// One read-only transaction that sees one snapshot, so that the rows' addresses read first
    /// are those the answer reads: the text tier's count, with the planner's choice of plan;
    /// then, through the indexes, the walks and supersets of the page (and the field words'
    /// statistics when the walk's shares cannot tell a superset's size), or the matches.
    ///
    /// - Parameters:
    ///   - select: The columns to select: ``itemColumns``, or the identifier and domain name.
    ///   - limit: At most this many results; `nil`, all of them (then only few are ranked here).
    ///   - read: Runs the answer's statement on a connection and decodes its rows.
    ///   - walking: How many of the newest items the walk visits at most (``TieredNamePage/walked``): fewer in tests.
    ///   - ranking: How many rows that could rank before the walk's page are ranked at most (``TieredNamePage/betterAtMost``).
    ///   - few: How many matches are ranked without a walk at most (``RankedNameSearch/fewMatches``; 0: none, in tests).
    ///   - smallest: The fewest items (as the planner counts them) an index must hold to be read
    ///     row by row (``RankedNameSearch/rankedRowByRowFrom``; 0 in tests).
    private func rowByRow<Row: Sendable>(_ words: [String], select: String, domain: String?, limit: Int?, includingText: Bool,
                                         walking: Int = TieredNamePage.walked, ranking: Int = TieredNamePage.betterAtMost,
                                         few: Int = RankedNameSearch.fewMatches, smallest: Int = RankedNameSearch.rankedRowByRowFrom,
                                         read: @escaping @Sendable (SQLStatement, PostgresConnection) async throws -> [Row])
        async throws -> [Row]? {
        let search = RankedNameSearch(words, includeText: includingText)
        guard !search.tokens.isEmpty else { return nil }
        let tiered = limit.flatMap { $0 > 0 ? TieredNamePage(search, walking: walking, ranking: ranking) : nil }
        // A small index is ranked by sets of rows at once (a few milliseconds), where a walk
        // would test every row's text, out of TOAST, to meet a rare word.
        let items = try await plannedTable().items
        if smallest > 0, items < smallest { return nil }
        return try await withTransaction("cannot search the index", begin: "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY") { connection in
            var scored = false
            if let count = search.textTierIsScored() {
                scored = try await Self.single(try await connection.query(count.query, logger: self.logger), Bool.self) ?? true
            }
            try await Self.readThroughIndexes(connection, logger: self.logger)
            if let tiered, let limit,
               let page = try await self.tieredPage(tiered, select: select, domain: domain, limit: limit, scored: scored,
                                                    items: items, on: connection, read: read) {
                return page
            }
            guard few > 0 else { return nil }
            var matches: [String] = []
            for try await address in try await connection.query(search.matches(atMost: few).query, logger: self.logger).decode(String.self) {
                matches.append(address)
            }
            guard matches.count <= few else { return nil }
            return try await read(search.statement(select: select, domain: domain, limit: limit, among: matches, scored: scored), connection)
        }
    }

    /// The item table as the planner knows it (``PlannedTable``), read at most once a minute
    /// by a handle.
    ///
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    func plannedTable() async throws -> PlannedTable {
        if let known = plannedItems.withLock({ $0 }), known.read.timeIntervalSinceNow > -60 { return known.table }
        let table = try await withConnection("cannot read the index") { connection in
            var table = PlannedTable(items: -1, textsInline: false)
            for try await (items, inline) in try await connection.query("""
                SELECT item.reltuples::int8, coalesce(toast.relpages, 0) * 10 < greatest(item.relpages, 1)
                FROM pg_class AS item LEFT JOIN pg_class AS toast ON toast.oid = item.reltoastrelid
                WHERE item.oid = 'item'::regclass
                """, logger: self.logger).decode((Int, Bool).self) {
                table = PlannedTable(items: items, textsInline: inline)
            }
            return table
        }
        plannedItems.withLock { $0 = (table, Date()) }
        return table
    }

    /// The first page by ``TieredNamePage`` (its walks and page run on `connection`), or `nil`
    /// when it cannot tell the page.
    ///
    /// - Parameter items: The items of the index, as the planner counts them (``plannedTable()``).
    private func tieredPage<Row: Sendable>(_ page: TieredNamePage, select: String, domain: String?, limit: Int, scored: Bool,
                                           items: Int, on connection: PostgresConnection,
                                           read: @escaping @Sendable (SQLStatement, PostgresConnection) async throws -> [Row])
        async throws -> [Row]? {
        var below: TieredNamePage.Below?
        // The rows of each field query the statistics told, for every walk: they do not depend on the tier.
        var estimates: [String: Int] = [:]
        for (visiting, keeping, bestFirst) in page.walks(limit: limit) {
            let walk = page.walk(domain: domain, visiting: visiting, keeping: keeping, bestFirst: bestFirst, below: below)
            var walked: [TieredNamePage.Walked] = []
            for try await (date, prefixOnly, fields, wordFields, visited, matches, inFields) in try await connection.query(walk.query, logger: logger)
                .decode((Double, Int, Int, [Int], Int, Int, [Int]).self) {
                walked.append(.init(date: date, rank: .init(prefixOnly: prefixOnly, fields: fields), fields: wordFields, visited: visited,
                                    met: bestFirst ? .init(matches: matches, inFields: inFields) : nil))
            }
            guard let (tier, newest) = TieredNamePage.tier(of: walked, limit: limit) else { return nil }
            let longer = below == nil ? min(TieredNamePage.walkOnFrom(limit: limit, items: items), page.ranking) : page.ranking
            var found = page.page(select: select, domain: domain, limit: limit, tier: tier, among: walked, newest: newest, items: items,
                                  reading: longer, textTierIsScored: scored, estimates: estimates)
            if case .estimate(let asked) = found {
                for (token, rank, query) in asked where estimates[query] == nil {
                    // No statistics: the walk's share of the items visited decides, as before.
                    let share = try await fieldShare(page, token, rank, on: connection) ?? 0
                    estimates[query] = Int(max(share, 0) * Double(max(items, walked.count)))
                    // One over the longer walk's worth is enough to take it.
                    if estimates[query]! > longer { break }
                }
                found = page.page(select: select, domain: domain, limit: limit, tier: tier, among: walked, newest: newest, items: items,
                                  reading: longer, textTierIsScored: scored, estimates: estimates)
            }
            switch found {
            case .all:
                return nil
            case .many, .estimate:
                break
            case .these(let statement):
                // Nothing says too many candidates: the page's own rows are among them.
                let rows = try await read(statement, connection)
                if !rows.isEmpty { return rows }
            }
            // Too many rows rank before the tier: walk on for them alone.
            below = TieredNamePage.Below(tier: tier, walked: walked, items: items, scored: scored)
        }
        return nil
    }

    /// The number of items ``search(words:domain:limit:)`` would return without a limit.
    ///
    /// One `count(*)` statement over every match (two when compounds as typed find nothing), in
    /// one pass over the indexes' bitmaps: it reads each matching row's page. Prefer a search
    /// with a limit when only the first page is shown.
    ///
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    public func countMatches(words: [String], domain: String? = nil) async throws -> Int {
        try await countMatches(words: words, domain: domain, includingText: true)
    }

    /// ``countMatches(words:domain:)``, with or without the words of the text.
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    public func countMatches(words: [String], domain: String?, includingText includeText: Bool) async throws -> Int {
        // Texts held in their rows (no TOAST to speak of): the planner may scan the table, in
        // parallel (a word in every one of 500 000 notes: 0.17 s, against 0.5 through bitmaps).
        let inline = try await plannedTable().textsInline
        func counting(_ words: [String]) -> SQLStatement {
            var statement = Self.counting(words, domain: domain, includeText: includeText, intersecting: !inline)
            if inline { statement.readsIndexes = false }
            return statement
        }
        if let parts = CompoundWords.partTokens(CompoundWords.tokens(of: words)) {
            let whole = try await count(counting(words))
            return whole > 0 ? whole : try await count(counting(parts))
        }
        return try await count(counting(words))
    }

    /// How many items ``countMatches(words:domain:includingText:)`` counts for `words` as typed,
    /// read either way whatever the table holds: each word's rows intersected (`intersecting`),
    /// or every word tested in one pass. For tests.
    func countAsTyped(words: [String], domain: String?, includingText: Bool, intersecting: Bool) async throws -> Int {
        try await count(Self.counting(words, domain: domain, includeText: includingText, intersecting: intersecting))
    }

    /// The statement counting the matches of `words` as typed (``RankedNameSearch``), each
    /// word's rows intersected or every word tested in one pass.
    static func counting(_ words: [String], domain: String?, includeText: Bool, intersecting: Bool) -> SQLStatement {
        RankedNameSearch(words, includeText: includeText).statement(select: nil, domain: domain, limit: nil, intersecting: intersecting)
    }

    /// How each word of a search is read (`search --explain`).
    ///
    /// Describes the plan in words, one line per word (and one for the fallback to compound
    /// parts); it runs nothing against the database.
    ///
    /// - Parameters:
    ///   - words: The words as typed.
    ///   - includingText: Whether the search reads the words of the text.
    /// - Returns: The lines `search --explain` prints.
    static func searchPlan(words: [String], includingText: Bool) -> [String] {
        let tokens = CompoundWords.tokens(of: words)
        var lines = tokens.map { token in
            guard CompoundWords.isCompound(token) else {
                let lexeme = PostgresQueryCompiler.tsqueryLexeme(token) + ":*"
                return "word \"\(token)\": `\(lexeme)` in the GIN index of name words (item_words)"
                    + (!includingText ? "" : PostgreSQLTextInitials.answers(token)
                        ? " and of the texts' first letters (item_text_initials), read as sets of rows; each row with every word ranked on its fields in SQL"
                        : " and of text words (item_text_words), read as sets of rows; each row with every word ranked on its fields in SQL")
            }
            return "word \"\(CompoundWords.display(token))\": a compound, as typed: `\(nameVectorQuery(token))` in the GIN "
                + "index of name words (item_words), then \"\(CompoundWords.parts(of: token).joined(separator: " "))\" as "
                + "consecutive words of a name, title, keywords or folder"
                + (includingText ? "; or `\(textVectorQuery(token, whole: false))` in the text words (item_text_words)" : "")
        }
        if let parts = CompoundWords.partTokens(tokens) {
            lines.append("compounds as typed first; only when they find nothing, the words " + parts.joined(separator: " "))
        }
        if !tokens.isEmpty {
            lines.append("results: with a limit, the newest \(TieredNamePage.walked) items walked on the date index, each ranked on its row, "
                + "and the rows that could rank before their page, read from the GIN indexes (item_field_words: each field's words); "
                + "else, when at most \(RankedNameSearch.fewMatches) items match, each ranked on its row; else every match ranked by sets of rows, "
                + "a page read from the rows with every word whole"
                + (includingText && tokens.count == 1 ? ", then from those where it starts a word of a field," : "")
                + " when they fill it" + (includingText ? "; relevance and phrases read the start of each text (text_start_words)" : ""))
        }
        return lines
    }

    /// A token as a `tsquery` of the name words: a prefix; a compound's parts, each whole but the last.
    ///
    /// The token of `d70` (`d 70`) gives `'d' & '70':*`: the name must hold `d` whole and a
    /// word that starts with `70`.
    static func nameVectorQuery(_ token: String) -> String {
        let parts = CompoundWords.parts(of: token)
        return parts.indices.map { PostgresQueryCompiler.tsqueryLexeme(parts[$0]) + ($0 == parts.count - 1 ? ":*" : "") }
            .joined(separator: " & ")
    }

    /// A compound as a `tsquery` of the text words: its runs, adjacent, the last whole or a prefix.
    ///
    /// The token of `x86_64` (`x 86_64`) has the runs `x86` and `64`, which the text's words
    /// must hold in sequence: `'x86' <-> '64':*`, or `… <-> '64'` when `whole`.
    static func textVectorQuery(_ token: String, whole: Bool) -> String {
        let runs = CompoundWords.runs(of: token)
        return runs.indices.map { TextWords.lexeme(runs[$0]) + (whole || $0 < runs.count - 1 ? "" : ":*") }
            .joined(separator: " <-> ")
    }

    /// The statement of a name search; `select: nil` counts (``RankedNameSearch``).
    static func nameSearch(_ words: [String], select: String?, domain: String?, limit: Int?,
                           includeText: Bool) throws -> SQLStatement {
        RankedNameSearch(words, includeText: includeText).statement(select: select, domain: domain, limit: limit)
    }

    /// The items a statement selecting ``itemColumns`` returns, in its order.
    ///
    /// Items are read without their thumbnail bytes.
    ///
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    func fetchItems(_ statement: SQLStatement) async throws -> [IndexedItem] {
        try await reading(statement, "cannot read the index") { connection in
            try await self.readItems(statement, on: connection)
        }
    }

    /// The items a statement selecting ``itemColumns`` returns on `connection`, in its order, without their thumbnail bytes.
    @Sendable func readItems(_ statement: SQLStatement, on connection: PostgresConnection) async throws -> [IndexedItem] {
        var items: [IndexedItem] = []
        for try await row in try await connection.query(statement.query, logger: logger) {
            items.append(try Self.decodeItem(row, withThumbnail: false))
        }
        return items
    }

    /// The number a `count(*)` statement returns.
    ///
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    func count(_ statement: SQLStatement) async throws -> Int {
        try await reading(statement, "cannot read the index") { connection in
            try await Self.single(try await connection.query(statement.query, logger: self.logger), Int.self) ?? 0
        }
    }

    /// Runs `body`, which runs `statement`, on a connection; in a transaction with sequential
    /// scans off when the statement asks for it (``SQLStatement/readsIndexes``) and no row
    /// security applies to the reader.
    ///
    /// A person a shared index filters rows for keeps the planner's defaults: the policy's SQL
    /// functions are planned under the same setting, and one of them, planned without
    /// sequential scans, ran past a 5-second statement timeout on a table of a few rows.
    func reading<T: Sendable>(_ statement: SQLStatement, _ failure: String,
                              _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        guard statement.readsIndexes else { return try await withConnection(failure, body) }
        return try await readingIndexes(failure, body)
    }

    /// Makes the rest of the transaction on `connection` read through the indexes: sequential
    /// scans off when no row security applies to the reader, and bitmaps of up to 32 MB kept
    /// exact, a bit per row (the default 4 MB turned those of half a million rows lossy, each
    /// row of a lossy page then tested on its text).
    static func readThroughIndexes(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("""
            SELECT set_config('enable_seqscan', CASE WHEN row_security_active('item') THEN 'on' ELSE 'off' END, true),
                set_config('work_mem', '32MB', true)
            """, logger: logger)
    }

    /// Runs `body` in one transaction with sequential scans off when no row security applies
    /// to the reader (as ``reading(_:_:_:)`` runs a statement that reads through the indexes):
    /// for several such statements, one `BEGIN`, one setting and one `COMMIT` in all.
    func readingIndexes<T: Sendable>(_ failure: String,
                                     _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await withTransaction(failure) { connection in
            try await Self.readThroughIndexes(connection, logger: self.logger)
            return try await body(connection)
        }
    }
}
