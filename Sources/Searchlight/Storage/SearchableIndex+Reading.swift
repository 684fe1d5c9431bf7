import Foundation
import GRDB

extension SearchableIndex {
    /// The columns every item fetch selects, in the order ``IndexedItem/init(row:)`` reads them.
    static let itemColumns = """
        item.identifier, domain.name AS domain, item.displayName, item.title, content_kind.contentType,
        content_kind.contentDescription, content_kind.keywords, item.derived, item.size, item.modificationDate,
        item.creationDate, item.pixelWidth, item.pixelHeight, item.pageCount, item.acquisitionMake, item.acquisitionModel,
        item.latitude, item.longitude, item.expirationDate, item.changeStamp, item.failure,
        item.userTags, item.comment, item.starRating, item.whereFroms,
        (SELECT authors FROM item_text WHERE item_text.itemId = item.id) AS authors, thumbnail.format AS tFormat, thumbnail.width AS tWidth, thumbnail.height AS tHeight,
        length(thumbnail.bytes) AS tBytes
        """
    static let itemJoins = """
        JOIN domain ON domain.id = item.domainId
        JOIN content_kind ON content_kind.id = item.kindId
        LEFT JOIN thumbnail ON thumbnail.itemId = item.id
        """
    /// The text column, for the fetches of one item (a list leaves texts out: up to 1 MiB each).
    static let textColumn = "(SELECT text FROM item_text WHERE item_text.itemId = item.id) AS textData"
    static let notExpired = "(item.expirationDate IS NULL OR item.expirationDate > :now)"

