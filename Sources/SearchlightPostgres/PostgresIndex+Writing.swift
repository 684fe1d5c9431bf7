import Foundation
import PostgresNIO
import Searchlight

extension PostgresIndex {
    /// Inserts or replaces items, in one transaction.
    ///
    /// An item of the same domain and identifier is replaced whole, as
    /// ``Searchlight/SearchableIndex/indexItems(_:)`` replaces it; consecutive items go to the
    /// server as one statement. Writers of different domains never update a common row.
    ///
    /// ```swift
    /// try await index.indexItems(items)
    /// ```
    ///
    /// The same as building an ``Searchlight/IndexBatch`` of upserts and calling ``apply(_:)``:
    /// the expired items of the touched domains are forgotten and their change counts raised in
    /// the same transaction.
    ///
    /// - Parameter items: The items, of any domains.
    /// - Throws: ``PostgresIndexError`` when the database cannot be written, after the retries
    ///   of ``retryPolicy``; then nothing of it is.
    public func indexItems(_ items: [SearchableItem]) async throws {
        var batch = IndexBatch()
        for item in items { batch.upsert(item) }
        try await apply(batch)
    }

    /// Deletes the items with the given identifiers from a domain.
    ///
    /// Identifiers the domain does not hold are ignored; the items below an identifier stay.
    ///
    /// The domain's row is created when the index does not hold it yet, and its change count is
    /// raised, even when nothing was deleted: the batch goes through ``apply(_:)``.
    ///
    /// - Parameters:
    ///   - identifiers: The items' identifiers within `domain`.
    ///   - domain: The domain they belong to.
    /// - Throws: ``PostgresIndexError`` when the database cannot be written, after the retries
    ///   of ``retryPolicy``; then nothing of it is.
    public func deleteItems(withIdentifiers identifiers: [ItemIdentifier], domain: String) async throws {
        var batch = IndexBatch()
        for identifier in identifiers { batch.delete(identifier, domain: domain) }
        try await apply(batch)
    }

    /// Deletes every item of the given domains, and the domains themselves.
    ///
    /// One statement: the items, then the domains' rows (their state, origin and counts).
    ///
    /// Thumbnails go with their items (the foreign key cascades). Names of domains the index
    /// does not hold are ignored. Other domains' rows are untouched, so other writers go on.
    ///
    /// - Parameter domains: The names of the domains.
    /// - Returns: The number of items deleted.
    /// - Throws: ``PostgresIndexError`` when the database cannot be written, after the retries
    ///   of ``retryPolicy``; then nothing of it is.
    @discardableResult
    public func deleteAllItems(inDomains domains: [String]) async throws -> Int {
        try await withTransaction("cannot delete from the index") { connection in
            let rows = try await connection.query("""
                WITH gone AS (DELETE FROM item WHERE domain_id IN (SELECT id FROM domain WHERE name = ANY(\(domains)))
                    RETURNING 1),
                domains AS (DELETE FROM domain WHERE name = ANY(\(domains)))
                SELECT count(*)::bigint FROM gone
                """, logger: self.logger)
            return try await Self.single(rows, Int.self) ?? 0
        }
    }

    /// Deletes every item and domain, every machine's: the shared index is then empty.
    ///
    /// Every writer loses its domain's state with it: run this only when no writer is running
    /// (`searchlight remove --all` on a shared index). The items of all the people who share the
    /// database are gone, not only this machine's.
    ///
    /// - Returns: The number of items deleted.
    /// - Throws: ``PostgresIndexError`` when the database cannot be written, after the retries
    ///   of ``retryPolicy``; then nothing of it is.
    @discardableResult
    public func deleteAllItems() async throws -> Int {
        try await withTransaction("cannot delete from the index") { connection in
            let rows = try await connection.query("""
                WITH gone AS (DELETE FROM item RETURNING 1), domains AS (DELETE FROM domain)
                SELECT count(*)::bigint FROM gone
                """, logger: self.logger)
            return try await Self.single(rows, Int.self) ?? 0
        }
    }

