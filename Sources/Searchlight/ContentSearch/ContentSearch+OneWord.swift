import GRDB
import GRDBSQLite

extension ContentSearch {
    /// Where one word's rank comes from: the rows of one or two full-text lists, each a
    /// column of a table (`keywords : "zulu"` in `item_words`, `authors : "zulu"` in
    /// `item_content`), or the rows of an expression.
    struct ColumnLists {
        /// One list: the rows of `term` in column `index` of `table` (named `column`), or of
        /// `term` as an expression when `column` is `nil`.
        struct List {
            /// The full-text table: `item_words` or `item_content`.
            var table: String
            /// The column the term is asked in; `nil` for an expression asked of the whole table.
            var column: String?
            /// The column's position in its table, the bit ``PhraseColumns`` sets for it: name 0, title 1,
            /// keywords 2, folders 3 in `item_words`; authors 0, text 1 in `item_content`.
            var index = 0
            /// A quoted word or prefix (`"zulu"`, `"zulu"*`), or a whole expression.
            var term: String

            /// The FTS5 expression of the list.
            var expression: String { column.map { $0 + " : " + term } ?? term }
        }

        /// The lists whose union is the rank's rows: two for keywords and authors, one otherwise.
        var parts: [List]

        /// The lists of `term` (a word, `"zulu"`, or a prefix, `"zulu"*`) that give the field
        /// rank `rank` (``ContentSearch/textRank`` for the text).
        init(rank: Int, term: String) {
            switch rank {
            case 0: parts = [List(table: "item_words", column: "name", index: 0, term: term)]
            case 1: parts = [List(table: "item_words", column: "title", index: 1, term: term)]
            case 2: parts = [List(table: "item_words", column: "keywords", index: 2, term: term),
                             List(table: "item_content", column: "authors", index: 0, term: term)]
            case 3: parts = [List(table: "item_words", column: "folders", index: 3, term: term)]
            default: parts = [List(table: "item_content", column: "text", index: 1, term: term)]
            }
        }

        /// The rows of `expression` in `table`.
        ///
        /// For the text tier with every word whole (``ContentSearch/newestTextTier(excluding:limit:)``),
        /// whose expression names its column itself (`text : (…)`).
        init(table: String, expression: String) {
            parts = [List(table: table, column: nil, term: expression)]
        }
    }

