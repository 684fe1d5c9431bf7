import Foundation
import PostgresNIO
import Searchlight

extension PostgresIndex {
    /// The columns every item fetch selects, in the order ``decodeItem(_:withThumbnail:)`` reads them.
    ///
    /// The last four columns come from the thumbnail's row and are `NULL` when the item has
    /// none; its bytes are not among them (only their length), so that a page of items does not
    /// carry every picture. A fetch that wants the bytes selects `thumbnail.bytes` after these.
    static let itemColumns = columns(text: "item.text_content")

    /// ``itemColumns`` without the text (`NULL`): what a search's ranking statements carry, so that
    /// no text leaves TOAST there; ``searchResults(words:domain:limit:scope:)`` reads the texts
    /// its results need afterwards (``texts(of:characters:budget:)``).
    static let foundItemColumns = columns(text: "NULL::text")

    /// The item columns, in the order ``decodeItem(_:withThumbnail:)`` reads them, with `text`
    /// as the text's.
    private static func columns(text: String) -> String {
        """
        item.identifier, domain.name, item.display_name, item.title, item.authors, item.content_type,
        item.content_description, item.keywords, \(text), item.size, item.modification_date,
        item.creation_date, item.pixel_width, item.pixel_height, item.page_count, item.acquisition_make,
        item.acquisition_model, item.latitude, item.longitude, item.expiration_date, item.change_stamp, item.failure,
        item.identifier_is_path, item.user_tags, item.comment, item.star_rating, item.where_froms, thumbnail.format, thumbnail.width, thumbnail.height, length(thumbnail.bytes)
        """
    }

    /// The joins ``itemColumns`` reads through: the domain's name, and the thumbnail's row
    /// (keyed like the item's) when there is one.
    static let itemJoins = """
        JOIN domain ON domain.id = item.domain_id
        LEFT JOIN thumbnail ON thumbnail.domain_id = item.domain_id AND thumbnail.identifier = item.identifier
        """
    /// One item, with its thumbnail bytes, or `nil` if the domain has no such item.
    ///
    /// A reader that signed in as a person gets `nil` as well for an item that person may not
    /// open: the server's row-level security leaves its row out.
    ///
    /// ```swift
    /// let note = try await index.item("notes/todo.md", domain: "notes")
    /// ```
    ///
    /// One statement, on one of the handle's connections; an expired item is `nil`.
    ///
    /// - Parameters:
    ///   - identifier: The item's identifier within `domain`.
    ///   - domain: The item's domain.
    /// - Returns: The item, or `nil`.
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    public func item(_ identifier: ItemIdentifier, domain: String) async throws -> IndexedItem? {
        try await items(withIdentifier: identifier, domain: domain).first
    }

    /// The items that have `identifier` in any domain (or in `domain` when given), with their thumbnail bytes.
    ///
    /// One statement. An identifier is unique within a domain only, so without `domain` the
    /// same path indexed by two domains (two machines' copies of a folder) gives two items.
    ///
    /// - Parameters:
    ///   - identifier: The identifier to look for.
    ///   - domain: Only this domain, when given.
    /// - Returns: The items that are not expired, by domain name.
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    public func items(withIdentifier identifier: ItemIdentifier, domain: String? = nil) async throws -> [IndexedItem] {
        let id = ByteBuffer(bytes: identifier.bytes)
        let now = Date().timeIntervalSince1970
        return try await withConnection("cannot read the index") { connection in
            let rows = try await connection.query("""
                SELECT \(unescaped: Self.itemColumns), thumbnail.bytes FROM item \(unescaped: Self.itemJoins)
                WHERE item.identifier = \(id) AND (\(domain)::text IS NULL OR domain.name = \(domain))
                    AND (item.expiration_date IS NULL OR item.expiration_date > \(now))
                ORDER BY domain.name
                """, logger: self.logger)
            var items: [IndexedItem] = []
            for try await row in rows { items.append(try Self.decodeItem(row, withThumbnail: true)) }
            return items
        }
    }