    /// Applies a batch of changes in one transaction, then forgets the expired items of the
    /// batch's domains (only theirs: a writer never touches another domain's rows).
    ///
    /// Each domain the batch touched has its batch count raised in the same transaction: the
    /// change marker (``changeMarker()``) that readers poll moves only with a commit.
    /// Unlike the SQLite index, a batch's ``Searchlight/IndexBatch/Change/setFolderAccess(domain:folder:access:)``
    /// changes are stored: they decide which people see the items below each folder.
    ///
    /// ```swift
    /// var batch = IndexBatch()
    /// batch.upsert(item)
    /// batch.delete("drafts/old.md", domain: "notes")
    /// try await index.apply(batch)
    /// ```
    ///
    /// - Parameter batch: The changes, in order.
    /// - Throws: ``PostgresIndexError`` when the database cannot be written, after the retries
    ///   of ``retryPolicy``; then nothing of it is.
    public func apply(_ batch: IndexBatch) async throws {
        try await apply(batch, states: [:])
    }

    /// Applies a batch as ``apply(_:)`` does, and stores each domain's state (the file
    /// indexer's, as JSON: `SearchlightFiles`' `DomainState`) in the same transaction.
    ///
    /// An empty batch with no state writes nothing and raises no change count.
    ///
    /// - Parameters:
    ///   - batch: The changes, in order.
    ///   - states: The state to store for each domain, by name; a domain named here is counted as
    ///     touched by the batch.
    /// - Throws: ``PostgresIndexError`` when the database cannot be written, after the retries
    ///   of ``retryPolicy``; then nothing of it is.
    package func apply(_ batch: IndexBatch, states: [String: String]) async throws {
        guard !batch.isEmpty || !states.isEmpty else { return }
        try await withTransaction("cannot write to the index") { connection in
            var writer = PostgresBatchWriter(connection: connection, logger: self.logger)
            for change in batch.changes { try await writer.apply(change) }
            try await writer.flushUpserts()
            for (domain, state) in states.sorted(by: { $0.key < $1.key }) {
                let id = try await writer.domainID(domain)
                try await connection.query("UPDATE domain SET state = \(state) WHERE id = \(id)", logger: self.logger)
            }
            let domains = Array(writer.domainIDs.values)
            try await connection.query("""
                DELETE FROM item WHERE domain_id = ANY(\(domains)) AND expiration_date <= \(Date().timeIntervalSince1970)
                """, logger: self.logger)
            try await connection.query("UPDATE domain SET change_count = change_count + 1 WHERE id = ANY(\(domains))",
                                       logger: self.logger)
        }
        if !batch.changes.isEmpty { await cleanPendingLists() }
    }

    /// Records that a domain was brought up to date now (shown by `status`).
    ///
    /// - Parameters:
    ///   - domain: The domain's name; created when the index does not hold it.
    ///   - date: When it was up to date; now by default.
    /// - Throws: ``PostgresIndexError`` when the database cannot be written.
    public func markUpdated(domain: String, date: Date = Date()) async throws {
        try await updateDomain(domain, "last_update_date", date.timeIntervalSince1970)
    }

    /// Stores the file indexer's state of a domain (`DomainState`, as JSON).
    ///
    /// - Parameters:
    ///   - state: The state as JSON, or `nil` to forget it.
    ///   - domain: The domain's name; created when the index does not hold it.
    /// - Throws: ``PostgresIndexError`` when the database cannot be written.
    package func setState(_ state: String?, domain: String) async throws {
        try await updateDomain(domain, "state", state)
    }

    /// Records which machine and folder a domain indexes (Docs/Contract.md#shared-index: domains identify a host and a root).
    ///
    /// Read back by ``domainHosts()``: only the machine that indexed a domain serves or opens
    /// its files.
    ///
    /// - Parameters:
    ///   - host: The machine's name.
    ///   - root: The root folder's absolute path on that machine.
    ///   - domain: The domain's name; created when the index does not hold it.
    /// - Throws: ``PostgresIndexError`` when the database cannot be written.
    public func setOrigin(host: String, root: String, domain: String) async throws {
        try await withTransaction("cannot write to the index") { connection in
            var writer = PostgresBatchWriter(connection: connection, logger: self.logger)
            let id = try await writer.domainID(domain)
            try await connection.query("UPDATE domain SET host = \(host), root = \(root) WHERE id = \(id)",
                                       logger: self.logger)
        }
    }

