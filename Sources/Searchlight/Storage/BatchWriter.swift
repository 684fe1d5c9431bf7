import Foundation
import GRDB

/// Writes the changes of one batch inside its transaction, with its statements prepared once.
struct BatchWriter {
    let db: Database
    private var domainIDs: [String: Int64] = [:]
    private var kindIDs: [ContentKind: Int64] = [:]

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

    /// The id of a content kind's row, created when missing.
    mutating func kindID(_ kind: ContentKind) throws -> Int64 {
        if let id = kindIDs[kind] { return id }
        let arguments: StatementArguments = [kind.digest, kind.type, kind.description, kind.keywords]
        var id = try Int64.fetchOne(db.cachedStatement(sql: """
            SELECT id FROM content_kind
            WHERE digest = ? AND contentType IS ? AND contentDescription IS ? AND keywords IS ?
            """), arguments: arguments)
        if id == nil {
            try db.cachedStatement(sql: """
                INSERT INTO content_kind(digest, contentType, contentDescription, keywords) VALUES (?, ?, ?, ?)
                """).execute(arguments: arguments)
            id = db.lastInsertedRowID
        }
        kindIDs[kind] = id!
        return id!
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
        let text = StoredText(a, identifierIsPath: item.identifierIsPath)
        let kind = try kindID(ContentKind(type: a.contentType, description: a.contentDescription, keywords: text.keywords))
        let arguments: StatementArguments = [
            domain, Data(item.uniqueIdentifier.bytes), a.displayName, text.title, kind, text.column, a.size,
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