    /// How many items there are (of `domain` when given).
    ///
    /// Expired items are not counted, nor, for a reader signed in as a person, the items that
    /// person may not open.
    ///
    /// A `count(*)` over the item table: it reads every row of the domain (PostgreSQL keeps no
    /// stored count), so on a large index it costs what a scan of that domain costs.
    ///
    /// - Parameter domain: Only this domain, when given.
    /// - Returns: The number of items.
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    public func itemCount(domain: String? = nil) async throws -> Int {
        let now = Date().timeIntervalSince1970
        return try await withConnection("cannot read the index") { connection in
            let rows = try await connection.query("""
                SELECT count(*)::bigint FROM item
                WHERE (\(domain)::text IS NULL OR item.domain_id = (SELECT id FROM domain WHERE name = \(domain)))
                    AND (item.expiration_date IS NULL OR item.expiration_date > \(now))
                """, logger: self.logger)
            return try await Self.single(rows, Int.self) ?? 0
        }
    }

    /// Every item (of `domain` when given), ordered by domain then identifier, read a page at
    /// a time so that they are never all in memory. Return `false` from `body` to stop.
    ///
    /// Each page is a statement of its own, which starts after the last item of the page
    /// before: items written meanwhile are seen if they sort after that point. Items are read
    /// without their thumbnail bytes.
    ///
    /// ```swift
    /// var count = 0
    /// try await index.forEachItem(domain: "notes") { _ in count += 1; return true }
    /// ```
    ///
    /// - Parameters:
    ///   - domain: Only this domain, when given.
    ///   - body: Called with each item, awaited; returns `false` to stop.
    /// - Throws: ``PostgresIndexError`` when a page cannot be read, or what `body` throws.
    public func forEachItem(domain: String? = nil, _ body: (IndexedItem) async throws -> Bool) async throws {
        try await forEachItem(domain: domain, pageSize: 1000, body)
    }

    /// ``forEachItem(domain:_:)``, reading `pageSize` items per statement.
    ///
    /// Each page is one statement on a connection that is released before `body` runs, so a
    /// slow `body` holds no connection. A smaller page bounds the memory; a larger one saves
    /// round trips.
    ///
    /// - Throws: ``PostgresIndexError`` when a page cannot be read, or what `body` throws.
    /// - Parameters:
    ///   - domain: Only this domain, when given.
    ///   - pageSize: The number of items read per statement; more than zero.
    ///   - body: Called with each item, awaited; returns `false` to stop.
    public func forEachItem(domain: String?, pageSize: Int, _ body: (IndexedItem) async throws -> Bool) async throws {
        var after: (domain: String, identifier: ItemIdentifier)?
        while true {
            let page = try await itemPage(domain: domain, after: after, limit: pageSize)
            for item in page {
                if try await !body(item) { return }
            }
            guard page.count == pageSize, let last = page.last else { return }
            after = (last.item.domainIdentifier, last.item.uniqueIdentifier)
        }
    }

    /// At most `limit` items after `after` (by domain name, then identifier, in byte order),
    /// without their thumbnail bytes: one page of ``forEachItem(domain:pageSize:_:)``.
    ///
    /// Domains are ordered with `COLLATE "C"` (bytes), the order the key comparison that resumes
    /// after `after` uses; expired items are left out.
    ///
    /// - Returns: At most `limit` items; fewer means the last page.
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    func itemPage(domain: String?, after: (domain: String, identifier: ItemIdentifier)?,
                          limit: Int) async throws -> [IndexedItem] {
        let now = Date().timeIntervalSince1970
        let afterDomain = after?.domain
        let afterID = after.map { ByteBuffer(bytes: $0.identifier.bytes) }
        return try await withConnection("cannot read the index") { connection in
            let rows = try await connection.query("""
                SELECT \(unescaped: Self.itemColumns) FROM item \(unescaped: Self.itemJoins)
                WHERE (\(domain)::text IS NULL OR domain.name = \(domain))
                    AND (\(afterDomain)::text IS NULL OR (domain.name COLLATE "C", item.identifier) > (\(afterDomain), \(afterID)::bytea))
                    AND (item.expiration_date IS NULL OR item.expiration_date > \(now))
                ORDER BY domain.name COLLATE "C", item.identifier LIMIT \(limit)
                """, logger: self.logger)
            var items: [IndexedItem] = []
            for try await row in rows { items.append(try Self.decodeItem(row, withThumbnail: false)) }
            return items
        }
    }

