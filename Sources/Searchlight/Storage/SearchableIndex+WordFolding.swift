import Foundation
import GRDB
import SystemCalls

extension SearchableIndex {
    /// Migration `v9-one-word-fold`: the full-text tables are tokenized by
    /// ``SearchlightTokenizer`` — the fold and the word splitting that queries use — instead of
    /// FTS5's `unicode61`, which folded only Latin diacritics and split words at marks.
    ///
    /// `item_words` and `item_content` (and its vocabulary view) are made again and filled
    /// from what the index stores — names, titles, keywords, folders, authors and the stored
    /// text — so no document is read again. On a terminal the upgrade shows its progress.
    /// `item_words_vocab` (new, a view) lists the words of `item_words`, for spelling
    /// corrections (``spellings(of:correctingIndexed:)``).
    ///
    /// The cost is a pass over every item and every stored text (inflated and split again), in
    /// the migration's one transaction: minutes on a large index, paid once by the first writer
    /// that opens it.
    ///
    /// - Parameter db: The migration's connection, inside its transaction.
    /// - Throws: GRDB's `DatabaseError` when a statement fails.
    static func foldWordsAlike(_ db: Database) throws {
        try db.execute(sql: """
            DROP TABLE item_words;
            DROP TABLE item_content_vocab;
            DROP TABLE item_content;
            """ + wordsTableSQL(tokenize: SearchlightTokenizer.name, prefixes: "2 3")
                + contentTableSQL(tokenize: SearchlightTokenizer.name, prefixes: nil) + """
            CREATE VIRTUAL TABLE item_content_vocab USING fts5vocab(item_content, row);
            CREATE VIRTUAL TABLE item_words_vocab USING fts5vocab(item_words, row);
            """)
        try refillWordTables(db, what: "making the word index for every script")
    }

    /// Migration `v10-short-prefixes`: both full-text tables get prefix indexes of one, two
    /// and three characters (the words table had two and three, the text none), so that the
    /// first letters typed in a search box are one look-up each rather than a merge of the
    /// lists of every word that starts with them (`a*` merged thousands of lists of the text
    /// and took minutes on a home of 9 000 documents). Refilled as v9 is, reading no document.
    /// Sizes and times: Benchmarks/README.md ("Every keystroke").
    ///
    /// - Parameter db: The migration's connection, inside its transaction.
    /// - Throws: GRDB's `DatabaseError` when a statement fails.
    static func addShortPrefixes(_ db: Database) throws {
        try db.execute(sql: """
            DROP TABLE item_words_vocab;
            DROP TABLE item_words;
            DROP TABLE item_content_vocab;
            DROP TABLE item_content;
            """ + foldedWordsTableSQL + foldedContentTableSQL + """
            CREATE VIRTUAL TABLE item_content_vocab USING fts5vocab(item_content, row);
            CREATE VIRTUAL TABLE item_words_vocab USING fts5vocab(item_words, row);
            """)
        try refillWordTables(db, what: "adding the index of first letters")
    }

    /// Fills `item_words` and `item_content`, just made empty, from what the index stores.
    ///
    /// Items go 5 000 at a time, texts 500 at a time (a text is much larger), so that progress
    /// moves steadily; all of it inside the caller's transaction.
    ///
    /// - Parameters:
    ///   - db: The migration's connection.
    ///   - what: What the progress line says the upgrade is doing.
    /// - Throws: GRDB's `DatabaseError` when a statement fails.
    private static func refillWordTables(_ db: Database, what: String) throws {
        let items = try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0
        let texts = try Int.fetchOne(db, sql: "SELECT count(*) FROM item_text") ?? 0
        var progress = MigrationProgress(total: items + texts, what: what)
        try refill(db, table: "item", chunk: 5_000, progress: &progress, sql: """
            INSERT INTO item_words(rowid, name, title, keywords, folders)
                SELECT item.id, searchlight_words(item.displayName), searchlight_words(item.title),
                    searchlight_words(\(rankedKeywordsSQL)), searchlight_folder_words(item.identifier, item.derived)
                FROM item JOIN content_kind ON content_kind.id = item.kindId
                WHERE item.id > :after AND item.id <= :last
            """)
        try refill(db, table: "item_text", chunk: 500, progress: &progress, sql: """
            INSERT INTO item_content(rowid, authors, text)
                SELECT itemId, authors, searchlight_content_words(text) FROM item_text
                WHERE itemId > :after AND itemId <= :last
            """)
        progress.finish()
    }

