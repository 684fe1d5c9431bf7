import Foundation
import GRDB

extension SearchableIndex {
    /// Migration v3: items reference a `content_kind` row instead of repeating their type,
    /// description and keywords, and leave out the title and keywords their display name gives
    /// (``StoredText``). The `item` table is rebuilt with the same row ids, so thumbnails
    /// keep their items; the full-text index is rebuilt from the new rows.
    ///
    /// Runs once, inside the migration's transaction, when an index written before v3 is opened
    /// for writing: it reads and rewrites every item, one statement each, and rebuilds the word
    /// index, so on a large old index the first open takes a while. A failure leaves the index
    /// at v2.
    ///
    /// In order: `content_kind` and `item_compact` are made, every item copied
    /// (``copyToCompactItems(_:)``), the old table dropped (its triggers with it) and the new one
    /// renamed `item` and given its indexes; then `item_words` is emptied and filled again in one
    /// `INSERT … SELECT`, and only then are the triggers of ``compactWordsTriggersSQL`` made, so
    /// that no row reaches the word index twice.
    ///
    /// - Parameter db: The migration's connection, inside its transaction.
    /// - Throws: GRDB's `DatabaseError` when a statement fails.
    static func compactItems(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE content_kind (
                id INTEGER PRIMARY KEY,
                contentType TEXT,
                contentDescription TEXT,
                keywords TEXT,
                digest INTEGER NOT NULL
            );
            CREATE INDEX content_kind_by_digest ON content_kind(digest);
            CREATE INDEX content_kind_by_type ON content_kind(contentType);
            CREATE TABLE item_compact (
                id INTEGER PRIMARY KEY,
                domainId INTEGER NOT NULL REFERENCES domain(id) ON DELETE CASCADE,
                identifier BLOB NOT NULL,
                displayName TEXT,
                title TEXT,
                kindId INTEGER NOT NULL REFERENCES content_kind(id),
                derived INTEGER NOT NULL DEFAULT 0,
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
            """)
        try copyToCompactItems(db)
        try db.execute(sql: """
            DROP TABLE item;
            ALTER TABLE item_compact RENAME TO item;
            CREATE UNIQUE INDEX item_by_identifier ON item(domainId, identifier);
            CREATE INDEX item_by_expiration ON item(expirationDate) WHERE expirationDate IS NOT NULL;
            CREATE INDEX item_by_failure ON item(domainId) WHERE failure IS NOT NULL;
            CREATE INDEX item_by_kind ON item(kindId);
            CREATE INDEX item_by_modification_date ON item(modificationDate);
            INSERT INTO item_words(item_words) VALUES ('delete-all');
            INSERT INTO item_words(rowid, name, title, keywords, folders)
                SELECT item.id, searchlight_words(displayName), searchlight_words(title),
                    searchlight_words(content_kind.keywords), searchlight_folder_words(identifier)
                FROM item JOIN content_kind ON content_kind.id = item.kindId;
            """ + compactWordsTriggersSQL)
    }

    /// Copies every row of the v2 `item` table into `item_compact`, in its compact form.
    ///
    /// Kinds are found or made through ``BatchWriter`` without sharing, so each distinct type,
    /// description and keywords become one `content_kind` row; an item's title and keywords are
    /// split as ``LegacyText`` splits them (what its display name gives is left out).
    ///
    /// One cursor over the old table reads the columns that change; each item is then written
    /// by one prepared `INSERT … SELECT` of its own row, which copies the columns that do not.
    /// Row ids are kept, so the thumbnails still name their items.
    ///
    /// - Parameter db: The migration's connection.
    /// - Throws: GRDB's `DatabaseError` when a statement fails.
    private static func copyToCompactItems(_ db: Database) throws {
        var writer = BatchWriter(db: db)
        let insert = try db.makeStatement(sql: """
            INSERT INTO item_compact(id, domainId, identifier, displayName, title, kindId, derived,
                textContent, size, modificationDate, creationDate, pixelWidth, pixelHeight, expirationDate,
                changeStamp, failure)
            SELECT id, domainId, identifier, displayName, :title, :kindId, :derived,
                textContent, size, modificationDate, creationDate, pixelWidth, pixelHeight, expirationDate,
                changeStamp, failure
            FROM item WHERE id = :id
            """)
        let rows = try Row.fetchCursor(db, sql: """
            SELECT id, displayName, title, keywords, contentType, contentDescription FROM item
            """)
        while let row = try rows.next() {
            var attributes = AttributeSet()
            attributes.displayName = row["displayName"]
            attributes.title = row["title"]
            if let keywords: String = row["keywords"] {
                attributes.keywords = keywords.split(separator: keywordSeparator).map(String.init)
            }
            let text = LegacyText.storedText(attributes)
            let kindID = try writer.kind(ContentKind(type: row["contentType"], description: row["contentDescription"],
                                                     keywords: text.keywords), sharing: false).id
            try insert.execute(arguments: ["id": row["id"] as Int64, "title": text.title, "kindId": kindID,
                                           "derived": text.derived])
        }
    }

    /// The triggers that keep `item_words` in step with `item` since v3: an item's keywords
    /// beyond its name's words are those of its kind.
    ///
    /// The word index is external content: its `'delete'` rows must give the very words that
    /// were inserted, so each trigger computes the old row's words with the same functions
    /// (`searchlight_words`, `searchlight_folder_words`) as the insert did. Only an update of a
    /// column that gives words (`displayName`, `title`, `kindId`, `identifier`) touches the index.
    static let compactWordsTriggersSQL = """
        CREATE TRIGGER item_words_insert AFTER INSERT ON item BEGIN
            INSERT INTO item_words(rowid, name, title, keywords, folders) VALUES (
                new.id, searchlight_words(new.displayName), searchlight_words(new.title),
                searchlight_words((SELECT keywords FROM content_kind WHERE id = new.kindId)),
                searchlight_folder_words(new.identifier));
        END;
        CREATE TRIGGER item_words_delete AFTER DELETE ON item BEGIN
            INSERT INTO item_words(item_words, rowid, name, title, keywords, folders) VALUES (
                'delete', old.id, searchlight_words(old.displayName), searchlight_words(old.title),
                searchlight_words((SELECT keywords FROM content_kind WHERE id = old.kindId)),
                searchlight_folder_words(old.identifier));
        END;
        CREATE TRIGGER item_words_update AFTER UPDATE OF displayName, title, kindId, identifier ON item BEGIN
            INSERT INTO item_words(item_words, rowid, name, title, keywords, folders) VALUES (
                'delete', old.id, searchlight_words(old.displayName), searchlight_words(old.title),
                searchlight_words((SELECT keywords FROM content_kind WHERE id = old.kindId)),
                searchlight_folder_words(old.identifier));
            INSERT INTO item_words(rowid, name, title, keywords, folders) VALUES (
                new.id, searchlight_words(new.displayName), searchlight_words(new.title),
                searchlight_words((SELECT keywords FROM content_kind WHERE id = new.kindId)),
                searchlight_folder_words(new.identifier));
        END;
        """
}