    /// Sets one column of a domain's row, creating the domain when missing, in a transaction.
    ///
    /// `column` is spliced into the SQL unescaped: it must be a constant of this file, never a
    /// value from outside (the value itself is bound).
    ///
    /// Costs one transaction of three statements on a pooled connection: the domain's insert and
    /// read (``PostgresBatchWriter/domainID(_:)``), then the update; the whole is tried again on a
    /// lost connection or a lost race, as `withTransaction` allows.
    ///
    /// - Parameters:
    ///   - domain: The domain's name.
    ///   - column: The column to set: `last_update_date` or `state`.
    ///   - value: The value, bound as a parameter; `nil` writes NULL.
    /// - Throws: ``PostgresIndexError`` when the server cannot be reached or the statements fail,
    ///   after the retries.
    private func updateDomain<Value: PostgresDynamicTypeEncodable & Sendable>(_ domain: String, _ column: String,
                                                                   _ value: Value?) async throws {
        try await withTransaction("cannot write to the index") { connection in
            var writer = PostgresBatchWriter(connection: connection, logger: self.logger)
            let id = try await writer.domainID(domain)
            try await connection.query("UPDATE domain SET \(unescaped: column) = \(value) WHERE id = \(id)",
                                       logger: self.logger)
        }
    }

    /// The one value of a one-row, one-column result.
    ///
    /// Reads every row of `rows` (the sequence must be consumed), keeping the last value.
    ///
    /// - Returns: The value, or `nil` when there is no row.
    /// - Throws: The decoding or reading error of postgres-nio.
    ///
    /// ```swift
    /// let rows = try await connection.query("SELECT id FROM domain WHERE name = \(name)", logger: logger)
    /// let id = try await PostgresIndex.single(rows, Int64.self)
    /// ```
    static func single<T: PostgresDecodable>(_ rows: PostgresRowSequence, _ type: T.Type) async throws -> T? {
        var result: T?
        for try await value in rows.decode(T.self) { result = value }
        return result
    }
}

/// Writes the changes of one batch inside its transaction. Consecutive upserts go as one
/// statement (their rows as one JSON parameter).
///
/// A writer lives for one attempt of one transaction (``PostgresIndex/apply(_:states:)``,
/// ``PostgresIndex/setOrigin(host:root:domain:)``…) and is not shared: its memory of the
/// domains' ids is only valid inside that transaction. Every change but an upsert first sends
/// the pending upserts, so the changes reach the server in the batch's order.
struct PostgresBatchWriter {
    /// The batch's connection, inside its transaction.
    ///
    /// The writer's statements go on it one after the other, each awaited before the next is sent.
    let connection: PostgresConnection
    /// The logger the batch's queries are given.
    let logger: Logger
    /// The ids of the domains this batch touched, by name.
    private(set) var domainIDs: [String: Int64] = [:]
    /// The consecutive upserts not sent yet.
    ///
    /// Emptied, with ``upsertPositions``, each time they are sent.
    private var upserts: [ItemRow] = []
    /// Where each (domain, identifier) is in ``upserts``: one statement may not upsert a row twice.
    private var upsertPositions: [Key: Int] = [:]

    /// A row's key in one upsert statement: the domain's id and the identifier's base64 text.
    private struct Key: Hashable {
        /// The domain's id (``ItemRow``'s `d`).
        var domain: Int64
        /// The identifier's bytes in base64 (``ItemRow``'s `id`), as the JSON parameter carries them.
        var identifier: String
    }