    /// A page of the identifiers and change stamps of a domain, in identifier (byte) order,
    /// after `identifier` and before `upperBound`: what an indexer merges with its walk.
    ///
    /// Walks the primary key `(domain_id, identifier)` in order and stops at `limit`, so each
    /// page costs about the rows it returns. Expired items are included.
    ///
    /// - Parameters:
    ///   - domain: The domain.
    ///   - identifier: Start after this identifier; `nil`: from the first.
    ///   - upperBound: Stop before this identifier; `nil`: at the last.
    ///   - limit: At most this many.
    /// - Returns: Identifiers in byte order, each with its stamp (`nil` when it has none).
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    public func changeStamps(domain: String, after identifier: ItemIdentifier?, before upperBound: ItemIdentifier? = nil,
                             limit: Int) async throws -> [(identifier: ItemIdentifier, changeStamp: [UInt8]?)] {
        let after = ByteBuffer(bytes: identifier?.bytes ?? [])
        let before = upperBound.map { ByteBuffer(bytes: $0.bytes) }
        return try await withConnection("cannot read the index") { connection in
            let rows = try await connection.query("""
                SELECT item.identifier, \(unescaped: PostgreSQLVisibility.storedStamp) FROM item
                WHERE item.domain_id = (SELECT id FROM domain WHERE name = \(domain)) AND item.identifier > \(after)
                    AND (\(before)::bytea IS NULL OR item.identifier < \(before))
                ORDER BY item.identifier LIMIT \(limit)
                """, logger: self.logger)
            var stamps: [(identifier: ItemIdentifier, changeStamp: [UInt8]?)] = []
            for try await (id, stamp) in rows.decode((ByteBuffer, ByteBuffer?).self) {
                stamps.append((ItemIdentifier(bytes: Array(id.readableBytesView)), stamp.map { Array($0.readableBytesView) }))
            }
            return stamps
        }
    }

    /// The change stamp of one item: `nil` when the domain has no such item, `.some(nil)` when
    /// the item has no stamp.
    ///
    /// One statement; to ask about many items, ``changeStamps(of:domain:)`` reads them together.
    ///
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    public func changeStamp(of identifier: ItemIdentifier, domain: String) async throws -> [UInt8]?? {
        let stamps = try await changeStamps(of: [identifier], domain: domain)
        return stamps[identifier]
    }

    /// The change stamps of those of `identifiers` that are items of `domain`, read at once.
    ///
    /// One statement for all the identifiers (`= ANY($1)`), none when `identifiers` is empty.
    ///
    /// - Returns: A stamp (or `nil` for an item without one) for each identifier that is an
    ///   item; the others are absent.
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    public func changeStamps(of identifiers: [ItemIdentifier], domain: String) async throws -> [ItemIdentifier: [UInt8]?] {
        guard !identifiers.isEmpty else { return [:] }
        let ids = identifiers.map { ByteBuffer(bytes: $0.bytes) }
        return try await withConnection("cannot read the index") { connection in
            let rows = try await connection.query("""
                SELECT item.identifier, \(unescaped: PostgreSQLVisibility.storedStamp) FROM item
                WHERE item.domain_id = (SELECT id FROM domain WHERE name = \(domain)) AND item.identifier = ANY(\(ids))
                """, logger: self.logger)
            var stamps: [ItemIdentifier: [UInt8]?] = [:]
            for try await (id, stamp) in rows.decode((ByteBuffer, ByteBuffer?).self) {
                stamps[ItemIdentifier(bytes: Array(id.readableBytesView))] = .some(stamp.map { Array($0.readableBytesView) })
            }
            return stamps
        }
    }

