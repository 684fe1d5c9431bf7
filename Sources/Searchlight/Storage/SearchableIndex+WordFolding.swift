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
    static let longestIndexedPrefix = 3
}

/// A migration's progress on standard error, redrawn in place, only when it is a terminal
/// and the work is large enough to be waited for.
package struct MigrationProgress {
    let total: Int
    let what: String
    private var done = 0
    private var drawn = false
    private let shown: Bool

    package init(total: Int, what: String) {
        self.total = total
        self.what = what
        shown = total >= 2_000 && SystemCall.isTerminal(2)
    }

    package mutating func advance(by count: Int) {
        done += count
        guard shown else { return }
        let percent = total > 0 ? min(100, done * 100 / total) : 100
        FileHandle.standardError.write(Data("\rsearchlight: upgrading the index, \(what): \(percent)%\u{1B}[K".utf8))
        drawn = true
    }

    package func finish() {
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
