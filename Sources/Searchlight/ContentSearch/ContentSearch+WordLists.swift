import GRDB
import GRDBSQLite

extension ContentSearch {
    /// The best rank of `token` in each row that holds it, whole or as a prefix, in a rich
    /// field or the text (``claimedTiers(of:)``): from ``readLists(of:)``, or column by column
    /// for a word FTS5 reads as several terms.
    ///
    /// Read once per search (``Memo``): ``claimedTiers(of:)`` asks it for every word.
    ///
    /// - Parameter token: One folded query word.
    /// - Returns: Each row that holds the word somewhere (not filtered by domain or expiration),
    ///   with the best field rank of the word in it and whether only as a prefix.
    /// - Throws: A `DatabaseError` when a read fails.
    func columnRanks(of token: String) throws -> RowRanks {
        try readLists(of: token)
        if let ranks = memo.ranks[token] { return ranks }
        let ranks = try columnRanksByColumn(of: token)
        memo.ranks[token] = ranks
        return ranks
    }

    /// Reads a word's lists once in each full-text table, whole and as a prefix, with the
    /// columns each row holds it in (`"zulu" OR "zulu"*`, ``PhraseColumns``), and keeps what
    /// a ranked search asks of the word: its rows by name, title, keywords or folder, by
    /// author, by text, each whole and as a prefix (as ``rowIDs(_:_:)`` would read them, under
    /// the same expressions), and its rank in each row (``columnRanks(of:)``).
    ///
    /// A word that starts a word of every note (`a`, `zulu` on the notes of issue 47) was read
    /// seven times in the first page's search, once for each of those questions; the lists are
    /// what the page costs. A word FTS5 reads as several terms (a compound, Han) is left to
    /// the questions one by one.
    ///
    /// Costs two seeks in the tables' vocabularies (``isOnlyWord(startingWith:in:)``) and one
    /// statement per table reading the union of the word's list and its prefix's, with each row's
    /// columns; nothing when the lists were read already.
    ///
    /// - Parameter token: One folded query word.
    /// - Throws: A `DatabaseError` when a read fails.
    func readLists(of token: String) throws {
        let whole = SearchableIndex.quoted(token), prefix = whole + "*"
        guard memo.ranks[token] == nil, SearchableIndex.nameTerm(token, whole: false) == prefix,
              Self.term(token, whole: false) == prefix else { return }
        var ranks = try newRowRanks()
        // The ranks of the columns: name, title, keywords, folders; authors, text.
        let tables: [(name: String, ranks: [UInt8])] = [("item_words", [0, 1, 2, 3]), ("item_content", [2, UInt8(Self.textRank)])]
        // The rows holding the word whole (phrase 0) and as a prefix (phrase 1): in any column
        // of the names' table (all its columns are asked of together), among authors, in the
        // text. Plain sets, not an array of them per table and column: each insert into a set
        // nested in arrays checked every array for sharing, a fifth of the lists' reading.
        var wordsWhole = RowSet(), wordsPrefix = RowSet(), authorsWhole = RowSet(), authorsPrefix = RowSet()
        var textWhole = RowSet(), textPrefix = RowSet()
        for (index, table) in tables.enumerated() {
            // The best rank of each set of columns, and of none (`nil`).
            let best: [UInt8?] = (0..<256).map { columns in
                table.ranks.indices.filter { columns & (1 << $0) != 0 }.map { table.ranks[$0] }.min()
            }
            // A word that no other word of the table starts with (`zulu`) is its own prefix:
            // its list alone, where the prefix would be read and merged again beside it.
            let alone = try isOnlyWord(startingWith: token, in: table.name)
            let statement = try db.readStatement("SELECT rowid, \(PhraseColumns.name)(\(table.name)) FROM \(table.name) WHERE \(table.name) MATCH ?")
            try statement.forEachRow(.text(alone ? whole : whole + " OR " + prefix)) { row in
                let id = sqlite3_column_int64(row, 0), value = sqlite3_column_int64(row, 1)
                let wholeColumns = PhraseColumns.columns(value, phrase: 0)
                let prefixColumns = alone ? wholeColumns : PhraseColumns.columns(value, phrase: 1)
                if let rank = best[Int(wholeColumns)] {
                    ranks.offer(RowRanks.Rank(rank: rank, prefixOnly: false), for: id)
                } else if let rank = best[Int(prefixColumns)] {
                    ranks.offer(RowRanks.Rank(rank: rank, prefixOnly: true), for: id)
                }
                // A row holding the word whole holds it as a prefix too.
                if index == 0 {
                    if wholeColumns != 0 { wordsWhole.insert(id) }
                    if wholeColumns | prefixColumns != 0 { wordsPrefix.insert(id) }
                } else {
                    if wholeColumns & 1 != 0 { authorsWhole.insert(id) }
                    if (wholeColumns | prefixColumns) & 1 != 0 { authorsPrefix.insert(id) }
                    if wholeColumns & 2 != 0 { textWhole.insert(id) }
                    if (wholeColumns | prefixColumns) & 2 != 0 { textPrefix.insert(id) }
                }
                return true
            }
        }
        memo.ranks[token] = ranks
        for (phrase, term) in [whole, prefix].enumerated() {
            let words = phrase == 0 ? wordsWhole : wordsPrefix
            let authors = phrase == 0 ? authorsWhole : authorsPrefix, text = phrase == 0 ? textWhole : textPrefix
            remember(words, "item_words", term)
            remember(authors, "item_content", "authors : (" + term + ")")
            remember(authors, "item_content", "authors : " + term)
            remember(text, "item_content", "text : (" + term + ")")
            remember(text, "item_content", "text : " + term)
            remember(authors.union(text), "item_content", term)
        }
    }

