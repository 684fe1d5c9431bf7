import Foundation
import GRDB
import Searchlight

/// The OCR queue and the cache of recognised text (Docs/Contract.md#text-in-pictures), in a small SQLite file of its
/// own next to the index (`index.sqlite-ocr`; for a PostgreSQL index, under
/// `$XDG_CACHE_HOME/searchlight/`), so that the index's schema does not change.
///
/// - `pending`: pictures that wait for OCR, recorded by the first pass when it indexes them
///   (with the change stamp they had): the queue survives a restart, and the second pass
///   resumes with what is left.
/// - `recognized`: the text read in a file's bytes, by SHA-256 of the bytes: a copied or moved
///   picture is not read again, and a photo without text is remembered as such (empty text).
/// - `item_text`: the items whose text came from OCR, which `show` marks as recognised (with
///   a PDF's scanned pages and those read).
/// - `older_queued`: the domains whose items that predate OCR (or were indexed with OCR off)
///   were queued once (``queueOlderItems(of:domain:root:)``).
///
/// Every row is keyed by the index's ``IndexReader/path`` too, so that one file may serve several indexes.
///
/// One GRDB `DatabaseQueue`: the class is `Sendable` and its calls may come from any thread,
/// each a blocking transaction of its own (a writer of another process is waited for up to
/// 10 s). The second pass (``TextRecognizer``) takes entries one at a time, recognises
/// each, writes its text into the index, and only then removes it, so a pass stopped
/// halfway resumes where it was.
///
/// ```swift
/// let store = try OCRStore(path: OCRStore.location(for: index), indexPath: index.path)
/// for entry in try store.next(limit: 8) {
///     // read the picture, store its text in the index, then:
///     try store.remove(entry)
/// }
/// ```
public final class OCRStore: Sendable {
    /// The file's path.
    public let path: String
    /// The path (or URL, without password) of the index this store serves: part of every key.
    let indexPath: String
    /// The store's connection, which serializes its transactions.
    let database: DatabaseQueue

    /// One picture waiting for OCR.
    public struct Entry: Sendable, Hashable {
        /// The item's domain.
        public var domain: String
        /// The item's identifier: the picture's path relative to ``root``.
        public var identifier: ItemIdentifier
        /// The root folder the identifier is relative to.
        public var root: String
        /// libmagic's MIME type of the picture, which tells the worker how to decode it.
        public var contentType: String
        /// The change stamp the file had when it was queued: OCR is for that version only.
        public var changeStamp: [UInt8]?
        /// When it was queued: ``remove(_:)`` takes off only this queuing of the item.
        public var queued: Date
    }