    /// The thumbnail of an item, if it has one.
    ///
    /// The bytes are read only here and by ``item(_:domain:)``: searches, queries and
    /// ``forEachItem(domain:_:)`` give only the thumbnail's format, size and byte count.
    ///
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    /// - Parameters:
    ///   - identifier: The item's identifier within `domain`.
    ///   - domain: The item's domain.
    /// - Returns: The thumbnail, or `nil` when the item has none or does not exist.
    public func thumbnail(of identifier: ItemIdentifier, domain: String) async throws -> Thumbnail? {
        let id = ByteBuffer(bytes: identifier.bytes)
        return try await withConnection("cannot read the index") { connection in
            let rows = try await connection.query("""
                SELECT thumbnail.format, thumbnail.width, thumbnail.height, thumbnail.bytes FROM thumbnail
                WHERE thumbnail.domain_id = (SELECT id FROM domain WHERE name = \(domain))
                    AND thumbnail.identifier = \(id)
                """, logger: self.logger)
            var thumbnail: Thumbnail?
            for try await (format, width, height, bytes) in rows.decode((String, Int, Int, ByteBuffer).self) {
                thumbnail = Thumbnail(format: format, width: width, height: height, bytes: Array(bytes.readableBytesView))
            }
            return thumbnail
        }
    }

    /// The names of the domains, sorted (by bytes).
    ///
    /// Every machine's domains: a shared index holds them all.
    ///
    /// - Returns: The names, in byte order.
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    public func domains() async throws -> [String] {
        try await withConnection("cannot read the index") { connection in
            var names: [String] = []
            let rows = try await connection.query("SELECT name FROM domain ORDER BY name COLLATE \"C\"",
                                                  logger: self.logger)
            for try await name in rows.decode(String.self) { names.append(name) }
            return names
        }
    }

    /// Each domain's stored state (the file indexer's `DomainState`, as JSON), by domain name.
    ///
    /// Domains that have stored no state are absent. Read through ``PostgresStore`` (the file
    /// indexer's domain states) and by the server's status.
    ///
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    package func domainStates() async throws -> [String: String] {
        try await withConnection("cannot read the index") { connection in
            var states: [String: String] = [:]
            let rows = try await connection.query("SELECT name, state FROM domain WHERE state IS NOT NULL",
                                                  logger: self.logger)
            for try await (name, state) in rows.decode((String, String).self) { states[name] = state }
            return states
        }
    }

    /// What the index holds, per domain; ``IndexStatistics/byteCount`` is the size of the
    /// index's tables and their indexes, and ``IndexStatistics/path`` the URL without password.
    ///
    /// Two statements on one connection. The counts include expired items not yet forgotten
    /// (unlike ``itemCount(domain:)``) and read every row of each domain; the size is what
    /// `pg_total_relation_size` reports for the three tables, so it includes their TOAST data and
    /// indexes but not the other tables of later schema versions.
    ///
    /// - Returns: The statistics, domains by name.
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    public func statistics() async throws -> IndexStatistics {
        let location = self.location.description
        return try await withConnection("cannot read the index") { connection in
            let rows = try await connection.query("""
                SELECT domain.name, domain.last_update_date,
                    (SELECT count(*)::bigint FROM item WHERE item.domain_id = domain.id),
                    (SELECT count(*)::bigint FROM item WHERE item.domain_id = domain.id AND item.failure IS NOT NULL),
                    (SELECT count(*)::bigint FROM thumbnail WHERE thumbnail.domain_id = domain.id)
                FROM domain ORDER BY domain.name COLLATE "C"
                """, logger: self.logger)
            var domains: [IndexStatistics.Domain] = []
            for try await (name, updated, items, failures, thumbnails)
                in rows.decode((String, Double?, Int, Int, Int).self) {
                domains.append(IndexStatistics.Domain(
                    name, itemCount: items, failureCount: failures, thumbnailCount: thumbnails,
                    lastUpdateDate: updated.map(Date.init(timeIntervalSince1970:))))
            }
            let size = try await connection.query("""
                SELECT (pg_total_relation_size('item') + pg_total_relation_size('thumbnail')
                    + pg_total_relation_size('domain'))::bigint
                """, logger: self.logger)
            let bytes = try await Self.single(size, Int64.self) ?? 0
            return IndexStatistics(location, byteCount: bytes, domains: domains)
        }
    }