    /// Whether `token` is the only word of full-text `table` that starts with `token` (or no
    /// word does): then the prefix `"token"*` matches exactly the rows `"token"` does.
    ///
    /// One seek in the table's vocabulary, past `token` itself (``longerWords(startingWith:in:atMost:)``):
    /// the word's own list is not read.
    ///
    /// - Parameters:
    ///   - token: One folded query word, a single term.
    ///   - table: `item_words` or `item_content`.
    /// - Throws: A `DatabaseError` when the read fails.
    func isOnlyWord(startingWith token: String, in table: String) throws -> Bool {
        try longerWords(startingWith: token, in: [table], atMost: 0) == []
    }

    /// The words of the full-text `tables` longer than `token` that start with it (`alpha`,
    /// `alphabet` for `alph`), sorted; `nil` when they are more than `limit`.
    ///
    /// Asked of the tables' vocabularies (`fts5vocab`), from the first word past `token` itself:
    /// the vocabulary counts each word it lists by reading its list (in C, without a row of SQL
    /// for each of its rows), so `token`'s own list, which can hold every text, is not read.
    ///
    /// - Parameters:
    ///   - token: One folded query word.
    ///   - tables: The full-text tables whose vocabularies are asked (`item_words`, `item_content`).
    ///   - limit: How many longer words are wanted at most; each table is read for `limit` + 1
    ///     of them at most.
    /// - Returns: The longer words of all the tables together, each once; `nil` when one table
    ///   alone, or all of them together, hold more than `limit`.
    /// - Throws: A `DatabaseError` when a read fails.
    ///
    /// Asked once per search for a word, tables and limit (``Memo/longerWords``): the vocabulary
    /// reads each longer word's whole list to count it (10 ms for `sierra` on half a million notes).
    func longerWords(startingWith token: String, in tables: [String], atMost limit: Int) throws -> [String]? {
        let key = ([token, String(limit)] + tables).joined(separator: "\u{0}")
        if let known = memo.longerWords[key] { return known }
        var words: Set<String>? = []
        for table in tables where words != nil {
            var count = 0
            try db.readStatement("SELECT term FROM \(table)_vocab WHERE term >= ? AND term < ? LIMIT ?")
                .forEachRow(.text(token + "\u{1}"), .text(token + "\u{10FFFF}"), .integer(Int64(limit) + 1)) { row in
                    words?.insert(String(cString: sqlite3_column_text(row, 0)))
                    count += 1
                    return true
                }
            if count > limit { words = nil }
        }
        let found = words.flatMap { $0.count > limit ? nil : $0.sorted() }
        memo.longerWords[key] = .some(found)
        return found
    }

    /// Keeps `rows` as what ``rowIDs(_:_:)`` reads for `expression` in `table`.
    ///
    /// The key is the one ``rowIDs(_:_:)`` and ``firstRows(_:_:atMost:)`` look up: the table,
    /// a NUL character and the expression, written exactly as they write it.
    private func remember(_ rows: RowSet, _ table: String, _ expression: String) {
        memo.rows[table + "\u{0}" + expression] = rows
    }
}