    /// Opens (creating) the store at `path` for the index whose ``IndexReader/path`` is `indexPath`.
    /// - Parameter readOnly: for `status` and `show`: fails when the file does not exist.
    /// - Throws: GRDB's `DatabaseError` when the file cannot be opened (read-only: when it does
    ///   not exist); ``SearchlightError`` when its folder or file cannot be created.
    public init(path: String, indexPath: String, readOnly: Bool = false) throws {
        self.path = path
        self.indexPath = indexPath
        var configuration = GRDB.Configuration()
        configuration.readonly = readOnly
        configuration.busyMode = .timeout(10)
        if !readOnly {
            // The store holds the text of the index's pictures: owner-only, as the index is
            // (made so by a version that left it 0644 too).
            try SearchableIndex.createPrivateFile(at: path)
            for file in [path, path + "-wal", path + "-shm"] { chmod(file, 0o600) }
        }
        database = try DatabaseQueue(path: path, configuration: configuration)
        if readOnly { return }
        try database.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-ocr") { db in
            try db.execute(sql: """
                CREATE TABLE pending (
                    indexPath TEXT NOT NULL, domain TEXT NOT NULL, identifier BLOB NOT NULL,
                    root TEXT NOT NULL, contentType TEXT NOT NULL, changeStamp BLOB, queued REAL NOT NULL,
                    PRIMARY KEY (indexPath, domain, identifier)) WITHOUT ROWID;
                CREATE TABLE recognized (
                    digest TEXT PRIMARY KEY, text TEXT NOT NULL, truncated INTEGER NOT NULL, recognized REAL NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE item_text (
                    indexPath TEXT NOT NULL, domain TEXT NOT NULL, identifier BLOB NOT NULL, digest TEXT NOT NULL,
                    PRIMARY KEY (indexPath, domain, identifier)) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v2-pages") { db in
            // A PDF's scanned pages, those read and the limit they were read with; NULL for an image.
            for table in ["recognized", "item_text"] {
                try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN scannedPages INTEGER")
                try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN readPages INTEGER")
                try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN pageLimit INTEGER")
            }
            try db.execute(sql: """
                CREATE TABLE older_queued (
                    indexPath TEXT NOT NULL, domain TEXT NOT NULL, queued REAL NOT NULL, count INTEGER NOT NULL,
                    PRIMARY KEY (indexPath, domain)) WITHOUT ROWID
                """)
        }
        try migrator.migrate(database)
    }

    /// Where the store of `index` lives: next to a SQLite index file, else under
    /// `$XDG_CACHE_HOME/searchlight/` (`~/.cache` when unset).
    ///
    /// - Parameters:
    ///   - index: The index the store serves.
    ///   - environment: Where `XDG_CACHE_HOME` and `HOME` are read; this process's by default.
    /// - Returns: `INDEX-ocr` beside a SQLite index, else the cache folder's `ocr.sqlite`.
    public static func location(for index: any IndexWriter, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if index is SearchableIndex { return index.path + "-ocr" }
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        return cache + "/searchlight/ocr.sqlite"
    }

    /// Opens the store of `index` read-only, or nil when OCR never ran for it.
    ///
    /// For `status` and `show`, which only read: a store that cannot be opened is `nil` too.
    ///
    /// - Parameter index: The index whose store is looked for.
    /// - Returns: The store, or `nil`.
    public static func existing(for index: any IndexWriter) -> OCRStore? {
        let path = location(for: index)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try? OCRStore(path: path, indexPath: index.path, readOnly: true)
    }

    // MARK: The queue

    /// Queues `entries` (replacing what was queued for the same items).
    ///
    /// - Parameter entries: The pictures to read, with the change stamps they have now.
    /// - Throws: GRDB's `DatabaseError` when the store cannot be written; then none is queued.
    public func enqueue(_ entries: [Entry]) throws {
        guard !entries.isEmpty else { return }
        try database.write { db in
            let statement = try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO pending (indexPath, domain, identifier, root, contentType, changeStamp, queued)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
            for entry in entries {
                try statement.execute(arguments: [indexPath, entry.domain, Data(entry.identifier.bytes), entry.root,
                                                  entry.contentType, entry.changeStamp.map { Data($0) },
                                                  entry.queued.timeIntervalSince1970])
            }
        }
    }

    /// The oldest entries, at most `limit`, skipping `excluded`.
    ///
    /// Entries stay queued until ``remove(_:)``: asking again gives the same ones, so a caller
    /// that works on several at once excludes those it holds.
    ///
    /// - Parameters:
    ///   - limit: At most this many.
    ///   - excluded: Entries the caller is working on already.
    /// - Returns: The oldest queued entries of this index, oldest first.
    /// - Throws: GRDB's `DatabaseError` when the store cannot be read.
    public func next(limit: Int, excluding excluded: Set<Key> = []) throws -> [Entry] {
        try database.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT domain, identifier, root, contentType, changeStamp, queued FROM pending
                WHERE indexPath = ? ORDER BY queued LIMIT ?
                """, arguments: [indexPath, limit + excluded.count])
            return rows.map { row in
                Entry(domain: row["domain"], identifier: ItemIdentifier(bytes: Array(row["identifier"] as Data)),
                      root: row["root"], contentType: row["contentType"],
                      changeStamp: (row["changeStamp"] as Data?).map { Array($0) },
                      queued: Date(timeIntervalSince1970: row["queued"]))
            }.filter { !excluded.contains(Key(domain: $0.domain, identifier: $0.identifier)) }.prefix(limit).map { $0 }
        }
    }

    /// An entry's key.
    public struct Key: Sendable, Hashable {
        /// The item's domain.
        public var domain: String
        /// The item's identifier in its domain.
        public var identifier: ItemIdentifier
    }

    /// Takes an entry off the queue, if it is still the one queued at `queued`.
    ///
    /// An item queued again meanwhile (its file changed while it was read) stays queued, for
    /// its new version.
    ///
    /// - Parameter entry: An entry ``next(limit:excluding:)`` gave.
    /// - Throws: GRDB's `DatabaseError` when the store cannot be written.
    public func remove(_ entry: Entry) throws {
        try database.write { db in
            try db.execute(sql: "DELETE FROM pending WHERE indexPath = ? AND domain = ? AND identifier = ? AND queued = ?",
                           arguments: [indexPath, entry.domain, Data(entry.identifier.bytes), entry.queued.timeIntervalSince1970])
        }
    }

    /// Pictures waiting for OCR.
    ///
    /// - Returns: The entries queued for this index.
    /// - Throws: GRDB's `DatabaseError` when the store cannot be read.
    public func pendingCount() throws -> Int {
        try database.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM pending WHERE indexPath = ?", arguments: [indexPath]) ?? 0
        }
    }

    /// Forgets a domain's entries and marks (its items were removed from the index).
    ///
    /// The cache of recognised text stays: its texts are keyed by the bytes' digest, not by
    /// item, and serve any copy of the same picture.
    ///
    /// - Parameter domains: The domains' names.
    /// - Throws: GRDB's `DatabaseError` when the store cannot be written.
    public func forget(domains: [String]) throws {
        try database.write { db in
            for domain in domains {
                try db.execute(sql: "DELETE FROM pending WHERE indexPath = ? AND domain = ?", arguments: [indexPath, domain])
                try db.execute(sql: "DELETE FROM item_text WHERE indexPath = ? AND domain = ?", arguments: [indexPath, domain])
            }
        }
    }

    // MARK: The cache

    /// The text recognised in the bytes whose digest is `digest`, if they were read before.
    ///
    /// - Parameter digest: The SHA-256 of the picture's bytes, in hex.
    /// - Returns: The text (empty for a picture without any), or `nil` when never read.
    /// - Throws: GRDB's `DatabaseError` when the store cannot be read.
    public func recognized(digest: String) throws -> RecognizedText? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT text, truncated, scannedPages, readPages, pageLimit FROM recognized WHERE digest = ?",
                             arguments: [digest]).map {
                RecognizedText(text: $0["text"], isTruncated: $0["truncated"], pages: Self.pages(in: $0))
            }
        }
    }

    /// Records what OCR read in the bytes of `digest`.
    ///
    /// - Parameters:
    ///   - text: What was read, empty when nothing was; for a PDF, its pages.
    ///   - digest: The SHA-256 of the bytes, in hex.
    /// - Throws: GRDB's `DatabaseError` when the store cannot be written.
    public func record(_ text: RecognizedText, digest: String) throws {
        try database.write { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO recognized (digest, text, truncated, recognized, scannedPages, readPages, pageLimit)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [digest, text.text, text.isTruncated, Date().timeIntervalSince1970,
                                 text.pages?.scanned, text.pages?.read, text.pages?.limit])
        }
    }

    /// The pages of a row's `scannedPages`, `readPages` and `pageLimit`, nil for an image.
    static func pages(in row: Row) -> RecognizedText.Pages? {
        guard let scanned: Int = row["scannedPages"], let read: Int = row["readPages"] else { return nil }
        return .init(scanned: scanned, read: read, limit: row["pageLimit"] ?? read)
    }

    // MARK: Marks

    /// Records that the text of an item came from OCR of the bytes of `digest` (of `pages`, for a PDF).
    ///
    /// - Parameters:
    ///   - domain: The item's domain.
    ///   - identifier: The item's identifier.
    ///   - digest: The SHA-256 of the bytes read, in hex.
    ///   - pages: A PDF's scanned pages and those read; `nil` for an image.
    /// - Throws: GRDB's `DatabaseError` when the store cannot be written.
    public func markRecognized(domain: String, identifier: ItemIdentifier, digest: String,
                               pages: RecognizedText.Pages? = nil) throws {
        try database.write { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO item_text (indexPath, domain, identifier, digest, scannedPages, readPages, pageLimit)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [indexPath, domain, Data(identifier.bytes), digest, pages?.scanned, pages?.read, pages?.limit])
        }
    }

    /// Whether the text of an item came from OCR.
    ///
    /// - Parameters:
    ///   - domain: The item's domain.
    ///   - identifier: The item's identifier.
    /// - Returns: Whether it is marked recognised.
    /// - Throws: GRDB's `DatabaseError` when the store cannot be read.
    public func isRecognized(domain: String, identifier: ItemIdentifier) throws -> Bool {
        try recognition(domain: domain, identifier: identifier) != nil
    }

    /// How an item's text came from OCR: nil when it did not; for a PDF, its pages.
    ///
    /// - Parameters:
    ///   - domain: The item's domain.
    ///   - identifier: The item's identifier.
    /// - Returns: The recognition, or `nil`.
    /// - Throws: GRDB's `DatabaseError` when the store cannot be read.
    public func recognition(domain: String, identifier: ItemIdentifier) throws -> Recognition? {
        try database.read { db in
            try Row.fetchOne(db, sql: """
                SELECT scannedPages, readPages, pageLimit FROM item_text WHERE indexPath = ? AND domain = ? AND identifier = ?
                """, arguments: [indexPath, domain, Data(identifier.bytes)]).map { Recognition(pages: Self.pages(in: $0)) }
        }
    }

    /// An item whose text came from OCR.
    public struct Recognition: Sendable, Hashable {
        /// A PDF's scanned pages and those read; nil for an image.
        public var pages: RecognizedText.Pages?
    }

    /// Forgets that an item's text came from OCR (it changed and was read again).
    ///
    /// - Parameters:
    ///   - domain: The item's domain.
    ///   - identifier: The item's identifier.
    /// - Throws: GRDB's `DatabaseError` when the store cannot be written.
    public func unmark(domain: String, identifier: ItemIdentifier) throws {
        try database.write { db in
            try db.execute(sql: "DELETE FROM item_text WHERE indexPath = ? AND domain = ? AND identifier = ?",
                           arguments: [indexPath, domain, Data(identifier.bytes)])
        }
    }
}
