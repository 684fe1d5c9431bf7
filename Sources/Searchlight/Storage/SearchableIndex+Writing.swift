import Foundation
import GRDB
import GRDBSQLite

extension SearchableIndex {
    /// Inserts or replaces items, in one transaction.
    ///
    /// An item whose domain and identifier the index holds already replaces it, attributes and
    /// thumbnail included (``IndexBatch/Change/upsert(_:)``).
    ///
    /// The transaction also forgets the items whose ``SearchableItem/expirationDate`` has
    /// passed. Its cost grows with the items' words and text (each is added to the full-text
    /// indexes), and one batch of many items costs far less than as many calls of one: each
    /// call is a commit, and a commit of a WAL index waits for its log to be written.
    ///
    /// ```swift
    /// var attributes = AttributeSet(contentType: "text/plain")
    /// attributes.displayName = "Shopping list"
    /// attributes.textContent = "eggs, flour, milk"
    /// try index.indexItems([
    ///     SearchableItem(uniqueIdentifier: "list-1", domainIdentifier: "notes", attributeSet: attributes),
    /// ])
    /// ```
    ///
    /// - Parameter items: The items, of any domains; a domain is created by its first item.
    /// - Throws: ``SearchlightError`` when the index cannot be written (a read-only handle, a
    ///   full disk, another writer that held the lock for 30 seconds); then none of the items is.
    public func indexItems(_ items: [SearchableItem]) throws {
        var batch = IndexBatch()
        for item in items { batch.upsert(item) }
        try apply(batch)
    }

    /// Deletes the items with the given identifiers from a domain.
    ///
    /// Identifiers the domain does not hold are ignored; the items below an identifier stay (use
    /// ``IndexBatch/deleteTree(_:domain:)`` for a folder).
    ///
    /// ```swift
    /// try index.deleteItems(withIdentifiers: ["list-1", "list-2"], domain: "notes")
    /// ```
    ///
    /// - Parameters:
    ///   - identifiers: The items' identifiers within `domain`.
    ///   - domain: The domain they belong to; it stays, even when it holds no item any more.
    /// - Throws: ``SearchlightError`` when the index cannot be written; then none is deleted.
    public func deleteItems(withIdentifiers identifiers: [ItemIdentifier], domain: String) throws {
        var batch = IndexBatch()
        for identifier in identifiers { batch.delete(identifier, domain: domain) }
        try apply(batch)
    }

    /// Deletes every item of the given domains, and the domains themselves.
    ///
    /// What the application recorded with a domain goes with it: its last update date, and
    /// the file indexer's state of it. A domain the index does not hold is skipped.
    ///
    /// ```swift
    /// let removed = try index.deleteAllItems(inDomains: ["notes"])
    /// ```
    ///
    /// - Parameter domains: The names of the domains.
    /// - Returns: The number of items deleted.
    /// - Throws: ``SearchlightError`` when the index cannot be written; then nothing of it is.
    @discardableResult
    public func deleteAllItems(inDomains domains: [String]) throws -> Int {
        try write { db in
            var deleted = 0
            for domain in domains {
                guard let id = try domainID(domain, in: db, create: false) else { continue }
                try db.execute(sql: "DELETE FROM item WHERE domainId = ?", arguments: [id])
                deleted += db.changesCount
                try db.execute(sql: "DELETE FROM domain WHERE id = ?", arguments: [id])
            }
            try Self.deleteUnusedContentKinds(in: db)
            return deleted
        }
    }

    /// Deletes every item and domain.
    ///
    /// The file keeps its size: the pages freed are reused by later writes, or given back by
    /// ``reclaimSpace()``. Meaning vectors no item uses any more stay until
    /// ``forgetUnusedMeaning()``.
    ///
    /// - Returns: The number of items deleted.
    /// - Throws: ``SearchlightError`` when the index cannot be written; then nothing of it is.
    @discardableResult
    public func deleteAllItems() throws -> Int {
        try write { db in
            try db.execute(sql: "DELETE FROM item")
            let deleted = db.changesCount
            try db.execute(sql: "DELETE FROM domain")
            try Self.deleteUnusedContentKinds(in: db)
            return deleted
        }
    }

