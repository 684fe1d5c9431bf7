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
    /// The joins ``itemColumns`` reads through: the domain's name, the content kind (type,
    /// description, keywords), and the thumbnail's row when there is one.
    static let itemJoins = """
        JOIN domain ON domain.id = item.domainId
        JOIN content_kind ON content_kind.id = item.kindId
        LEFT JOIN thumbnail ON thumbnail.itemId = item.id
        """
    /// The text column, for the fetches of one item (a list leaves texts out: up to 1 MiB each).
    static let textColumn = "(SELECT text FROM item_text WHERE item_text.itemId = item.id) AS textData"
    /// The condition that leaves out the items whose expiration date has passed (`:now`, in
    /// seconds since 1970): a read never shows them, though only the next write deletes them.
    static let notExpired = "(item.expirationDate IS NULL OR item.expirationDate > :now)"

    /// One item, with its thumbnail bytes, or `nil` if the domain has no such item.
    ///
    /// Unlike the items of a search or a list, the item read here carries its text
    /// (``AttributeSet/textContent``, as stored: at most 1 MiB) and its thumbnail's bytes. An
    /// expired item is not returned. On a read-only handle the read goes through SQLite's C
    /// API, without opening GRDB's connection.
    ///
    /// ```swift
    /// if let note = try index.item("list-1", domain: "notes") {
    ///     print(note.item.attributeSet.textContent ?? "")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - identifier: The item's identifier within `domain`.
    ///   - domain: The item's domain.
    /// - Returns: The item, or `nil`.
    /// - Throws: ``SearchlightError`` when the index cannot be read.
    public func item(_ identifier: ItemIdentifier, domain: String) throws -> IndexedItem? {
        try readStatements { db in
            try ItemReader.items(of: db.readStatement("""
                SELECT \(Self.itemColumns), \(Self.textColumn), thumbnail.bytes AS tData FROM item \(Self.itemJoins)
                WHERE domain.name = :domain AND item.identifier = :id AND \(Self.notExpired)
                """), named: ["domain": .text(domain), "id": .blob(identifier.bytes), "now": .real(Date().timeIntervalSince1970)]).first
        }
    }

    /// The items that have `identifier` in any domain (or in `domain` when given).
    ///
    /// Each is read whole, as ``item(_:domain:)`` reads it: what a caller that knows a file's
    /// path but not which root indexed it asks.
    ///
    /// - Parameters:
    ///   - identifier: The identifier to look for.
    ///   - domain: Only this domain, when given.
    /// - Returns: The items, by domain name.
    /// - Throws: ``SearchlightError`` when the index cannot be read.
    public func items(withIdentifier identifier: ItemIdentifier, domain: String? = nil) throws -> [IndexedItem] {
        try readStatements { db in
            try ItemReader.items(of: db.readStatement("""
                SELECT \(Self.itemColumns), \(Self.textColumn), thumbnail.bytes AS tData FROM item \(Self.itemJoins)
                WHERE item.identifier = :id AND (:domain IS NULL OR domain.name = :domain) AND \(Self.notExpired)
                ORDER BY domain.name
                """), named: ["domain": .text(domain), "id": .blob(identifier.bytes), "now": .real(Date().timeIntervalSince1970)])
        }
    }

    /// How many items there are (of `domain` when given), without reading them: what
    /// `list --count` prints, and what a caller that waits for an index to fill polls.
    ///
    /// Expired items are not counted. The count is one SQL `count(*)` over the domain's items:
    /// its time grows with the index.
    ///
    /// - Parameter domain: Only this domain, when given.
    /// - Returns: The number of items.
    /// - Throws: ``SearchlightError`` when the index cannot be read.
    public func itemCount(domain: String? = nil) throws -> Int {
        try read { db in
            try Int.fetchOne(db, sql: """
                SELECT count(*) FROM item WHERE \(Self.inDomain) AND \(Self.notExpired)
                """, arguments: ["domain": domain, "now": Date().timeIntervalSince1970]) ?? 0
        }
    }

    /// Calls `body` with every item (of `domain` when given), ordered by domain then identifier,
    /// without holding them all in memory. Return `false` from `body` to stop.
    ///
    /// ```swift
    /// try index.forEachItem(domain: "notes") { item in
    ///     print(item.item.uniqueIdentifier)
    ///     return true   // go on
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - domain: Only this domain, when given.
    ///   - body: Called with each item; returns `false` to stop.
    /// - Throws: ``SearchlightError`` when the index cannot be read, or what `body` throws.
    public func forEachItem(domain: String? = nil, _ body: (IndexedItem) throws -> Bool) throws {
        // GRDB's connection, not ``readStatements(_:)``: `body` may read the index itself.
        try read { db in
            try ItemReader.forEachItem(of: db.readStatement("""
                SELECT \(Self.itemColumns) FROM item \(Self.itemJoins)
                WHERE (:domain IS NULL OR domain.name = :domain) AND \(Self.notExpired)
                ORDER BY item.domainId, item.identifier
                """), named: ["domain": .text(domain), "now": .real(Date().timeIntervalSince1970)], body)
        }
    }

    /// The thumbnail of an item, if it has one.
    ///
    /// Reads the whole item (``item(_:domain:)``) and keeps its thumbnail: the bytes as the
    /// indexer stored them, in the encoding ``Thumbnail/format`` names.
    ///
    /// - Parameters:
    ///   - identifier: The item's identifier within `domain`.
    ///   - domain: The item's domain.
    /// - Returns: The thumbnail, or `nil` when there is no such item or it has none.
    /// - Throws: ``SearchlightError`` when the index cannot be read.
    public func thumbnail(of identifier: ItemIdentifier, domain: String) throws -> Thumbnail? {
        try item(identifier, domain: domain)?.item.attributeSet.thumbnail
    }

    /// The names of the domains, sorted.
    ///
    /// A domain exists from its first item (or ``markUpdated(domain:date:)``) until
    /// ``deleteAllItems(inDomains:)``; one whose items were all deleted one by one is still listed.
    ///
    /// - Returns: The names, in byte order.
    /// - Throws: ``SearchlightError`` when the index cannot be read.
    public func domains() throws -> [String] {
        try read { db in try String.fetchAll(db, sql: "SELECT name FROM domain ORDER BY name") }
    }

    /// Reads every domain's stored state without decoding it: what a command that prints only
    /// paths reads up front, so that a damaged `domain` table fails it before anything is
    /// printed, as reading the domains' roots does.
    /// - Throws: ``SearchlightError`` when the `domain` table cannot be read (damage).
    public func readDomainStates() throws {
        try readStatements { db in _ = try Self.strings(in: db, "SELECT state FROM domain WHERE state IS NOT NULL") }
    }

    /// What the index holds, per domain.
    ///
    /// For each domain: its items, how many of them failed to be read, how many have a
    /// thumbnail, and when it was last brought up to date; and the size of the main file (not
    /// counting its write-ahead log). Each count is a scan of the domain's rows, so this is a
    /// status report, not something to ask in a loop.
    ///
    /// ```swift
    /// for domain in try index.statistics().domains {
    ///     print(domain.name, domain.itemCount, domain.failureCount)
    /// }
    /// ```
    ///
    /// - Returns: The statistics, domains by name.
    /// - Throws: ``SearchlightError`` when the index cannot be read.
    public func statistics() throws -> IndexStatistics {
        try read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT domain.name, domain.lastUpdateDate,
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
                    lastUpdateDate: (row["lastUpdateDate"] as Double?).map(Date.init(timeIntervalSince1970:)))
            }
            let pageCount = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            return IndexStatistics(path: path, byteCount: Int64(pageCount * pageSize), domains: domains)
        }
    }
}
