import Foundation
import GRDB

/// What items of one kind share: their content type, description and the keywords they have
/// beyond their name's words (``StoredText/keywords``), which a file takes from its type and
/// description. Stored once in `content_kind`, which items reference by id, because a few
/// hundred kinds describe most of a disk.
struct ContentKind: Hashable {
    var type: String?
    var description: String?
    /// Keywords joined by ``SearchableIndex/keywordSeparator``.
    var keywords: String?

    /// Kinds are equal when their bytes are, as in the database (Swift's string equality
    /// would equate canonically equivalent texts and give one of them the other's row).
    static func == (left: ContentKind, right: ContentKind) -> Bool {
        sameBytes(left.type, right.type) && sameBytes(left.description, right.description)
            && sameBytes(left.keywords, right.keywords)
    }

    func hash(into hasher: inout Hasher) {
        for value in [type, description, keywords] {
            hasher.combine(value == nil)
            if var value {
                // The bytes at once: a kind is hashed for every item a scan writes.
                value.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            }
            hasher.combine(0xFF as UInt8)
        }
    }

    private static func sameBytes(_ left: String?, _ right: String?) -> Bool {
        switch (left, right) {
        case (nil, nil): true
        case let (left?, right?): left.utf8.elementsEqual(right.utf8)
        default: false
        }
    }

    /// A 64-bit FNV-1a hash of the three values, the same in every process: the column that
    /// finds a kind's row. Indexing the values themselves would cost as much as the rows,
    /// and some descriptions (libmagic's, with sizes and dimensions in them) are nearly unique.
    var digest: Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for value in [type, description, keywords] {
            // A tag before each value keeps `nil` apart from "" and values from one another.
            func add(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            add(value == nil ? 0 : 1)
            value?.utf8.forEach(add)
            add(0xFF)
        }
        return Int64(bitPattern: hash)
    }
}

extension SearchableIndex {
    /// Migration v3: items reference a `content_kind` row instead of repeating their type,
    /// description and keywords, and leave out the title and keywords their display name gives
    /// (``StoredText``). The `item` table is rebuilt with the same row ids, so thumbnails
    /// keep their items; the full-text index is rebuilt from the new rows.
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
            let kindID = try writer.kindID(ContentKind(type: row["contentType"], description: row["contentDescription"],
                                                       keywords: text.keywords))
            try insert.execute(arguments: ["id": row["id"] as Int64, "title": text.title, "kindId": kindID,
                                           "derived": text.derived])
        }
    }

    /// The triggers that keep `item_words` in step with `item` since v3: an item's keywords
    /// beyond its name's words are those of its kind.
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