    /// Applies a batch of changes in one transaction, then forgets expired items.
    ///
    /// The changes apply in their order in the batch: an item upserted then deleted in one
    /// batch is gone. ``IndexBatch/Change/setFolderAccess(domain:folder:access:)`` changes are skipped: a file
    /// index of one person shows all of its items to whoever may read it, and only the shared
    /// PostgreSQL index keeps who may see what. Every change is counted in ``churn``, so that
    /// ``IndexWriter/reclaimSpaceIfChurned()`` can tell when the space left behind is worth
    /// giving back. An empty batch writes nothing.
    ///
    /// ```swift
    /// var batch = IndexBatch()
    /// batch.upsert(item)
    /// batch.deleteTree("archive/2019", domain: "notes")
    /// batch.delete("drafts/old.md", domain: "notes")
    /// try index.apply(batch)
    /// ```
    ///
    /// - Parameter batch: The changes, in order.
    /// - Throws: ``SearchlightError`` when the index cannot be written; then nothing of it is.
    public func apply(_ batch: IndexBatch) throws {
        try apply(batch, alongside: nil)
    }

    /// Applies a batch as ``apply(_:)`` does, and runs `alongside` in the same transaction
    /// after the batch's changes: what a caller in this package keeps beside the items (the
    /// file indexer's state of a domain) lands with them, or not at all.
    package func apply(_ batch: IndexBatch, alongside: ((Database) throws -> Void)?) throws {
        guard !batch.isEmpty || alongside != nil else { return }
        try countItemsBeforeChurn()
        defer { churn.note(batch) }
        try write { db in
            var writer = BatchWriter(db: db)
            for change in batch.changes {
                switch change {
                case .upsert(let item): try writer.upsert(item)
                case .delete(let domain, let identifier): try writer.delete(identifier, domain: domain)
                case .deleteTree(let domain, let identifier): try writer.deleteTree(identifier, domain: domain)
                case .move(let domain, let from, let to, let rename):
                    try writer.move(from, to: to, domain: domain, rename: rename)
                case .setUserAttributes(let domain, let identifier, let attributes, let changeStamp, _):
                    try writer.setUserAttributes(attributes, of: identifier, domain: domain, changeStamp: changeStamp)
                case .setFolderAccess:
                    // One person's own index: everything in it is theirs to see.
                    continue
                }
            }
            try alongside?(db)
            try db.execute(sql: "DELETE FROM item WHERE expirationDate <= ?",
                           arguments: [Date().timeIntervalSince1970])
            try Self.deleteReleasedContentKinds(in: db)
        }
    }

    /// Records that a domain was brought up to date now (shown by `status`).
    ///
    /// The domain is created when the index does not hold it yet. The content kinds (a type,
    /// its description and keywords) that no item has any more are forgotten in the same
    /// transaction: this is when a file indexer has finished a pass over a domain.
    ///
    /// - Parameters:
    ///   - domain: The domain's name.
    ///   - date: When it was up to date; now by default. Read back as
    ///     ``IndexStatistics/Domain/lastUpdateDate``.
    /// - Throws: ``SearchlightError`` when the index cannot be written.
    public func markUpdated(domain: String, date: Date = Date()) throws {
        try write { db in
            let id = try domainID(domain, in: db, create: true)!
            try db.execute(sql: "UPDATE domain SET lastUpdateDate = ? WHERE id = ?",
                           arguments: [date.timeIntervalSince1970, id])
            // Kinds left behind by items whose type or description changed.
            try Self.deleteUnusedContentKinds(in: db)
        }
    }

