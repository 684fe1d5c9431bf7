import Foundation
import GRDB

/// Writes the changes of one batch inside its transaction, with its statements prepared once.
struct BatchWriter {
    /// The writer's connection, inside the batch's transaction.
    let db: Database
    /// The row ids of the domains met so far, by name.
    private var domainIDs: [String: Int64] = [:]
    /// The content kind rows met so far, with the characters of keywords their items read.
    private var kinds: [ContentKind: (id: Int64, characters: Int)] = [:]
    /// The kind rows of each type and description this batch has met.
    private var buckets: [ContentKindBucket.Key: ContentKindBucket] = [:]

    /// A writer on `db`, whose transaction the caller holds.
    init(db: Database) { self.db = db }

    /// The row id of the domain `name`, its row inserted the first time it is met.
    mutating func domainID(_ name: String) throws -> Int64 {
        if let id = domainIDs[name] { return id }
        var id = try SearchableIndex.domainID(named: name, in: db)
        if id == nil {
            try db.execute(sql: "INSERT INTO domain(name) VALUES (?)", arguments: [name])
            id = db.lastInsertedRowID
        }
        domainIDs[name] = id!
        return id!
    }

    /// The content kind row an item of `kind` references, and the ``StoredText/kindCharacters``
    /// it reads its keywords with; the row is created when missing.
    ///
    /// With `sharing`, a row whose keywords start with `kind`'s words serves it (an item whose
    /// long name left room for fewer describing words reads their start), and a row whose
    /// keywords are the start of `kind`'s is extended to them. Without it, only a row with
    /// exactly `kind`'s keywords serves, read whole (the v3 migration, whose item rows are not
    /// in `item` yet).
    mutating func kind(_ kind: ContentKind, sharing: Bool = true) throws -> (id: Int64, characters: Int) {
        if let found = kinds[kind] { return found }
        let key = ContentKindBucket.Key(kind)
        // Taken out of the dictionary while it changes: a copy still referenced there would
        // make every change copy the bucket's tables (a type's kinds: with content, about one
        // per document), which made a window of new notes quadratic.
        var bucket = try buckets.removeValue(forKey: key) ?? ContentKindBucket(kind, in: db)
        defer { buckets[key] = bucket }
        let keywords = kind.keywords.map { Array($0.utf8) }
        let characters = sharing ? Self.characterCount(kind.keywords) + 1 : 0
        var id: Int64?
        if let exact = bucket.exact(keywords) {
            id = exact
        } else if sharing, let longer = bucket.longer(than: keywords) {
            id = longer
        } else if sharing, let shorter = bucket.shorter(than: keywords) {
            // Items written before v7 read all of the row's words: they are told how many
            // characters that is first, then the row takes the longer keywords. In this order
            // the full-text triggers see the same words before and after each item's update.
            let kept = Self.characterCount(shorter.keywords.map { String(decoding: $0, as: UTF8.self) }) + 1
            try db.cachedStatement(sql: """
                UPDATE item SET derived = derived + ? WHERE kindId = ? AND derived < ?
                """).execute(arguments: [kept << StoredText.kindCharactersShift, shorter.id, 1 << StoredText.kindCharactersShift])
            try db.cachedStatement(sql: "UPDATE content_kind SET keywords = ? WHERE id = ?")
                .execute(arguments: [kind.keywords, shorter.id])
            bucket.extend(id: shorter.id, to: keywords)
            id = shorter.id
        }
        if id == nil {
            try db.cachedStatement(sql: """
                INSERT INTO content_kind(digest, contentType, contentDescription, keywords) VALUES (?, ?, ?, ?)
                """).execute(arguments: [kind.digest, kind.type, kind.description, kind.keywords])
            id = db.lastInsertedRowID
            bucket.append(id: id!, keywords: keywords)
        }
        let found = (id: id!, characters: characters)
        kinds[kind] = found
        return found
    }

    /// How many characters (Unicode scalars, as SQLite counts them) joined keywords hold.
    private static func characterCount(_ keywords: String?) -> Int {
        keywords?.unicodeScalars.count ?? 0
    }