    /// One item, with its thumbnail bytes, or `nil` if the domain has no such item.
    public func item(_ identifier: ItemIdentifier, domain: String) throws -> IndexedItem? {
        try read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT \(Self.itemColumns), \(Self.textColumn), thumbnail.bytes AS tData FROM item \(Self.itemJoins)
                WHERE domain.name = :domain AND item.identifier = :id AND \(Self.notExpired)
                """, arguments: ["domain": domain, "id": Data(identifier.bytes), "now": Date().timeIntervalSince1970])
            return row.map { IndexedItem(row: $0) }
        }
    }

    /// The items that have `identifier` in any domain (or in `domain` when given).
    public func items(withIdentifier identifier: ItemIdentifier, domain: String? = nil) throws -> [IndexedItem] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT \(Self.itemColumns), \(Self.textColumn), thumbnail.bytes AS tData FROM item \(Self.itemJoins)
                WHERE item.identifier = :id AND (:domain IS NULL OR domain.name = :domain) AND \(Self.notExpired)
                ORDER BY domain.name
                """, arguments: ["domain": domain, "id": Data(identifier.bytes), "now": Date().timeIntervalSince1970])
                .indexedItems
        }
    }

    /// How many items there are (of `domain` when given), without reading them: what
    /// `list --count` prints, and what a caller that waits for an index to fill polls.
    public func itemCount(domain: String? = nil) throws -> Int {
        try read { db in
            try Int.fetchOne(db, sql: """
                SELECT count(*) FROM item WHERE \(Self.inDomain) AND \(Self.notExpired)
                """, arguments: ["domain": domain, "now": Date().timeIntervalSince1970]) ?? 0
        }
    }

    /// Calls `body` with every item (of `domain` when given), ordered by domain then identifier,
    /// without holding them all in memory. Return `false` from `body` to stop.
    public func forEachItem(domain: String? = nil, _ body: (IndexedItem) throws -> Bool) throws {
        try read { db in
            let cursor = try Row.fetchCursor(db, sql: """
                SELECT \(Self.itemColumns) FROM item \(Self.itemJoins)
                WHERE (:domain IS NULL OR domain.name = :domain) AND \(Self.notExpired)
                ORDER BY item.domainId, item.identifier
                """, arguments: ["domain": domain, "now": Date().timeIntervalSince1970])
            while let row = try cursor.next() {
                if try !body(IndexedItem(row: row)) { break }
            }
        }
    }

    /// A page of the identifiers and change stamps of a domain, in identifier (byte) order,
    /// starting after `identifier`. An indexer walks its source in the same order and merges.
    public func changeStamps(domain: String, after identifier: ItemIdentifier?, before upperBound: ItemIdentifier? = nil,
                             limit: Int) throws
        -> [(identifier: ItemIdentifier, changeStamp: [UInt8]?)]
    {
        try read { db in
            guard let domainID = try domainID(domain, in: db, create: false) else { return [] }
            let rows = try Row.fetchAll(db, sql: """
                SELECT identifier, changeStamp FROM item
                WHERE domainId = ? AND identifier > ? AND (? IS NULL OR identifier < ?)
                ORDER BY identifier LIMIT ?
                """, arguments: [domainID, Data(identifier?.bytes ?? []), upperBound.map { Data($0.bytes) },
                                 upperBound.map { Data($0.bytes) }, limit])
            return rows.map { row in
                let id: Data = row[0]
                let stamp: Data? = row[1]
                return (ItemIdentifier(bytes: Array(id)), stamp.map { Array($0) })
            }
        }
    }

    /// The change stamp of one item: `nil` when the domain has no such item, `.some(nil)` when
    /// the item has no stamp.
    public func changeStamp(of identifier: ItemIdentifier, domain: String) throws -> [UInt8]?? {
        try read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT item.changeStamp FROM item JOIN domain ON domain.id = item.domainId
                WHERE domain.name = ? AND item.identifier = ?
                """, arguments: [domain, Data(identifier.bytes)])
            guard let row else { return nil }
            let stamp: Data? = row[0]
            return .some(stamp.map { Array($0) })
        }
    }

    /// The change stamps of those of `identifiers` that are items of `domain`, read at once
    /// (an indexer that follows file-system events looks up many paths in each batch). An
    /// identifier that is no item is absent from the result; an item without a stamp maps to
    /// `nil`.
    public func changeStamps(of identifiers: [ItemIdentifier], domain: String) throws -> [ItemIdentifier: [UInt8]?] {
        guard !identifiers.isEmpty else { return [:] }
        return try read { db in
            guard let domainID = try domainID(domain, in: db, create: false) else { return [:] }
            var stamps: [ItemIdentifier: [UInt8]?] = [:]
            // Well below SQLite's limit on bound parameters.
            let chunkSize = 500
            var start = identifiers.startIndex
            while start < identifiers.endIndex {
                let chunk = identifiers[start..<min(start + chunkSize, identifiers.endIndex)]
                let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                var arguments: [(any DatabaseValueConvertible)?] = [domainID]
                arguments += chunk.map { Data($0.bytes) }
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT identifier, changeStamp FROM item WHERE domainId = ? AND identifier IN (\(placeholders))
                    """, arguments: StatementArguments(arguments))
                while let row = try rows.next() {
                    let identifier: Data = row[0]
                    let stamp: Data? = row[1]
                    stamps[ItemIdentifier(bytes: Array(identifier))] = .some(stamp.map { Array($0) })
                }
                start += chunk.count
            }
            return stamps
        }
    }

    /// The thumbnail of an item, if it has one.
    public func thumbnail(of identifier: ItemIdentifier, domain: String) throws -> Thumbnail? {
        try item(identifier, domain: domain)?.item.attributeSet.thumbnail
    }

    /// The names of the domains, sorted.
    public func domains() throws -> [String] {
        try read { db in try String.fetchAll(db, sql: "SELECT name FROM domain ORDER BY name") }
    }

    /// Each domain's stored state (see ``setState(_:domain:)``), by domain name.
    public func domainStates() throws -> [String: String] {
        try read { db in
            var states: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, state FROM domain WHERE state IS NOT NULL") {
                states[row[0]] = row[1]
            }
            return states
        }
    }

    /// What the index holds, per domain.
    public func statistics() throws -> IndexStatistics {
        try read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT domain.name, domain.lastUpdateDate, domain.state,
                    (SELECT count(*) FROM item WHERE item.domainId = domain.id) AS items,
                    (SELECT count(*) FROM item WHERE item.domainId = domain.id AND failure IS NOT NULL) AS failures,
                    (SELECT count(*) FROM thumbnail JOIN item ON item.id = thumbnail.itemId
                        WHERE item.domainId = domain.id) AS thumbnails
                FROM domain ORDER BY domain.name
                """)
            let domains = rows.map { row in
                IndexStatistics.Domain(
                    name: row["name"], itemCount: row["items"], failureCount: row["failures"],
                    thumbnailCount: row["thumbnails"],
                    lastUpdateDate: (row["lastUpdateDate"] as Double?).map(Date.init(timeIntervalSince1970:)),
                    state: row["state"])
            }
            let pageCount = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            return IndexStatistics(path: path, byteCount: Int64(pageCount * pageSize), domains: domains)
        }
    }

    /// The recorded failures of a domain (or of every domain), most recent identifiers first.
    public func failures(domain: String? = nil, limit: Int = 100) throws -> [(domain: String, identifier: ItemIdentifier, reason: String)] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT domain.name, item.identifier, item.failure FROM item JOIN domain ON domain.id = item.domainId
                WHERE item.failure IS NOT NULL AND (:domain IS NULL OR domain.name = :domain)
                ORDER BY domain.name, item.identifier LIMIT :limit
                """, arguments: ["domain": domain, "limit": limit])
                .map { row in
                    let id: Data = row[1]
                    return (row[0], ItemIdentifier(bytes: Array(id)), row[2])
                }
        }
    }
}