    /// The recorded failures of a domain (or of every domain), by domain then identifier.
    ///
    /// A failure is an item whose extraction failed: it is indexed with the reason stored
    /// beside it.
    ///
    /// - Parameters:
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many; 100 by default.
    /// - Returns: Each failed item's domain, identifier, and the reason stored with it.
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    public func failures(domain: String? = nil, limit: Int = 100) async throws
        -> [(domain: String, identifier: ItemIdentifier, reason: String)] {
        try await withConnection("cannot read the index") { connection in
            let rows = try await connection.query("""
                SELECT domain.name, item.identifier, item.failure FROM item JOIN domain ON domain.id = item.domain_id
                WHERE item.failure IS NOT NULL AND (\(domain)::text IS NULL OR domain.name = \(domain))
                ORDER BY domain.name COLLATE "C", item.identifier LIMIT \(limit)
                """, logger: self.logger)
            var failures: [(domain: String, identifier: ItemIdentifier, reason: String)] = []
            for try await (name, id, reason) in rows.decode((String, ByteBuffer, String).self) {
                failures.append((name, ItemIdentifier(bytes: Array(id.readableBytesView)), reason))
            }
            return failures
        }
    }

    /// Reads a row selected with ``itemColumns`` (then the thumbnail's bytes when `withThumbnail`).
    ///
    /// The column positions are those of ``itemColumns``: a column added there must be added
    /// here at the same position.
    ///
    /// - Parameters:
    ///   - row: A row whose first columns are ``itemColumns``.
    ///   - withThumbnail: Whether column 31, after them, holds the thumbnail's bytes.
    /// - Returns: The item, with the thumbnail's description and, when asked, its bytes.
    /// - Throws: A decoding error of postgres-nio when a column does not hold the expected type.
    static func decodeItem(_ row: PostgresRow, withThumbnail: Bool) throws -> IndexedItem {
        let cells = row.makeRandomAccess()
        func value<T: PostgresDecodable>(_ index: Int, _ type: T.Type = T.self) throws -> T {
            try cells[index].decode(T.self)
        }
        var attributes = AttributeSet(contentType: try value(5, String?.self))
        attributes.displayName = try value(2)
        attributes.title = try value(3)
        attributes.authors = try value(4)
        attributes.contentDescription = try value(6)
        attributes.keywords = try value(7)
        attributes.textContent = try value(8)
        attributes.size = try value(9)
        attributes.contentModificationDate = try value(10, Double?.self).map(Date.init(timeIntervalSince1970:))
        attributes.contentCreationDate = try value(11, Double?.self).map(Date.init(timeIntervalSince1970:))
        attributes.pixelWidth = try value(12, Int32?.self).map(Int.init)
        attributes.pixelHeight = try value(13, Int32?.self).map(Int.init)
        attributes.pageCount = try value(14, Int32?.self).map(Int.init)
        attributes.acquisitionMake = try value(15)
        attributes.acquisitionModel = try value(16)
        attributes.latitude = try value(17)
        attributes.longitude = try value(18)
        attributes.userAttributes = UserAttributes(userTags: try value(23), comment: try value(24),
                                                   starRating: try value(25), whereFroms: try value(26))
        var info: ThumbnailInfo?
        if let format = try value(27, String?.self) {
            let width = Int(try value(28, Int32.self)), height = Int(try value(29, Int32.self))
            info = ThumbnailInfo(format, width: width, height: height, byteCount: Int(try value(30, Int32.self)))
            if withThumbnail, let bytes = try value(31, ByteBuffer?.self) {
                attributes.thumbnail = Thumbnail(format: format, width: width, height: height,
                                                 bytes: Array(bytes.readableBytesView))
            }
        }
        let item = SearchableItem(
            uniqueIdentifier: ItemIdentifier(bytes: Array(try value(0, ByteBuffer.self).readableBytesView)),
            domainIdentifier: try value(1),
            attributeSet: attributes,
            expirationDate: try value(19, Double?.self).map(Date.init(timeIntervalSince1970:)),
            changeStamp: try value(20, ByteBuffer?.self).map { Array($0.readableBytesView) },
            failure: try value(21),
            identifierIsPath: try value(22))
        return IndexedItem(item: item, thumbnailInfo: info)
    }
}