    /// The first `limit` matches of a search of one word, tier by tier, without reading the
    /// word's lists whole when a tier is large: exactly the first `limit` of ``allMatches()``.
    /// `nil` for several words, Han and kana, compounds (checked on the stored text), a limit
    /// of 0, or when a tier is large and the walk of the date index does not fill the page
    /// (items not admitted, or undated).
    ///
    /// One word's rank is the best of the columns that hold it, whole before prefix: name,
    /// title, keywords or authors, folders, text (``Tier``). Tier by tier in that order, each
    /// column's list (``ColumnLists``) is read from its start, at most ``PageStrategy/sampleSize``
    /// rows (FTS5 stops there):
    ///
    /// - A short list is read whole: its rows, less those of the tiers before, are the tier,
    ///   looked up and sorted (the text with the word whole, when small enough, by
    ///   ``TextRelevance``, as ``allMatches()`` orders it).
    /// - A long one (`zulu`, a keyword of half the notes of issue 47; `alpha` in every text)
    ///   fills the page, newest first: the date index is walked and each item visited sought in
    ///   the tier's lists (`rowid = ?`), as ``PageStrategy`` weighs it against reading them.
    ///
    /// Where a word starts a word of nearly every text, the cost is the short lists before the
    /// page's tier and about `limit / density` seeks, where reading each list whole cost as
    /// many rows as the texts that hold it (90 ms for `zulu` on half a million notes).
    /// The page's items of a rich field are ranked on their fields' bytes (``richMatches(among:lookingInText:)``),
    /// which must agree with the columns (else `nil`); the text's items are only looked up.
    ///
    /// - Parameter sampling: How many rows of a list are read before it is taken as long: for tests.
    /// - Parameter limit: The size of the page.
    /// - Returns: Exactly the first `limit` of ``allMatches()`` (all of them when fewer), or `nil`.
    /// - Throws: A `DatabaseError` when a read fails.
    func oneWordPage(limit: Int, sampling: Int = PageStrategy.sampleSize) throws -> [Match]? {
        guard limit > 0, tokens.count == 1, !hasCJK else { return nil }
        let token = tokens[0]
        let whole = SearchableIndex.quoted(token)
        guard SearchableIndex.nameTerm(token, whole: true) == whole, Self.term(token, whole: true) == whole,
              SearchableIndex.nameTerm(token, whole: false) == whole + "*", Self.term(token, whole: false) == whole + "*" else { return nil }
        // A prefix longer than the prefix indexes, read as the few words that start with it
        // (`("foxt" OR "foxtrot")`): FTS5 merges a longer prefix's lists whole before its first
        // row, at every read (`foxt` on half a million notes: 80 ms, most of it that merge).
        let prefix = try seekablePrefix(token)
        // The rows of every list of the tiers before: none of them is in a later tier.
        var before = RowSet()
        var page: [Match] = []
        for prefixOnly in 0...1 {
            for rank in 0...Self.textRank {
                let needed = limit - page.count
                guard needed > 0 else { return page }
                let tier = Tier(prefixOnly: prefixOnly, fieldRank: rank)
                let lists = ColumnLists(rank: rank, term: prefixOnly == 0 ? whole : prefix)
                // A word alone in both tables (no other word starts with it) has prefix lists
                // that are its whole lists: every row was in a tier before.
                if prefixOnly == 1, rank == 0, try prefix == whole || prefix == whole + "*"
                    && isOnlyWord(startingWith: token, in: "item_words") && isOnlyWord(startingWith: token, in: "item_content") {
                    return page
                }
                var rows = RowSet()
                var long: [Int64]?
                for part in lists.parts {
                    let sample = try firstRows(part.table, part.expression, atMost: sampling)
                    if sample.count > sampling { long = long ?? sample } else { rows.formUnion(sample) }
                }
                // The text with the word whole, when few enough to score, is ordered by relevance:
                // read whole, however many rows were sampled.
                if long != nil, tier == Tier(prefixOnly: 0, fieldRank: Self.textRank), try textTier() != nil {
                    long = nil
                    rows = try rowIDs(lists.parts[0].table, lists.parts[0].expression)
                }
                if let sample = long {
                    // A long list: the tier's page, newest first; the tiers after are not needed.
                    if let newest = try newestMembers(of: lists, sample: sample, excluding: before, limit: needed, sampling: sampling) {
                        guard let ranked = try tierMatches(newest.map(\.id), in: tier) else { return nil }
                        return page + Self.sorted(ranked).prefix(needed)
                    }
                    // Fewer than the page needs (items not admitted, or undated): the whole tier.
                    rows = try lists.parts.reduce(into: RowSet()) { $0.formUnion(try rowIDs($1.table, $1.expression)) }
                }
                let members = rows.subtracting(before)
                before.formUnion(rows)
                guard !members.isEmpty else { continue }
                if tier == Tier(prefixOnly: 0, fieldRank: Self.textRank), members.count > 1, let scored = try textTier() {
                    guard let ranked = try tierMatches(Array(members), in: tier) else { return nil }
                    page += TextRelevance.ordered(Self.sorted(ranked), by: scored.scores, id: \.rank.id).prefix(needed)
                } else {
                    // The newest of many sorted by the database, and only they ranked.
                    let newest = members.count > needed
                        ? try SearchableIndex.pageSorting(members: Array(members), filter: filter, limit: needed, in: db)?.map(\.id) : nil
                    guard let ranked = try tierMatches(newest ?? Array(members), in: tier) else { return nil }
                    page += Self.sorted(ranked).prefix(needed)
                }
            }
        }
        return page
    }

