import PostgresNIO
import Searchlight

extension PostgresIndex {
    /// The page of the best tier (``bestTierPage(_:select:domain:limit:)``) when it fills the
    /// page, else that of the prefix tier (``prefixTierPage(_:select:domain:limit:)``) when it
    /// fills it, else every match ranked (``nameSearch(_:select:domain:limit:includeText:)``),
    /// each read by `read`: a tier that holds fewer than `limit` leaves room for matches of the
    /// next ranks. Without a limit, the ranking alone.
    ///
    /// The best tier is read on its own, with the planner's defaults: it most often fills the
    /// page. The prefix tier and the ranking read through the indexes (``readingIndexes(_:_:)``)
    /// in one transaction: one `BEGIN`, one setting and one `COMMIT` for both, three round
    /// trips fewer for each keystroke that reaches the ranking (a one-letter search on a home).
    ///
    /// - Parameter failure: What the error says when the database cannot be read.
    func tiersThenRanking<Row: Sendable>(_ words: [String], select: String, domain: String?, limit: Int?, includingText: Bool,
                                         failure: String,
                                         read: @escaping @Sendable (SQLStatement, PostgresConnection) async throws -> [Row])
        async throws -> [Row] {
        if let limit, let best = try Self.bestTierPage(words, select: select, domain: domain, limit: limit) {
            let page = try await reading(best, failure) { try await read(best, $0) }
            if page.count == limit { return page }
        }
        let ranking = try Self.nameSearch(words, select: select, domain: domain, limit: limit, includeText: includingText)
        guard let limit, let prefix = try Self.prefixTierPage(words, select: select, domain: domain, limit: limit) else {
            return try await reading(ranking, failure) { try await read(ranking, $0) }
        }
        // Both within one lease's deadline (`operationTimeout`), as one transaction.
        return try await readingIndexes(failure) { connection in
            let page = try await read(prefix, connection)
            if page.count == limit { return page }
            return try await read(ranking, connection)
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
        let conditions = conditions + RankedNameSearch.admission(&statement, domain: domain)
        statement.sql = """
            SELECT \(select) FROM item \(itemJoins) WHERE \(conditions.joined(separator: " AND "))
            ORDER BY coalesce(item.modification_date, 0) DESC, item.identifier, domain.name COLLATE "C"
            LIMIT \(statement.bind(.integer(limit)))
            """
    }
}
