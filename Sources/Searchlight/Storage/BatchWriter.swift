import Foundation
import GRDB

/// Writes the changes of one batch inside its transaction, with its statements prepared once.
struct BatchWriter {
    let db: Database
    private var domainIDs: [String: Int64] = [:]
    private var kinds: [ContentKind: (id: Int64, words: Int)] = [:]

    init(db: Database) { self.db = db }

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

    /// The content kind row an item of `kind` references, and the ``StoredText/kindWords`` it
    /// reads its keywords with; the row is created when missing.
    ///
    /// With `sharing`, a row whose keywords start with `kind`'s words serves it (an item whose
    /// long name left room for fewer describing words reads the first few), and a row whose
    /// keywords are the start of `kind`'s is extended to them, its items told how many words
    /// they had first. Without it, only a row with exactly `kind`'s keywords serves (the
    /// v3 migration, whose item rows are not in `item` yet).
    mutating func kind(_ kind: ContentKind, sharing: Bool = true) throws -> (id: Int64, words: Int) {
        if let found = kinds[kind] { return found }
        let rows = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT id, keywords FROM content_kind WHERE digest = ? AND contentType IS ? AND contentDescription IS ?
            """), arguments: [kind.digest, kind.type, kind.description])
        let candidates = rows.map { (id: $0[0] as Int64, keywords: $0[1] as String?) }
        var found: (id: Int64, words: Int)?
        if let exact = candidates.first(where: { ContentKind.sameBytes($0.keywords, kind.keywords) }) {
            found = (exact.id, 0)
        } else if sharing, let longer = candidates.first(where: { Self.words($0.keywords, start: kind.keywords) }) {
            found = (longer.id, Self.wordCount(kind.keywords) + 1)
        } else if sharing, let shorter = candidates.first(where: { Self.words(kind.keywords, start: $0.keywords) }) {
            // The items that read all of the row's words read as many as it has now; then it
            // takes the longer keywords. In this order the full-text triggers see the same
            // words before and after each item's update.
            let words = Self.wordCount(shorter.keywords) + 1
            try db.cachedStatement(sql: """
                UPDATE item SET derived = derived + ? WHERE kindId = ? AND derived < ?
                """).execute(arguments: [words << StoredText.kindWordsShift, shorter.id, 1 << StoredText.kindWordsShift])
            try db.cachedStatement(sql: "UPDATE content_kind SET keywords = ? WHERE id = ?")
                .execute(arguments: [kind.keywords, shorter.id])
            var old = kind
            old.keywords = shorter.keywords
            if kinds[old] != nil { kinds[old] = (shorter.id, words) }
            found = (shorter.id, 0)
        }
        if found == nil {
            try db.cachedStatement(sql: """
                INSERT INTO content_kind(digest, contentType, contentDescription, keywords) VALUES (?, ?, ?, ?)
                """).execute(arguments: [kind.digest, kind.type, kind.description, kind.keywords])
            found = (db.lastInsertedRowID, 0)
        }
        kinds[kind] = found
        return found!
    }

    /// Whether the joined keywords `whole` start with the words of `start` (no words start any).
    private static func words(_ whole: String?, start: String?) -> Bool {
        guard let start else { return true }
        guard let whole else { return false }
        let wholeBytes = whole.utf8, startBytes = start.utf8
        guard wholeBytes.starts(with: startBytes) else { return false }
        let next = wholeBytes.dropFirst(startBytes.count).first
        return next == nil || next == 0x1F
    }

    /// How many words joined keywords hold.
    private static func wordCount(_ keywords: String?) -> Int {
        guard let keywords else { return 0 }
        return keywords.utf8.reduce(1) { $1 == 0x1F ? $0 + 1 : $0 }
    }

    mutating func upsert(_ item: SearchableItem) throws {
        let domain = try domainID(item.domainIdentifier)
        let a = item.attributeSet
        let statement = try db.cachedStatement(sql: """
            INSERT INTO item(domainId, identifier, displayName, title, kindId, derived,
                size, modificationDate, creationDate, pixelWidth, pixelHeight, pageCount,
                acquisitionMake, acquisitionModel, latitude, longitude, expirationDate, changeStamp, failure,
                userTags, comment, starRating, whereFroms)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(domainId, identifier) DO UPDATE SET
                displayName = excluded.displayName, title = excluded.title, kindId = excluded.kindId,
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
        text.kindWords = kind.words
        let arguments: StatementArguments = [
            domain, Data(item.uniqueIdentifier.bytes), a.displayName, text.title, kind.id, text.column, a.size,
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

    mutating func delete(_ identifier: ItemIdentifier, domain: String) throws {
        let domain = try domainID(domain)
        try db.cachedStatement(sql: "DELETE FROM item WHERE domainId = ? AND identifier = ?")
            .execute(arguments: [domain, Data(identifier.bytes)])
    }

    mutating func deleteTree(_ identifier: ItemIdentifier, domain: String) throws {
        try delete(identifier, domain: domain)
        let domain = try domainID(domain)
        let (low, high) = SearchableIndex.descendantRange(of: identifier)
        try db.cachedStatement(sql: "DELETE FROM item WHERE domainId = ? AND identifier >= ? AND identifier < ?")
            .execute(arguments: [domain, low, high])
    }

    mutating func move(_ from: ItemIdentifier, to: ItemIdentifier, domain: String, rename: IndexBatch.Rename?) throws {
        guard from != to else {
            if let rename { try self.rename(to, rename, domain: domain) }
            return
        }
        // Whatever stands at the destination is replaced, as rename(2) replaces it.
        try deleteTree(to, domain: domain)
        let domainID = try domainID(domain)
        try db.cachedStatement(sql: "UPDATE item SET identifier = ? WHERE domainId = ? AND identifier = ?")
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