    /// The first `limit + 1` rows (at most) of `expression` in `table`, in row order; those the
    /// search read already when it has.
    ///
    /// One statement stopped after `limit + 1` rows: FTS5 reads the list from its start, so a
    /// list of half a million rows costs what a short one does. When the whole list was read
    /// already (``rowIDs(_:_:)``, ``readLists(of:)``), its first rows are taken from ``Memo``.
    ///
    /// - Parameters:
    ///   - table: `item_words` or `item_content`.
    ///   - expression: An FTS5 query of `table`.
    ///   - limit: How many rows make the list long; one more is read to tell it.
    /// - Returns: Row ids in ascending order; more than `limit` of them says the list is longer
    ///   than `limit`. Not filtered by domain or expiration.
    /// - Throws: A `DatabaseError` when the read fails (or FTS5 refuses the expression).
    func firstRows(_ table: String, _ expression: String, atMost limit: Int) throws -> [Int64] {
        if let known = memo.rows[table + "\u{0}" + expression] { return Array(known.prefix(limit + 1)) }
        var rows: [Int64] = []
        try db.readStatement("SELECT rowid FROM \(table) WHERE \(table) MATCH ? LIMIT ?")
            .forEachRow(.text(expression), .integer(Int64(limit) + 1)) { row in
                rows.append(sqlite3_column_int64(row, 0))
                return true
            }
        return rows
    }

    /// `ids` (items of one word's `tier`, by their columns) as matches: a rich field's ranked on
    /// its bytes, which must tell the same tier (else `nil`); the text's looked up. Those the
    /// filter admits.
    ///
    /// A rich field's rank cannot be bettered by the text: whole in a rich field beats the text,
    /// and an item in a prefix tier holds the word whole nowhere (the whole tiers came before).
    ///
    /// Costs one statement over the item rows of `ids`; a rich field's are ranked on their fields
    /// without looking in their text (``richMatches(among:lookingInText:seekingAtMost:)``).
    ///
    /// - Parameters:
    ///   - ids: Row ids of items whose lists put them in `tier`.
    ///   - tier: The tier the lists told, whose matches these are.
    /// - Returns: The matches the filter admits, in no order; `nil` when a rich field's item ranks
    ///   otherwise on its bytes.
    private func tierMatches(_ ids: [Int64], in tier: Tier) throws -> [Match]? {
        guard tier.fieldRank < Self.textRank else { return try admitted(ids, in: tier) }
        let ranked = try richMatches(among: RowSet(ids), lookingInText: false)
        return ranked.values.allSatisfy { Tier($0) == tier } ? Array(ranked.values) : nil
    }