    /// Forgets the content kinds no item has any more, all of them: when a domain was brought
    /// up to date, and after removing whole domains. One `item_by_kind` lookup per kind: 6 ms
    /// for the 1 000 kinds of 1 M files without content, but a document's text gives it a kind
    /// of its own (its telling words are its keywords), so with content there are about as
    /// many kinds as documents — which is why a batch checks only the kinds it released
    /// (``deleteReleasedContentKinds(in:)``).
    static func deleteUnusedContentKinds(in db: Database) throws {
        try db.execute(sql: """
            DELETE FROM content_kind WHERE NOT EXISTS (
                SELECT 1 FROM item INDEXED BY item_by_kind WHERE item.kindId = content_kind.id);
            DELETE FROM temp.released_kind;
            """)
    }

    /// Makes this connection note, in its own temporary table, every kind an item leaves
    /// (deleted, or given another kind): the kinds a batch may have left unused (a kind noted
    /// twice is checked once; no uniqueness, which an outer `OR` clause would override). Temporary
    /// objects belong to the connection and are not part of the index's schema: made once the
    /// writer's connection is open and migrated, and again after a reset.
    static func trackReleasedContentKinds(in db: Database) throws {
        try db.execute(sql: """
            CREATE TEMP TABLE IF NOT EXISTS released_kind(id INTEGER);
            CREATE TEMP TRIGGER IF NOT EXISTS item_deleted_releases_kind AFTER DELETE ON main.item
                WHEN OLD.kindId IS NOT NULL
                BEGIN INSERT INTO released_kind(id) VALUES (OLD.kindId); END;
            CREATE TEMP TRIGGER IF NOT EXISTS item_rekinded_releases_kind AFTER UPDATE OF kindId ON main.item
                WHEN OLD.kindId IS NOT NULL AND OLD.kindId IS NOT NEW.kindId
                BEGIN INSERT INTO released_kind(id) VALUES (OLD.kindId); END;
            """)
    }

    /// Drops what ``trackReleasedContentKinds(in:)`` made, before the index is erased: SQLite
    /// erasing a file does not drop the temporary triggers on its tables, which would then
    /// name a table that is gone.
    static func stopTrackingReleasedContentKinds(in db: Database) throws {
        try db.execute(sql: """
            DROP TRIGGER IF EXISTS temp.item_deleted_releases_kind;
            DROP TRIGGER IF EXISTS temp.item_rekinded_releases_kind;
            DROP TABLE IF EXISTS temp.released_kind;
            """)
    }

    /// Forgets the kinds this connection's writes released (``trackReleasedContentKinds(in:)``)
    /// that no item has any more: one lookup per released kind, whatever the index's size.
    static func deleteReleasedContentKinds(in db: Database) throws {
        try db.execute(sql: """
            DELETE FROM content_kind WHERE id IN (SELECT id FROM temp.released_kind) AND NOT EXISTS (
                SELECT 1 FROM item INDEXED BY item_by_kind WHERE item.kindId = content_kind.id);
            DELETE FROM temp.released_kind;
            """)
    }

    /// The id of the row of the domain `name`, if there is one.
    package static func domainID(named name: String, in db: any ReadConnection) throws -> Int64? {
        try db.readStatement("SELECT id FROM domain WHERE name = ?").firstRow(.text(name)) { sqlite3_column_int64($0, 0) }
    }

    /// The id of a domain's row, created when missing if `create`.
    package func domainID(_ name: String, in db: Database, create: Bool) throws -> Int64? {
        if let id = try Self.domainID(named: name, in: db) {
            return id
        }
        guard create else { return nil }
        try db.execute(sql: "INSERT INTO domain(name) VALUES (?)", arguments: [name])
        return db.lastInsertedRowID
    }
}

extension SearchableIndex {
    /// The bounds of the identifiers below `identifier` (`identifier/…`): `[id + "/", id + "0")`.
    static func descendantRange(of identifier: ItemIdentifier) -> (Data, Data) {
        let (lower, upper) = identifier.descendantBounds
        return (Data(lower.bytes), Data(upper.bytes))
    }
}