extension IndexedItem {
    /// Reads a row selected with ``SearchableIndex/itemColumns``; `layout`, when given, is
    /// where a fetch's rows hold their columns (the first row's, for all of them).
    init(row: Row, layout: ItemRowLayout? = nil) {
        let row = ItemRow(row: row, layout: layout ?? ItemRowLayout(row))
        var attributes = AttributeSet(contentType: row["contentType"])
        attributes.displayName = row["displayName"]
        let text = StoredText(title: row["title"], keywords: row["keywords"], column: row["derived"])
        attributes.title = text.title(displayName: attributes.displayName)
        attributes.keywords = text.keywords(displayName: attributes.displayName)
        attributes.contentDescription = row["contentDescription"]
        if row.has("textData"), let data: Data = row["textData"] {
            attributes.textContent = StoredContent.decompress(data)
        }
        if let authors: String = row["authors"] {
            attributes.authors = authors.split(separator: SearchableIndex.keywordSeparator).map(String.init)
        }
        attributes.pageCount = row["pageCount"]
        attributes.acquisitionMake = row["acquisitionMake"]
        attributes.acquisitionModel = row["acquisitionModel"]
        attributes.latitude = row["latitude"]
        attributes.longitude = row["longitude"]
        attributes.size = row["size"]
        attributes.contentModificationDate = (row["modificationDate"] as Double?).map(Date.init(timeIntervalSince1970:))
        attributes.contentCreationDate = (row["creationDate"] as Double?).map(Date.init(timeIntervalSince1970:))
        attributes.pixelWidth = row["pixelWidth"]
        attributes.pixelHeight = row["pixelHeight"]
        attributes.userAttributes = Self.userAttributes(row: row)
        var info: ThumbnailInfo?
        if let format: String = row["tFormat"] {
            info = ThumbnailInfo(format: format, width: row["tWidth"], height: row["tHeight"], byteCount: row["tBytes"])
            if row.has("tData"), let data: Data = row["tData"] {
                attributes.thumbnail = Thumbnail(format: format, width: row["tWidth"], height: row["tHeight"], bytes: Array(data))
            }
        }
        let identifier: Data = row["identifier"]
        let stamp: Data? = row["changeStamp"]
        let item = SearchableItem(
            uniqueIdentifier: ItemIdentifier(bytes: Array(identifier)),
            domainIdentifier: row["domain"],
            attributeSet: attributes,
            expirationDate: (row["expirationDate"] as Double?).map(Date.init(timeIntervalSince1970:)),
            changeStamp: stamp.map { Array($0) },
            failure: row["failure"],
            identifierIsPath: text.identifierIsPath)
        self.init(item: item, thumbnailInfo: info)
    }
}

extension [Row] {
    /// The items of one fetch's rows (selected with ``SearchableIndex/itemColumns``), their
    /// columns found once.
    var indexedItems: [IndexedItem] {
        guard let first else { return [] }
        let layout = ItemRowLayout(first)
        return map { IndexedItem(row: $0, layout: layout) }
    }
}

/// Where each column of a fetched row is, by name: looked up once per fetch rather than at
/// every value (GRDB's lookup by name lower-cases every column name each time: a tenth of a
/// served search went there).
struct ItemRowLayout {
    private let positions: [String: Int]

    init(_ row: Row) {
        positions = Dictionary(row.columnNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The position of `column`; the column must be selected.
    func position(_ column: String) -> Int {
        guard let position = positions[column] else { preconditionFailure("no column \(column) in the row") }
        return position
    }

    func has(_ column: String) -> Bool { positions[column] != nil }
}

/// A row read through its fetch's ``ItemRowLayout``.
struct ItemRow {
    let row: Row
    let layout: ItemRowLayout

    subscript<Value: DatabaseValueConvertible>(_ column: String) -> Value { row[layout.position(column)] }

    func has(_ column: String) -> Bool { layout.has(column) }
}
