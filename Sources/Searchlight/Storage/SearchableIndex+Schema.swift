import Foundation
import GRDB

extension SearchableIndex {
    /// Brings the schema up to date. An index that the `v3-compact` migration just rebuilt is
    /// vacuumed once: its old item table left a third of the file as free pages.
    ///
    /// Each migration runs in its own transaction (GRDB's migrator), so a failure leaves the
    /// index at the last migration that succeeded. A new index gets every migration in order, and
    /// is not vacuumed. Called when a handle opens an index for writing, and after a reset.
    ///
    /// - Parameter database: The index's writer.
    /// - Throws: GRDB's `DatabaseError` when a migration fails.
    static func migrate(_ database: any DatabaseWriter) throws {
        let applied = try database.read { try migrator.appliedIdentifiers($0) }
        try migrator.migrate(database)
        if !applied.isEmpty, !applied.contains("v3-compact") {
            // Only space is at stake: an index that cannot be vacuumed now (no room for the
            // copy, a reader holding it) works as well, a third larger.
            try? database.vacuum()
        }
    }

    /// The schema, created and evolved by GRDB's migrator.
    ///
    /// - `domain`: one row per domain, with what its indexer wants to remember about it.
    /// - `item`: one row per item; its typed columns serve queries. Since v3 it stores its
    ///   content type, description and keywords as a `content_kind` row, and no title or
    ///   keywords that its display name gives (``StoredText``).
    /// - `content_kind`: each (content type, description, keywords) once (``ContentKind``).
    /// - `item_words`: a contentless FTS5 index of the words of each item's name, title,
    ///   keywords and folders. SQL triggers keep it in step with `item`, through the
    ///   `searchlight_words` functions registered on every connection, so every write path
    ///   (upserts, deletes, cascades, re-keys) maintains it.
    /// - `thumbnail`: thumbnails apart, so that item rows stay small.
    /// - `item_text` and `item_content` (since v4): authors and text, and their full-text
    ///   index (``addContent(_:)``).
    /// - Since v5, an item's folders are words of it only when its identifier is a path, and
    ///   what its display name gives is stored without any file rule (``storeDerivationInItems(_:)``).
    /// - Since v7, items may read the first few keywords of a shared kind (``shareKindKeywords(_:)``).
    /// - Since v8, a display name that is the identifier's last component is not stored again
    ///   (``deriveNames(_:)``).
    /// - Since v11, the vectors of search by meaning (``addMeaning(_:)``); since v12, each
    ///   item's row names its text's vectors' row (``nameVectorRows(_:)``).
    ///
    /// Built anew at each use (a computed property): only writers need it, and a read-only open
    /// compares identifiers with ``migrations`` instead. A migration, once released, is never
    /// edited: a change of schema is a new migration at the end, added to ``migrations`` too.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE domain (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    lastUpdateDate REAL,
                    state TEXT
                );
                CREATE TABLE item (
                    id INTEGER PRIMARY KEY,
                    domainId INTEGER NOT NULL REFERENCES domain(id) ON DELETE CASCADE,
                    identifier BLOB NOT NULL,
                    displayName TEXT,
                    title TEXT,
                    contentType TEXT,
                    contentDescription TEXT,
                    keywords TEXT,
                    textContent TEXT,
                    size INTEGER,
                    modificationDate REAL,
                    creationDate REAL,
                    pixelWidth INTEGER,
                    pixelHeight INTEGER,
                    expirationDate REAL,
                    changeStamp BLOB,
                    failure TEXT
                );
                CREATE UNIQUE INDEX item_by_identifier ON item(domainId, identifier);
                CREATE INDEX item_by_expiration ON item(expirationDate) WHERE expirationDate IS NOT NULL;
                CREATE INDEX item_by_failure ON item(domainId) WHERE failure IS NOT NULL;
                CREATE TABLE thumbnail (
                    itemId INTEGER PRIMARY KEY REFERENCES item(id) ON DELETE CASCADE,
                    format TEXT NOT NULL,
                    width INTEGER NOT NULL,
                    height INTEGER NOT NULL,
                    bytes BLOB NOT NULL
                );
                """)
            try db.execute(sql: wordsTableSQL + wordsTriggersSQL)
        }
        migrator.registerMigration("v2-query", migrate: createQueryIndexes)
        migrator.registerMigration("v3-compact", migrate: compactItems)
        migrator.registerMigration("v4-content", migrate: addContent)
        migrator.registerMigration("v5-derivation", migrate: storeDerivationInItems)
        migrator.registerMigration("v6-user-tags", migrate: addUserAttributes)
        migrator.registerMigration("v7-kind-words", migrate: shareKindKeywords)
        migrator.registerMigration("v8-derived-names", migrate: deriveNames)
        migrator.registerMigration("v9-one-word-fold", migrate: foldWordsAlike)
        migrator.registerMigration("v10-short-prefixes", migrate: addShortPrefixes)
        migrator.registerMigration("v11-meaning", migrate: addMeaning)
        migrator.registerMigration("v12-meaning-rows", migrate: nameVectorRows)
        return migrator
    }

    /// The identifiers of ``migrator``'s migrations, in order (a test checks they are the
    /// same): what a read-only open compares the index's with, without building the migrator
    /// (its closures and GRDB's generic records cost every search's start-up).
    static let migrations = ["v1", "v2-query", "v3-compact", "v4-content", "v5-derivation", "v6-user-tags",
                             "v7-kind-words", "v8-derived-names", "v9-one-word-fold", "v10-short-prefixes",
                             "v11-meaning", "v12-meaning-rows"]

    /// The full-text index of the words of each item (see ``migrator``).
    ///
    /// The table of v1, kept as it was for the migrations that rebuild it later; today's table is
    /// made by the migrations of v9 and v10.
    static let wordsTableSQL = wordsTableSQL(tokenize: "unicode61 remove_diacritics 2", prefixes: "2 3")

    /// The full-text index of the words of each item, with a tokenizer and prefix indexes:
    /// FTS5's `unicode61` until v8, ``SearchlightTokenizer`` since v9; prefixes of two and
    /// three characters until v9, and of one since v10.
    ///
    /// Contentless (`content=''`) and with `detail=column`: the index stores which column each
    /// word is in, not its offsets, which is all ranking by field needs and keeps the table small;
    /// the words are given again by the triggers when a row is deleted.
    ///
    /// - Parameters:
    ///   - tokenize: FTS5's `tokenize` option.
    ///   - prefixes: FTS5's `prefix` option: the prefix lengths to index.
    /// - Returns: The `CREATE VIRTUAL TABLE` statement.
    static func wordsTableSQL(tokenize: String, prefixes: String) -> String {
        """
        CREATE VIRTUAL TABLE item_words USING fts5(
            name, title, keywords, folders,
            content='', columnsize=0, detail=column, prefix='\(prefixes)',
            tokenize='\(tokenize)'
        );
        """
    }

    /// The triggers that keep `item_words` in step with `item`, until v3.
    static let wordsTriggersSQL = """
        CREATE TRIGGER item_words_insert AFTER INSERT ON item BEGIN
            INSERT INTO item_words(rowid, name, title, keywords, folders) VALUES (
                new.id, searchlight_words(new.displayName), searchlight_words(new.title),
                searchlight_words(new.keywords), searchlight_folder_words(new.identifier));
        END;
        CREATE TRIGGER item_words_delete AFTER DELETE ON item BEGIN
            INSERT INTO item_words(item_words, rowid, name, title, keywords, folders) VALUES (
                'delete', old.id, searchlight_words(old.displayName), searchlight_words(old.title),
                searchlight_words(old.keywords), searchlight_folder_words(old.identifier));
        END;
        CREATE TRIGGER item_words_update AFTER UPDATE OF displayName, title, keywords, identifier ON item BEGIN
            INSERT INTO item_words(item_words, rowid, name, title, keywords, folders) VALUES (
                'delete', old.id, searchlight_words(old.displayName), searchlight_words(old.title),
                searchlight_words(old.keywords), searchlight_folder_words(old.identifier));
            INSERT INTO item_words(rowid, name, title, keywords, folders) VALUES (
                new.id, searchlight_words(new.displayName), searchlight_words(new.title),
                searchlight_words(new.keywords), searchlight_folder_words(new.identifier));
        END;
        """

    /// Keywords are stored joined by this separator, which no keyword contains.
    ///
    /// U+001F, the ASCII unit separator: a control character no keyword is made of.
    static let keywordSeparator: Character = "\u{1F}"

    /// Registers the SQL functions the triggers and compiled queries use.
    ///
    /// Called for every GRDB connection the index opens (``configuration(readOnly:)``), readers included, before any statement:
    /// SQLite's functions and tokenizers belong to a connection, not to the file, so a connection
    /// without them could not run the triggers or the compiled queries.
    ///
    /// - Parameter db: A connection being prepared.
    static func registerFunctions(in db: Database) {
        db.add(tokenizer: SearchlightTokenizer.self)
        // Where a search's words are in each row (first pages, issue 47); a connection without
        // it ranks those rows column by column.
        if let connection = db.sqliteConnection { try? PhraseColumns.register(on: connection) }
        db.add(function: DatabaseFunction("searchlight_words", argumentCount: 1, pure: true) { values in
            guard let text = String.fromDatabaseValue(values[0]) else { return nil }
            return NameTokenizer.joinedWords(in: text)
        })
        // The one-argument form serves the triggers of v1 to v4, which took every identifier as a path.
        db.add(function: DatabaseFunction("searchlight_folder_words", argumentCount: 1, pure: true) { values in
            Data.fromDatabaseValue(values[0]).flatMap { folderWords(identifier: $0, derived: nil) }
        })
        db.add(function: DatabaseFunction("searchlight_folder_words", argumentCount: 2, pure: true) { values in
            Data.fromDatabaseValue(values[0]).flatMap { folderWords(identifier: $0, derived: Int.fromDatabaseValue(values[1]) ?? 0) }
        })
        registerContentFunctions(in: db)
        QueryFunctions.register(in: db)
    }
}
