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
    /// search is made again with their parts as words of their own. With a `limit`, two
    /// shortcuts are tried first, each taken only when it fills the page: the items whose name
    /// holds every word whole, then (when no item holds any of the words whole) the names
    /// that start a word with each; either way the page is read without ranking every match.
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
    /// Costs one statement when a tier shortcut fills the page; otherwise up to two tier
    /// statements, then the full ranked search.
    private func searchAsTyped(words: [String], domain: String?, limit: Int?,
                               includingText includeText: Bool) async throws -> [IndexedItem] {
        if let limit {
            for tier in [try Self.bestTierPage(words, select: Self.itemColumns, domain: domain, limit: limit),
                         try Self.prefixTierPage(words, select: Self.itemColumns, domain: domain, limit: limit)] {
                guard let tier else { continue }
                let page = try await fetchItems(tier)
                if page.count == limit { return page }
            }
        }
        let statement = try Self.nameSearch(words, select: Self.itemColumns, domain: domain, limit: limit,
                                            includeText: includeText)
        return try await fetchItems(statement)
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
    /// With a limit, the page of the best tier, then that of the prefix tier, is read first
    /// (each `nil` when it does not apply); a page is taken only when it is full, since a tier
    /// that holds fewer than `limit` leaves room for matches of the next ranks. Else every
    /// match is ranked by one statement (``nameSearch(_:select:domain:limit:includeText:)``).
    ///
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    private func referencesAsTyped(words: [String], domain: String?, limit: Int?,
                                   includingText includeText: Bool) async throws -> [ItemReference] {
        let select = "item.identifier, domain.name"
        if let limit {
            for tier in [try Self.bestTierPage(words, select: select, domain: domain, limit: limit),
                         try Self.prefixTierPage(words, select: select, domain: domain, limit: limit)] {
                guard let tier else { continue }
                let page = try await fetchReferences(tier)
                if page.count == limit { return page }
            }
        }
        let statement = try Self.nameSearch(words, select: select, domain: domain, limit: limit, includeText: includeText)
        return try await fetchReferences(statement)
    }

    /// The references a statement selecting `item.identifier, domain.name` returns, in its order.
    ///
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    private func fetchReferences(_ statement: SQLStatement) async throws -> [ItemReference] {
        try await reading(statement, "cannot search the index") { connection in
            var references: [ItemReference] = []
            for try await (id, domain) in try await connection.query(statement.query, logger: self.logger)
                .decode((ByteBuffer, String).self) {
                references.append(ItemReference(domain: domain, identifier: ItemIdentifier(bytes: Array(id.readableBytesView))))
            }
            return references
        }
    }

    /// The first page of the best tier: the items where every word of the search is a whole
    /// word of the name, most recently modified first (`name_vector`, GIN).
    ///
    /// Those items rank before every other (each of their words ranks 0, the least), and
    /// among themselves by date, identifier and domain, as the full ranking orders them: when
    /// the tier fills the page, the page is the search's first page, read without ranking
    /// every candidate (what takes a search of a common word a second at a million items).
    /// `nil` when the words hold none.
    ///
    /// Also `nil` for compounds (their parts in the name vector may be out of order) and for a
    /// limit of zero.
    ///
    /// - Parameters:
    ///   - words: The words as typed.
    ///   - select: The columns to select: ``itemColumns``, or the identifier and domain name.
    ///   - domain: Only this domain, when given.
    ///   - limit: The size of the page.
    /// - Returns: The statement, or `nil` when this shortcut does not apply.
    static func bestTierPage(_ words: [String], select: String, domain: String?, limit: Int) throws -> SQLStatement? {
        let tokens = CompoundWords.tokens(of: words)
        // A compound's parts in the vector may be out of order: its rank needs its fields.
        guard !tokens.isEmpty, limit > 0, !tokens.contains(where: CompoundWords.isCompound) else { return nil }
        var statement = SQLStatement()
        let conditions = ["item.name_vector @@ \(statement.bind(tokens.map(PostgresQueryCompiler.tsqueryLexeme).joined(separator: " & ")))::tsquery"]
        newestFirst(&statement, select: select, where: conditions, domain: domain, limit: limit)
        return statement
    }

    /// The first page of names that start a word with each word of the search, newest first,
    /// when no item the reader sees has any of the words whole, anywhere (its name, title,
    /// authors, keywords, folders or text): then no item can rank better (each word can only
    /// match as a prefix, and a prefix ranks best in a name), and those items rank among
    /// themselves by date, identifier and domain, as the full ranking orders them. What a
    /// person has typed halfway through a word (`debi`, `predic`) is most often this, and the
    /// page is read from the name words alone, where ranking every match ranked thousands of
    /// rows. `nil` for compounds, Han and kana words, or no words.
    ///
    /// The look for a whole word spans every domain and expired items too: it can only make the
    /// shortcut be skipped, never give a wrong page.
    ///
    /// - Parameters:
    ///   - words: The words as typed.
    ///   - select: The columns to select: ``itemColumns``, or the identifier and domain name.
    ///   - domain: Only this domain, when given.
    ///   - limit: The size of the page.
    /// - Returns: The statement, or `nil` when this shortcut does not apply.
    static func prefixTierPage(_ words: [String], select: String, domain: String?, limit: Int) throws -> SQLStatement? {
        let tokens = CompoundWords.tokens(of: words)
        guard !tokens.isEmpty, limit > 0,
              !tokens.contains(where: { CompoundWords.isCompound($0) || TextWords.hasSplitCJK($0) }) else { return nil }
        var statement = SQLStatement()
        let prefixes = statement.bind(tokens.map { PostgresQueryCompiler.tsqueryLexeme($0) + ":*" }.joined(separator: " & "))
        var conditions = ["item.name_vector @@ \(prefixes)::tsquery"]
        for token in tokens {
            let whole = statement.bind(PostgresQueryCompiler.tsqueryLexeme(token))
            conditions.append("NOT EXISTS (SELECT 1 FROM item AS other WHERE other.words @@ \(whole)::tsquery)")
            conditions.append("NOT EXISTS (SELECT 1 FROM item AS other WHERE other.text_words @@ \(whole)::tsquery)")
        }
        newestFirst(&statement, select: select, where: conditions, domain: domain, limit: limit)
        // Whether a word is whole anywhere: one look in each GIN index, never a scan of every text.
        statement.readsIndexes = true
        return statement
    }

    /// Makes `statement` select the first `limit` items that meet `conditions`, in `domain` and
    /// not expired, newest first, then by identifier and domain (a tier's order).
    private static func newestFirst(_ statement: inout SQLStatement, select: String, where conditions: [String],
                                    domain: String?, limit: Int) {
        var conditions = conditions
        conditions.append("(item.expiration_date IS NULL OR item.expiration_date > \(statement.bind(.double(Date().timeIntervalSince1970))))")
        if let domain { conditions.append("domain.name = \(statement.bind(domain))") }
        statement.sql = """
            SELECT \(select) FROM item \(itemJoins) WHERE \(conditions.joined(separator: " AND "))
            ORDER BY coalesce(item.modification_date, 0) DESC, item.identifier, domain.name COLLATE "C"
            LIMIT \(statement.bind(.integer(limit)))
            """
    }

    /// The number of items ``search(words:domain:limit:)`` would return without a limit.
    ///
    /// One `count(*)` statement over every match (two when compounds as typed find nothing): it
    /// costs what ranking every match costs, less the reading of the rows. Prefer a search with a
    /// limit when only the first page is shown.
    ///
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    public func countMatches(words: [String], domain: String? = nil) async throws -> Int {
        try await countMatches(words: words, domain: domain, includingText: true)
    }

    /// ``countMatches(words:domain:)``, with or without the words of the text.
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    public func countMatches(words: [String], domain: String?, includingText includeText: Bool) async throws -> Int {
        if let parts = CompoundWords.partTokens(CompoundWords.tokens(of: words)) {
            let whole = try await count(try Self.nameSearch(words, select: nil, domain: domain, limit: nil, includeText: includeText))
            return whole > 0 ? whole : try await count(try Self.nameSearch(parts, select: nil, domain: domain, limit: nil, includeText: includeText))
        }
        let statement = try Self.nameSearch(words, select: nil, domain: domain, limit: nil, includeText: includeText)
        return try await count(statement)
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
            var items: [IndexedItem] = []
            for try await row in try await connection.query(statement.query, logger: self.logger) {
                items.append(try Self.decodeItem(row, withThumbnail: false))
            }
            return items
        }
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

    /// Runs `body` in one transaction with sequential scans off when no row security applies
    /// to the reader (as ``reading(_:_:_:)`` runs a statement that reads through the indexes):
    /// for several such statements, one `BEGIN`, one setting and one `COMMIT` in all.
    func readingIndexes<T: Sendable>(_ failure: String,
                                     _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await withTransaction(failure) { connection in
            try await connection.query("""
                SELECT set_config('enable_seqscan', CASE WHEN row_security_active('item') THEN 'on' ELSE 'off' END, true)
                """, logger: self.logger)
            return try await body(connection)
        }
    }
}