    /// The newest `limit` items (and those dated like the last) of `lists` not among
    /// `excluded`, newest first; `nil` when there are fewer.
    ///
    /// How depends on how many there are, which the first rows of the lists tell (`sample`,
    /// ``PageStrategy``): few are looked up and sorted; many are met walking the date index
    /// newest first, each visited item sought in the lists (`rowid = ?`), or checked against
    /// the set of their rows, read whole when that is cheaper or a list cannot be sought
    /// (a prefix longer than the prefix indexes, ``seeksCheaply(_:)``).
    ///
    /// - Parameters:
    ///   - sampling: How many rows make a full sample (``PageStrategy``): for tests.
    ///   - lists: The lists whose union holds the members.
    ///   - sample: The first rows of one of the lists (``firstRows(_:_:atMost:)``): up to `sampling` + 1.
    ///   - excluded: Rows of the tiers before, which are not members.
    ///   - limit: The size of the page; an empty page, without a read, for 0.
    /// - Returns: The members the filter admits, newest first, as ``NameMatch``es of the best rank
    ///   (the caller gives them their tier); `nil` when fewer than `limit` are found (the date
    ///   index holds dated items only).
    /// - Throws: A `DatabaseError` when a read fails.
    func newestMembers(of lists: ColumnLists, sample: [Int64], excluding excluded: RowSet, limit: Int,
                       sampling: Int = PageStrategy.sampleSize) throws -> [NameMatch]? {
        guard limit > 0 else { return [] }
        func allMembers() throws -> RowSet {
            try lists.parts.reduce(into: RowSet()) { $0.formUnion(try rowIDs($1.table, $1.expression)) }.subtracting(excluded)
        }
        // A `rowid = ?` lookup in the content index costs about 40 date-index visits (measured
        // with query-bench --content: 0.03 ms a lookup for a word in most texts).
        var strategy = try PageStrategy(sample: sample, limit: limit, checkCost: 40 * Double(lists.parts.count), sampleSize: sampling, in: db)
        if case .walkReadingNames = strategy, !lists.parts.allSatisfy({ Self.seeksCheaply($0.expression) }) {
            strategy = .walkCheckingMembers
        }
        switch strategy {
        case .sortMembers:
            return try SearchableIndex.pageSorting(members: Array(allMembers()), filter: filter, limit: limit, in: db)
        case .walkReadingNames(let budget):
            let probe = try ListProbe(lists, in: db)
            var visited = 0
            do {
                return try SearchableIndex.pageByDate(filter: filter, limit: limit, in: db) { id, _ in
                    visited += 1
                    if visited > budget { throw BudgetExceeded() }
                    return try !excluded.contains(id) && probe.contains(id)
                }
            } catch is BudgetExceeded {
                // Rarer than the sample said: the set of members is cheaper from here.
            }
            fallthrough
        case .walkCheckingMembers:
            let all = try allMembers()
            return try SearchableIndex.pageByDate(filter: filter, limit: limit, in: db) { id, _ in all.contains(id) }
        }
    }
}

/// Whether a row is in a ``ContentSearch/ColumnLists``, sought row by row (`rowid = ?`).
///
/// A list of a column is sought as its word, and the row's columns checked (``PhraseColumns``):
/// FTS5 seeking `authors : "zulu"` at a row without it walks on to the next row with `zulu`
/// among its authors, to the list's end if none. About 0.03 ms a list; a prefix longer than the
/// prefix indexes is merged at every seek (``ContentSearch/seeksCheaply(_:)`` says which).
struct ListProbe {
    /// Each list with its statement, prepared once: the list's row ids with its columns, at one
    /// row id.
    private let parts: [(list: ContentSearch.ColumnLists.List, statement: ReadStatement)]

    /// Prepares a seek for each of `lists`' parts, reading nothing yet.
    ///
    /// - Throws: A `DatabaseError` when a statement cannot be prepared.
    init(_ lists: ContentSearch.ColumnLists, in db: Database) throws {
        parts = try lists.parts.map { part in
            (part, try db.readStatement("""
                SELECT \(PhraseColumns.name)(\(part.table)) FROM \(part.table) WHERE \(part.table) MATCH ? AND rowid = ?
                """))
        }
    }

    /// Whether row `id` is in one of the lists (in a list whose term is several words, `("alpha"
    /// OR "alphabet")`, any of them).
    ///
    /// A seek per list until one holds the row: a list of a column holds it when the word is in
    /// that column (its bit among the columns of any phrase of the term), a list of an expression
    /// when the row matches at all.
    ///
    /// - Throws: A `DatabaseError` when a read fails.
    func contains(_ id: Int64) throws -> Bool {
        try parts.contains { part, statement in
            let columns = try statement.firstRow(.text(part.term), .integer(id)) { row in
                let value = sqlite3_column_int64(row, 0)
                return (0..<8).reduce(UInt8(0)) { $0 | PhraseColumns.columns(value, phrase: $1) }
            }
            guard let columns else { return false }
            return part.column == nil || columns & (1 << part.index) != 0
        }
    }
}

/// Stops a walk of the date index that visited more items than its strategy allowed.
///
/// Thrown from inside the walk's membership test, the only way out of
/// ``SearchableIndex/pageByDate(filter:limit:in:isMember:)`` before it ends; the caller catches
/// it and reads the page another way, or gives up.
struct BudgetExceeded: Error {}
