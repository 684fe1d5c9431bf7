import Foundation
import GRDB
import GRDBSQLite

extension SearchableIndex {
    /// Migration `v4-content`: what is inside documents.
    ///
    /// - `item` gains `pageCount`, `acquisitionMake`, `acquisitionModel`, `latitude`,
    ///   `longitude`, and loses `textContent`: the text moves out of the item rows, which name
    ///   search reads, so that they stay small.
    /// - `item_text`: one row per item that has authors or text: its authors (joined by the
    ///   keyword separator) and its text, compressed (``StoredContent``).
    /// - `item_content`: a contentless FTS5 index of the words of `item_text` (columns
    ///   `authors`, `text`), kept in step by triggers on `item_text` (the 'delete' command of a
    ///   contentless table needs the text that was indexed, which `item_text` still holds).
    ///   `detail=column`: no word positions, so a phrase is found as its words, then checked
    ///   on the stored text. Measured in Benchmarks/README.md ("Content index").
    ///
    /// - `item_content_vocab`: the words of `item_content` and how many items have each
    ///   (``KeywordRanker``); a view, it takes no room.
    ///
    /// Text that an older version kept in `item.textContent` is moved, compressed.
    ///
    /// - Parameter db: The migrating connection, with the content functions registered
    ///   (``registerContentFunctions(in:)``): the triggers and the move of old text call them.
    /// - Throws: A `DatabaseError` when a statement fails (the migration is then rolled back).
    static func addContent(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE item ADD COLUMN pageCount INTEGER;
            ALTER TABLE item ADD COLUMN acquisitionMake TEXT;
            ALTER TABLE item ADD COLUMN acquisitionModel TEXT;
            ALTER TABLE item ADD COLUMN latitude REAL;
            ALTER TABLE item ADD COLUMN longitude REAL;
            CREATE TABLE item_text (
                itemId INTEGER PRIMARY KEY REFERENCES item(id) ON DELETE CASCADE,
                authors TEXT,
                text BLOB
            );
            """ + contentTableSQL + contentTriggersSQL + """
            CREATE VIRTUAL TABLE item_content_vocab USING fts5vocab(item_content, row);
            INSERT INTO item_text(itemId, text)
                SELECT id, searchlight_compress(textContent) FROM item WHERE length(textContent) > 0;
            ALTER TABLE item DROP COLUMN textContent;
            """)
    }

    /// The contentless full-text index of authors and text, as v4 made it.
    static let contentTableSQL = contentTableSQL(tokenize: "unicode61 remove_diacritics 2", prefixes: nil)

    /// The contentless full-text index of authors and text, with a tokenizer and prefix
    /// indexes (none until v10).
    ///
    /// - Parameters:
    ///   - tokenize: The FTS5 `tokenize` option, as written inside its quotes.
    ///   - prefixes: The FTS5 `prefix` option (lengths separated by spaces), or `nil` for none.
    static func contentTableSQL(tokenize: String, prefixes: String?) -> String {
        """
        CREATE VIRTUAL TABLE item_content USING fts5(
            authors, text,
            content='', columnsize=0, detail=column,\(prefixes.map { " prefix='\($0)'," } ?? "")
            tokenize='\(tokenize)'
        );
        """
    }

    /// The triggers that keep `item_content` in step with `item_text`.
    ///
    /// Each trigger inflates the text (`searchlight_content_words`): a connection that writes
    /// `item_text` needs the functions of ``registerContentFunctions(in:)``.
    static let contentTriggersSQL = """
        CREATE TRIGGER item_text_insert AFTER INSERT ON item_text BEGIN
            INSERT INTO item_content(rowid, authors, text) VALUES (
                new.itemId, new.authors, searchlight_content_words(new.text));
        END;
        CREATE TRIGGER item_text_delete AFTER DELETE ON item_text BEGIN
            INSERT INTO item_content(item_content, rowid, authors, text) VALUES (
                'delete', old.itemId, old.authors, searchlight_content_words(old.text));
        END;
        CREATE TRIGGER item_text_update AFTER UPDATE ON item_text BEGIN
            INSERT INTO item_content(item_content, rowid, authors, text) VALUES (
                'delete', old.itemId, old.authors, searchlight_content_words(old.text));
            INSERT INTO item_content(rowid, authors, text) VALUES (
                new.itemId, new.authors, searchlight_content_words(new.text));
        END;
        """

    /// Registers the functions of the content tables: `searchlight_compress(text)`,
    /// `searchlight_text(compressed)` and `searchlight_content_words(compressed)` (the text the
    /// full-text index is given, ``ContentWords/indexed(_:)``).
    ///
    /// Each returns NULL for NULL, and the two that inflate return NULL for bytes that do not
    /// inflate.
    static func registerContentFunctions(in db: Database) {
        db.add(function: DatabaseFunction("searchlight_compress", argumentCount: 1, pure: true) { values in
            String.fromDatabaseValue(values[0]).map(StoredContent.compress)
        })
        db.add(function: DatabaseFunction("searchlight_text", argumentCount: 1, pure: true) { values in
            Data.fromDatabaseValue(values[0]).flatMap(StoredContent.decompress)
        })
        db.add(function: DatabaseFunction("searchlight_content_words", argumentCount: 1, pure: true) { values in
            Data.fromDatabaseValue(values[0]).flatMap(StoredContent.decompress).map(ContentWords.indexed)
        })
    }

    /// The text of one item (`show --text`), or `nil` when it has none or the domain has no such item.
    ///
    /// The text as stored: the item's ``AttributeSet/textContent`` cut at 1 MiB of UTF-8,
    /// inflated from its compressed column. Only the text is read, not the item.
    ///
    /// ```swift
    /// if let text = try index.textContent(of: "reports/q3.pdf", domain: "documents") {
    ///     print(text.prefix(200))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - identifier: The item's identifier within `domain`.
    ///   - domain: The item's domain.
    /// - Returns: The text, or `nil`.
    /// - Throws: ``SearchlightError`` when the index cannot be read.
    public func textContent(of identifier: ItemIdentifier, domain: String) throws -> String? {
        try read { db in
            let data = try Data.fetchOne(db, sql: """
                SELECT item_text.text FROM item_text JOIN item ON item.id = item_text.itemId
                JOIN domain ON domain.id = item.domainId WHERE domain.name = ? AND item.identifier = ?
                """, arguments: [domain, Data(identifier.bytes)])
            return data.flatMap(StoredContent.decompress)
        }
    }

    /// The texts of items by row id, for snippets; only the first `limit` bytes of each when
    /// given (inflating no more: ranking reads the start of long texts).
    ///
    /// Without `limit`, one statement (the ids as one JSON array) reads and inflates every text
    /// whole; with it, ``textStarts(of:limit:in:)`` reads each one's start.
    ///
    /// - Parameters:
    ///   - ids: Row ids of items.
    ///   - limit: How many bytes of each text are wanted, when not all.
    ///   - db: Either kind of read connection.
    /// - Returns: The texts by row id; an item without text, or whose text does not inflate, is
    ///   absent. Empty, without a read, for no ids.
    /// - Throws: An error of the connection when the read fails.
    static func texts(of ids: [Int64], limit: Int? = nil, in db: any ReadConnection) throws -> [Int64: String] {
        guard !ids.isEmpty else { return [:] }
        if let limit { return try textStarts(of: ids, limit: limit, in: db) }
        var texts: [Int64: String] = [:]
        try db.readStatement("""
            SELECT itemId, text FROM item_text WHERE itemId IN (SELECT value FROM json_each(?)) AND text IS NOT NULL
            """).forEachRow(.text("[" + ids.map(String.init).joined(separator: ",") + "]")) { row in
                texts[sqlite3_column_int64(row, 0)] = StoredContent.decompress(blob(row, 1))
                return true
            }
        return texts
    }

    /// The first `limit` bytes of the texts of items by row id, reading only the start of each
    /// compressed value (SQLite's incremental blob I/O): a column read whole brings every
    /// overflow page of a long text through the page cache, and the 200 texts a search scores
    /// for relevance (``TextRelevance``) were mostly copies from the kernel.
    ///
    /// Deflate never needs more than `limit` + 5 bytes per 16 KiB block to give `limit` bytes, so
    /// that much of the value (with its 4-byte length) is always enough.
    ///
    /// One blob handle serves every id (`sqlite3_blob_reopen`), so the cost is a seek and one
    /// read of little more than `limit` bytes a text.
    ///
    /// A handle that fails to move to a row (no `item_text` row, or a NULL text) is closed, and
    /// the next id opens a new one.
    ///
    /// - Parameters:
    ///   - ids: Row ids of items, read in this order.
    ///   - limit: How many bytes of each text are wanted.
    ///   - db: Either kind of read connection.
    /// - Returns: The starts by row id; an item without text, or whose start does not inflate,
    ///   is absent. Empty when the connection tells no handle.
    /// - Throws: An error of the connection when its statement cannot be prepared; a failed
    ///   read of one text only leaves that text out.
    static func textStarts(of ids: [Int64], limit: Int, in db: any ReadConnection) throws -> [Int64: String] {
        // Either kind of connection (GRDB's or a read-only handle's) tells its handle through a statement.
        let statement = try db.readStatement("SELECT 1")
        guard let connection = sqlite3_db_handle(statement.statement) else { return [:] }
        let wanted = 4 + limit + 5 * (limit / 16_384 + 1) + 64
        var texts: [Int64: String] = [:]
        var handle: OpaquePointer?
        defer { if let handle { sqlite3_blob_close(handle) } }
        var buffer = [UInt8](repeating: 0, count: wanted)
        for id in ids {
            // A row without text (or a NULL one) is skipped, as the query of whole texts skips it.
            let opened = handle.map { sqlite3_blob_reopen($0, id) }
                ?? sqlite3_blob_open(connection, "main", "item_text", "text", id, 0, &handle)
            guard opened == SQLITE_OK, let handle else {
                if let stale = handle { sqlite3_blob_close(stale) }
                handle = nil
                continue
            }
            let count = min(Int(sqlite3_blob_bytes(handle)), wanted)
            guard count >= 4, sqlite3_blob_read(handle, &buffer, Int32(count), 0) == SQLITE_OK else { continue }
            texts[id] = buffer.withUnsafeBufferPointer { StoredContent.decompressPrefix(UnsafeBufferPointer(rebasing: $0[..<count]), limit: limit) }
        }
        return texts
    }
}

extension SearchableIndex {
    /// The snippets of the texts of items by row id, around the first match of `tokens`.
    ///
    /// The start of each text is inflated first (``snippetPrefix`` bytes): most first matches
    /// are there, and inflating whole texts of up to 1 MiB for a page of a thousand results
    /// took half a second. The texts whose start holds no match are then read whole, in the
    /// order of `ids` (best first), until ``snippetBudget`` bytes of text were read: a page of
    /// fifty manuals whose only match is deep inside each is not read end to end on every
    /// keystroke. A text past the budget has no snippet (its result still says it matched in
    /// the content).
    ///
    /// The budget is checked before each text is read: the text that crosses it is still read
    /// whole and described, so one page reads at most the budget and one text more.
    ///
    /// - Parameters:
    ///   - ids: Row ids of the results to describe, best first: the budget goes to the first.
    ///   - tokens: The search's folded words.
    ///   - db: Either kind of read connection.
    /// - Returns: Snippets by row id; a text whose start holds no match and that lies past the
    ///   budget has none.
    /// - Throws: An error of the connection when a read fails.
    static func snippets(of ids: [Int64], matching tokens: [String], in db: any ReadConnection) throws -> [Int64: String] {
        let matcher = SnippetMatcher(tokens: tokens)
        var snippets: [Int64: String] = [:]
        var unmatched: Set<Int64> = []
        for (id, start) in try texts(of: ids, limit: snippetPrefix, in: db) {
            // A match near the end of a cut start would lose the words after it.
            let isWhole = start.utf8.count < snippetPrefix - 4
            let match = matcher.firstMatch(in: start)
            if let match, isWhole || start.utf8.distance(from: match.upperBound, to: start.endIndex) > 4 * Snippet.maximumLength {
                snippets[id] = matcher.snippet(of: start, around: match)
            } else if !isWhole {
                unmatched.insert(id)
            }
        }
        var budget = snippetBudget
        for id in ids where unmatched.contains(id) && budget > 0 {
            guard let text = try texts(of: [id], in: db)[id] else { continue }
            budget -= text.utf8.count
            snippets[id] = matcher.snippet(of: text)
        }
        return snippets
    }

    /// How many bytes of a text ``snippets(of:matching:in:)`` inflates first.
    package static let snippetPrefix = 16 * 1024

    /// How many bytes of whole texts ``snippets(of:matching:in:)`` reads at most for one page.
    package static let snippetBudget = 2 * 1024 * 1024
}

extension BatchWriter {
    /// Stores an item's authors and text (or removes them), rewriting the full-text rows only
    /// when they changed: a re-indexed item with the same text costs one comparison.
    ///
    /// Authors are stored joined by ``SearchableIndex/keywordSeparator``; an empty text counts as
    /// none; an item with neither has no `item_text` row. Costs one seek in `item_text`, then at
    /// most one write, whose triggers rewrite the item's full-text rows.
    ///
    /// - Parameters:
    ///   - attributes: The item's attributes: only ``AttributeSet/authors`` and
    ///     ``AttributeSet/textContent`` are read.
    ///   - itemID: The item's row id.
    /// - Throws: A `DatabaseError` when a statement fails.
    func storeContent(of attributes: AttributeSet, itemID: Int64) throws {
        let authors = attributes.authors.isEmpty
            ? nil : attributes.authors.joined(separator: String(SearchableIndex.keywordSeparator))
        let text = attributes.textContent.flatMap { $0.isEmpty ? nil : StoredContent.compress($0) }
        let existing = try Row.fetchOne(db.cachedStatement(sql: "SELECT CAST(authors AS BLOB), text FROM item_text WHERE itemId = ?"),
                                        arguments: [itemID])
        guard authors != nil || text != nil else {
            if existing != nil {
                try db.cachedStatement(sql: "DELETE FROM item_text WHERE itemId = ?").execute(arguments: [itemID])
            }
            return
        }
        if let existing {
            // Bytes, not Swift strings: canonically equivalent authors are still a change.
            let sameAuthors = (existing[0] as Data?) == authors.map { Data($0.utf8) }
            guard !sameAuthors || existing[1] as Data? != text else { return }
            try db.cachedStatement(sql: "UPDATE item_text SET authors = ?, text = ? WHERE itemId = ?")
                .execute(arguments: [authors, text, itemID])
        } else {
            try db.cachedStatement(sql: "INSERT INTO item_text(itemId, authors, text) VALUES (?, ?, ?)")
                .execute(arguments: [itemID, authors, text])
        }
    }
}