    /// Runs `sql` over the rows of `table` by rowid, `chunk` rows at a time (`:after`, `:last`).
    ///
    /// Each chunk costs a look-up of its last rowid, the statement, and a count for the progress.
    /// Rowids need not be dense: a chunk is the next `chunk` existing rows.
    ///
    /// - Parameters:
    ///   - db: The migration's connection.
    ///   - table: `item` (keyed by `id`) or `item_text` (keyed by `itemId`).
    ///   - chunk: Rows per statement.
    ///   - progress: Advanced by each chunk's rows.
    ///   - sql: An `INSERT … SELECT` bounded by `:after` (excluded) and `:last` (included).
    /// - Throws: GRDB's `DatabaseError` when a statement fails.
    private static func refill(_ db: Database, table: String, chunk: Int, progress: inout MigrationProgress, sql: String) throws {
        let key = table == "item" ? "id" : "itemId"
        let statement = try db.makeStatement(sql: sql)
        var after: Int64 = Int64.min
        while let last = try Int64.fetchOne(db, sql: """
            SELECT max(\(key)) FROM (SELECT \(key) FROM \(table) WHERE \(key) > ? ORDER BY \(key) LIMIT ?)
            """, arguments: [after, chunk]) {
            try statement.execute(arguments: ["after": after, "last": last])
            progress.advance(by: try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE \(key) > ? AND \(key) <= ?",
                                                  arguments: [after, last]) ?? 0)
            after = last
        }
    }

    /// The full-text index of item words since v10.
    static let foldedWordsTableSQL = wordsTableSQL(tokenize: SearchlightTokenizer.name, prefixes: shortPrefixes)

    /// The full-text index of authors and text since v10.
    static let foldedContentTableSQL = contentTableSQL(tokenize: SearchlightTokenizer.name, prefixes: shortPrefixes)

    /// The prefix indexes of both full-text tables since v10: a word typed as one, two or three
    /// characters is one look-up (``addShortPrefixes(_:)``).
    static let shortPrefixes = "1 2 3"

    /// The longest prefix, in characters, that the prefix indexes of ``shortPrefixes`` hold.
    ///
    /// A longer prefix is answered from the full words' lists, which FTS5 merges.
    static let longestIndexedPrefix = 3
}

/// A migration's progress on standard error, redrawn in place, only when it is a terminal
/// and the work is large enough to be waited for.
///
/// Writes to standard error directly: a library that upgrades an index in a process that is
/// no terminal (a service) writes nothing. Under 2 000 rows nothing is shown either.
package struct MigrationProgress {
    /// The number of rows the migration will fill.
    let total: Int
    /// What the migration is doing, in words (`making the word index for every script`).
    let what: String
    private var done = 0
    private var drawn = false
    private let shown: Bool

    /// A progress of `total` rows; shown only when standard error is a terminal and the work is
    /// large.
    package init(total: Int, what: String) {
        self.total = total
        self.what = what
        shown = total >= 2_000 && SystemCall.isTerminal(2)
    }

    /// Counts `count` more rows done and redraws the line, when shown.
    package mutating func advance(by count: Int) {
        done += count
        guard shown else { return }
        let percent = total > 0 ? min(100, done * 100 / total) : 100
        FileHandle.standardError.write(Data("\rsearchlight: upgrading the index, \(what): \(percent)%\u{1B}[K".utf8))
        drawn = true
    }

    /// Clears the line, when one was drawn.
    package func finish() {
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