    /// Makes a writer for one transaction on `connection`.
    ///
    /// Sends nothing: the first statement goes with the first change.
    ///
    /// - Parameters:
    ///   - connection: A connection inside an open transaction, which the caller commits or rolls back.
    ///   - logger: The logger given to each query.
    init(connection: PostgresConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    /// The id of a domain's row, created when missing. Two writers creating the same domain
    /// at once both succeed: the second waits for the first's row, then reads it.
    ///
    /// Each domain costs two statements the first time a batch names it, none after.
    ///
    /// - Throws: ``PostgresIndexError`` when the row vanished between the insert and the read
    ///   (another writer deleted the domain), or the error of the statements.
    mutating func domainID(_ name: String) async throws -> Int64 {
        if let id = domainIDs[name] { return id }
        try await connection.query("INSERT INTO domain(name) VALUES (\(name)) ON CONFLICT (name) DO NOTHING",
                                   logger: logger)
        let rows = try await connection.query("SELECT id FROM domain WHERE name = \(name)", logger: logger)
        guard let id = try await PostgresIndex.single(rows, Int64.self) else {
            throw PostgresIndexError(.database, "the domain \(name) vanished while a batch wrote to it")
        }
        domainIDs[name] = id
        return id
    }

    /// Applies one change of a batch: an upsert is kept for the next statement (a later upsert
    /// of the same item replaces it there), any other change is sent at once, after the pending
    /// upserts.
    ///
    /// - Throws: The error of a statement; the caller's transaction is then rolled back.
    ///
    /// An upsert sends no statement of its own, except the two of ``domainID(_:)`` the first time
    /// its domain is named; a delete, move or change of user attributes or folder access costs the
    /// statements of the pending upserts, then its own.
    ///
    /// - Parameter change: The change, in the batch's order.
    mutating func apply(_ change: IndexBatch.Change) async throws {
        switch change {
        case .upsert(let item):
            let row = ItemRow(item, domainID: try await domainID(item.domainIdentifier))
            let key = Key(domain: row.d, identifier: row.id)
            if let position = upsertPositions[key] {
                upserts[position] = row
            } else {
                upsertPositions[key] = upserts.count
                upserts.append(row)
            }
        case .delete(let domain, let identifier):
            try await flushUpserts()
            try await delete(identifier, domain: try await domainID(domain), withDescendants: false)
        case .deleteTree(let domain, let identifier):
            try await flushUpserts()
            try await delete(identifier, domain: try await domainID(domain), withDescendants: true)
        case .move(let domain, let from, let to, let rename):
            try await flushUpserts()
            try await move(from, to: to, rename: rename, domain: try await domainID(domain))
        case .setUserAttributes(let domain, let identifier, let attributes, let changeStamp, let access):
            try await flushUpserts()
            try await setUserAttributes(attributes, of: identifier, changeStamp: changeStamp, access: access,
                                        domain: try await domainID(domain))
        case .setFolderAccess(let domain, let folder, let access):
            try await flushUpserts()
            try await setFolderAccess(access, of: folder, domain: try await domainID(domain))
        }
    }

    /// Writes the pending upserts, and their thumbnails, in one statement.
    ///
    /// The rows go as one `jsonb` parameter read by `jsonb_to_recordset`, so a thousand items
    /// cost one round trip. An existing row is replaced (`ON CONFLICT … DO UPDATE`) except for who
    /// may read it: an upsert without readers keeps the row's readers. An item without a
    /// thumbnail loses the one it had.
    ///
    /// - Throws: The error of the statement.
    mutating func flushUpserts() async throws {
        guard !upserts.isEmpty else { return }
        let json = String(decoding: try JSONEncoder().encode(upserts), as: UTF8.self)
        upserts.removeAll()
        upsertPositions.removeAll()
        try await connection.query("""
            WITH r AS (SELECT * FROM jsonb_to_recordset(\(json)::jsonb) AS r(\(unescaped: ItemRow.recordType))),
            items AS (
                INSERT INTO item (domain_id, identifier, display_name, title, authors, content_type, content_type_tree,
                    content_description, keywords, text_content, size, modification_date, creation_date, pixel_width,
                    pixel_height, page_count, acquisition_make, acquisition_model, latitude, longitude,
                    expiration_date, change_stamp, failure, name_words, title_words, author_words, keyword_words,
                    folder_words, text_words, identifier_is_path, user_tags, comment, star_rating, where_froms,
                    readers, folder_keys)
                SELECT d, decode(id, 'base64'), "displayName", title, authors, "contentType", "contentTypeTree",
                    "contentDescription", keywords, "textContent", size, "modificationDate", "creationDate",
                    "pixelWidth", "pixelHeight", "pageCount", "acquisitionMake", "acquisitionModel", latitude,
                    longitude, "expirationDate", decode("changeStamp", 'base64'), failure, "nameWords",
                    "titleWords", "authorWords", "keywordWords", "folderWords", "textVector"::tsvector, "identifierIsPath",
                    coalesce("userTags", '{}'), comment, "starRating", coalesce("whereFroms", '{}'),
                    readers, CASE WHEN "identifierIsPath" THEN searchlight_folder_keys(d, decode(id, 'base64')) ELSE '{}' END
                FROM r
                ON CONFLICT (domain_id, identifier) DO UPDATE SET
                    display_name = excluded.display_name, title = excluded.title, authors = excluded.authors,
                    content_type = excluded.content_type, content_type_tree = excluded.content_type_tree,
                    content_description = excluded.content_description, keywords = excluded.keywords,
                    text_content = excluded.text_content, size = excluded.size,
                    modification_date = excluded.modification_date, creation_date = excluded.creation_date,
                    pixel_width = excluded.pixel_width, pixel_height = excluded.pixel_height,
                    page_count = excluded.page_count, acquisition_make = excluded.acquisition_make,
                    acquisition_model = excluded.acquisition_model, latitude = excluded.latitude,
                    longitude = excluded.longitude, expiration_date = excluded.expiration_date,
                    change_stamp = excluded.change_stamp, failure = excluded.failure,
                    name_words = excluded.name_words, title_words = excluded.title_words,
                    author_words = excluded.author_words, keyword_words = excluded.keyword_words,
                    folder_words = excluded.folder_words, text_words = excluded.text_words,
                    words_folded = true, identifier_is_path = excluded.identifier_is_path,
                    user_tags = excluded.user_tags, comment = excluded.comment, star_rating = excluded.star_rating,
                    where_froms = excluded.where_froms, folder_keys = excluded.folder_keys,
                    -- An item re-read from the index (new text, an OCR pass) keeps who may read it.
                    readers = coalesce(excluded.readers, item.readers),
                    access_pending = item.access_pending AND excluded.readers IS NULL
                RETURNING 1),
            unthumbnailed AS (
                DELETE FROM thumbnail t USING r
                WHERE t.domain_id = r.d AND t.identifier = decode(r.id, 'base64') AND r."thumbnailBytes" IS NULL)
            INSERT INTO thumbnail (domain_id, identifier, format, width, height, bytes)
            SELECT d, decode(id, 'base64'), "thumbnailFormat", "thumbnailWidth", "thumbnailHeight",
                decode("thumbnailBytes", 'base64')
            FROM r WHERE "thumbnailBytes" IS NOT NULL
            ON CONFLICT (domain_id, identifier) DO UPDATE SET
                format = excluded.format, width = excluded.width, height = excluded.height, bytes = excluded.bytes
            """, logger: logger)
    }

    /// Deletes one item, or, `withDescendants`, the item and every item below it
    /// (``Searchlight/ItemIdentifier/descendantBounds``) together with the folder access rows
    /// of that subtree. Thumbnails go with their items.
    ///
    /// One statement for an item alone (a folder access row at its identifier stays); two for a
    /// subtree, each a range of the primary key, whatever the subtree's size.
    ///
    /// - Throws: An error of the connection when a statement fails.
    private func delete(_ identifier: ItemIdentifier, domain: Int64, withDescendants: Bool) async throws {
        let id = ByteBuffer(bytes: identifier.bytes)
        if withDescendants {
            let (lower, upper) = identifier.descendantBounds
            try await connection.query("""
                DELETE FROM item WHERE domain_id = \(domain) AND (identifier = \(id)
                    OR (identifier >= \(ByteBuffer(bytes: lower.bytes)) AND identifier < \(ByteBuffer(bytes: upper.bytes))))
                """, logger: logger)
            try await connection.query("""
                DELETE FROM searchlight_folder WHERE domain_id = \(domain) AND (identifier = \(id)
                    OR (identifier >= \(ByteBuffer(bytes: lower.bytes)) AND identifier < \(ByteBuffer(bytes: upper.bytes))))
                """, logger: logger)
        } else {
            try await connection.query("DELETE FROM item WHERE domain_id = \(domain) AND identifier = \(id)",
                                       logger: logger)
        }
    }

    /// Re-keys `from` and the items below it to `to`, replacing what stands at `to`, as
    /// rename(2) does. The moved item takes its new name, and its title and keywords become
    /// what `rename` makes of them (``IndexBatch/Rename/renamed(title:keywords:oldName:)``, as in
    /// the SQLite index); the items below keep theirs, and only the start of their identifiers
    /// and, for paths, of their folder words changes.
    ///
    /// The folder access rows of the subtree move with it, and the folder keys of every item
    /// at `to` are computed again from the new paths. Moving an item onto itself does nothing.
    /// Costs a handful of statements, whatever the size of the subtree: the re-keying is done by
    /// the server, by range.
    ///
    /// In order: what stands at `to` (and below it) is deleted; the item at `from` is re-keyed
    /// with its new name's words; the items below `from` are re-keyed by replacing the start of
    /// their identifiers, and, for paths, of their folder words; the folder access rows follow;
    /// and the folder keys of everything now at `to` are made again. A `from` the domain does not
    /// hold moves its descendants only.
    private func move(_ from: ItemIdentifier, to: ItemIdentifier, rename: IndexBatch.Rename?, domain: Int64) async throws {
        guard from != to else { return }
        try await delete(to, domain: domain, withDescendants: true)
        let fromID = ByteBuffer(bytes: from.bytes), toID = ByteBuffer(bytes: to.bytes)
        let rows = try await connection.query("""
            SELECT display_name, title, keywords, identifier_is_path, user_tags, comment, where_froms FROM item
            WHERE domain_id = \(domain) AND identifier = \(fromID)
            """, logger: logger)
        for try await (oldName, title, keywords, isPath, tags, comment, froms)
            in rows.decode((String?, String?, [String], Bool, [String], String?, [String]).self) {
            let user = UserAttributes(userTags: tags, comment: comment, whereFroms: froms)
            let newName = rename?.displayName ?? oldName
            let renamed = rename?.renamed(title: title, keywords: keywords, oldName: oldName) ?? (title: title, keywords: keywords)
            try await connection.query("""
                UPDATE item SET identifier = \(toID), display_name = \(newName), title = \(renamed.title),
                    keywords = \(renamed.keywords), name_words = \(ItemRow.words(newName)),
                    title_words = \(ItemRow.words(renamed.title)), keyword_words = \(ItemRow.keywordWords(renamed.keywords, user)),
                    folder_words = \(isPath ? ItemRow.folderWords(of: to) : "")
                WHERE domain_id = \(domain) AND identifier = \(fromID)
                """, logger: logger)
        }
        let (lower, upper) = from.descendantBounds
        let fromWords = ItemRow.pathWords(of: from), toWords = ItemRow.pathWords(of: to)
        try await connection.query("""
            UPDATE item SET identifier = \(toID) || substring(identifier FROM \(from.bytes.count + 1)::int),
                folder_words = CASE WHEN identifier_is_path
                    THEN btrim(\(toWords) || ' ' || ltrim(substr(folder_words, \(fromWords.unicodeScalars.count + 1)::int)))
                    ELSE folder_words END
            WHERE domain_id = \(domain) AND identifier >= \(ByteBuffer(bytes: lower.bytes))
                AND identifier < \(ByteBuffer(bytes: upper.bytes))
            """, logger: logger)
        // Who may pass the moved folders goes with them; the items' folder keys follow their paths.
        try await connection.query("""
            UPDATE searchlight_folder SET identifier = \(toID) || substring(identifier FROM \(from.bytes.count + 1)::int)
            WHERE domain_id = \(domain) AND (identifier = \(fromID) OR (identifier >= \(ByteBuffer(bytes: lower.bytes))
                AND identifier < \(ByteBuffer(bytes: upper.bytes))))
            """, logger: logger)
        let (toLower, toUpper) = to.descendantBounds
        try await connection.query("""
            UPDATE item SET folder_keys = searchlight_folder_keys(domain_id, identifier)
            WHERE domain_id = \(domain) AND (identifier = \(toID) OR (identifier >= \(ByteBuffer(bytes: toLower.bytes))
                AND identifier < \(ByteBuffer(bytes: toUpper.bytes))))
            """, logger: logger)
    }
}