    /// Inserts `item`, or updates every column of the row of its domain and identifier (the
    /// row keeps its id, so its text's and thumbnail's rows are replaced, not orphaned); then
    /// stores its text, authors and thumbnail.
    mutating func upsert(_ item: SearchableItem) throws {
        let domain = try domainID(item.domainIdentifier)
        let a = item.attributeSet
        let statement = try db.cachedStatement(sql: """
            INSERT INTO item(domainId, identifier, storedName, nameLength, title, kindId, derived,
                size, modificationDate, creationDate, pixelWidth, pixelHeight, pageCount,
                acquisitionMake, acquisitionModel, latitude, longitude, expirationDate, changeStamp, failure,
                userTags, comment, starRating, whereFroms)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(domainId, identifier) DO UPDATE SET
                storedName = excluded.storedName, nameLength = excluded.nameLength, title = excluded.title,
                kindId = excluded.kindId,
                derived = excluded.derived, size = excluded.size, modificationDate = excluded.modificationDate,
                creationDate = excluded.creationDate, pixelWidth = excluded.pixelWidth,
                pixelHeight = excluded.pixelHeight, pageCount = excluded.pageCount,
                acquisitionMake = excluded.acquisitionMake, acquisitionModel = excluded.acquisitionModel,
                latitude = excluded.latitude, longitude = excluded.longitude, expirationDate = excluded.expirationDate,
                changeStamp = excluded.changeStamp, failure = excluded.failure,
                userTags = excluded.userTags, comment = excluded.comment, starRating = excluded.starRating,
                whereFroms = excluded.whereFroms
            RETURNING id
            """)
        var text = StoredText(a, identifierIsPath: item.identifierIsPath)
        let kind = try self.kind(ContentKind(type: a.contentType, description: a.contentDescription, keywords: text.keywords))
        text.kindCharacters = kind.characters
        let name = SearchableIndex.storedName(a.displayName, identifier: item.uniqueIdentifier)
        let arguments: StatementArguments = [
            domain, Data(item.uniqueIdentifier.bytes), name.name, name.length, text.title, kind.id, text.column, a.size,
            a.contentModificationDate?.timeIntervalSince1970, a.contentCreationDate?.timeIntervalSince1970,
            a.pixelWidth, a.pixelHeight, a.pageCount, a.acquisitionMake, a.acquisitionModel, a.latitude, a.longitude,
            item.expirationDate?.timeIntervalSince1970, item.changeStamp.map { Data($0) }, item.failure,
            SearchableIndex.storedList(a.userTags), a.comment, a.starRating, SearchableIndex.storedList(a.whereFroms),
        ]
        let itemID = try Int64.fetchOne(statement, arguments: arguments)!
        try storeContent(of: a, itemID: itemID)
        try db.cachedStatement(sql: "DELETE FROM thumbnail WHERE itemId = ?").execute(arguments: [itemID])
        if let thumbnail = a.thumbnail, !thumbnail.bytes.isEmpty {
            try db.cachedStatement(sql: "INSERT INTO thumbnail(itemId, format, width, height, bytes) VALUES (?, ?, ?, ?, ?)")
                .execute(arguments: [itemID, thumbnail.format, thumbnail.width, thumbnail.height, Data(thumbnail.bytes)])
        }
    }

    /// Deletes one item; the rows that hang on it (text, thumbnail, vectors' link) go by
    /// foreign key or trigger.
    mutating func delete(_ identifier: ItemIdentifier, domain: String) throws {
        let domain = try domainID(domain)
        try db.cachedStatement(sql: "DELETE FROM item WHERE domainId = ? AND identifier = ?")
            .execute(arguments: [domain, Data(identifier.bytes)])
    }

    /// Deletes `identifier` and every identifier in its ``ItemIdentifier/descendantBounds``: one
    /// range of the `(domainId, identifier)` index.
    mutating func deleteTree(_ identifier: ItemIdentifier, domain: String) throws {
        try delete(identifier, domain: domain)
        let domain = try domainID(domain)
        let (low, high) = SearchableIndex.descendantRange(of: identifier)
        try db.cachedStatement(sql: "DELETE FROM item WHERE domainId = ? AND identifier >= ? AND identifier < ?")
            .execute(arguments: [domain, low, high])
    }

    /// Re-keys `from` and its descendants to `to` in place, after deleting what stood at `to`
    /// (as `rename(2)` replaces it); `rename` then renames the moved item.
    mutating func move(_ from: ItemIdentifier, to: ItemIdentifier, domain: String, rename: IndexBatch.Rename?) throws {
        guard from != to else {
            if let rename { try self.rename(to, rename, domain: domain) }
            return
        }
        // Whatever stands at the destination is replaced, as rename(2) replaces it.
        try deleteTree(to, domain: domain)
        let domainID = try domainID(domain)
        // The item keeps its display name, which its new identifier's last component may not be.
        try db.cachedStatement(sql: """
            UPDATE item SET identifier = ?, storedName = displayName, nameLength = NULL WHERE domainId = ? AND identifier = ?
            """)
            .execute(arguments: [Data(to.bytes), domainID, Data(from.bytes)])
        if let rename { try self.rename(to, rename, domain: domain) }
        let (low, high) = SearchableIndex.descendantRange(of: from)
        // Descendants keep their names; only the prefix of their identifiers changes.
        try db.cachedStatement(sql: """
            UPDATE item SET identifier = CAST(CAST(? AS BLOB) || substr(identifier, ?) AS BLOB)
            WHERE domainId = ? AND identifier >= ? AND identifier < ?
            """)
            .execute(arguments: [Data(to.bytes), from.bytes.count + 1, domainID, low, high])
    }
}
