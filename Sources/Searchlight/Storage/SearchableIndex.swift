import Foundation
import GRDB
import GRDBSQLite
import SystemPackage
import Logging
import Synchronization

/// A persistent, searchable index of items, in the shape of CoreSpotlight's `CSSearchableIndex`.
///
/// The index is one SQLite file in WAL mode: any number of processes may read it while one
/// writes, and readers are never blocked. Items are grouped in domains and identified within
/// their domain by an ``ItemIdentifier``.
///
/// ```swift
/// let index = try SearchableIndex(path: "/tmp/notes.sqlite")
/// try index.indexItems([item])
/// let results = try index.search(words: ["shop"])
/// ```
///
/// ## Overview
///
/// An application describes what it wants found as ``SearchableItem``s (an identifier, a
/// domain, an ``AttributeSet``) and hands them over with ``indexItems(_:)`` or, mixing
/// insertions, deletions, moves and user attributes, as one ``IndexBatch`` with ``apply(_:)``.
/// Each call is one SQLite transaction: it lands whole or not at all, and expired items
/// (``SearchableItem/expirationDate``) are forgotten in the same transaction. It then asks
/// with words typed as in a search field (``search(words:domain:limit:scope:)``,
/// ``searchResults(words:domain:limit:scope:)``), with Spotlight's query language
/// (``query(_:domain:limit:)``, ``SearchQuery``), or by meaning
/// (``meaningResults(question:model:domain:limit:)``). The index knows items and attributes,
/// not files: `SearchlightFiles`' `FolderScanner` and `FolderWatcher` are one such application.
///
/// The class conforms to ``IndexWriter`` (and so ``IndexReader``), the interface that the
/// PostgreSQL index of `SearchlightPostgres` conforms to as well; code that should run over
/// either takes `any IndexReader` or `any IndexWriter`.
///
/// ## Handles and connections
///
/// A writable handle (the default) opens one GRDB `DatabasePool`: one writer connection and
/// reader connections beside it, so a search on one thread runs while a batch is written on
/// another. Opening it creates the file (mode 0600, its folders 0700) and upgrades an older
/// schema; an index written by a newer Searchlight is refused as damaged. A handle opened with
/// `readOnly: true` never creates nor migrates: its name searches read through SQLite's C API
/// (`SQLiteReader`, a 16 MiB page cache), and GRDB's connection is opened only at the first
/// read that needs it (a query, an item's rows, content search). Two processes that write the
/// same file wait for each other's write lock, up to 30 seconds, then fail.
///
/// ## Threads and blocking
///
/// `SearchableIndex` is `Sendable`: one handle may be used from any number of threads at once;
/// its mutable state (the connections, the change monitor) sits behind a `Mutex`. Every
/// synchronous method blocks its calling thread for as long as its SQLite work takes (a
/// search, a batch's transaction, a wait for another process's write lock). Call them from
/// threads of your own, or from async code through ``asyncRead(_:)`` and the async twins of
/// ``IndexReader`` (``searchResults(_:domain:limit:)``, ``query(_:domain:limit:)``…), which
/// suspend the task instead and stop the read (`sqlite3_interrupt`) when the task is
/// cancelled. ``interrupt()`` stops a running statement from another thread.
///
/// ## Topics
///
/// ### Opening and closing
///
/// - ``init(path:readOnly:concurrentReads:logger:)``
/// - ``openResettingDamage(path:verify:logger:delegate:)``
/// - ``reopen()``
/// - ``close()``
///
/// ### Writing items
///
/// - ``indexItems(_:)``
/// - ``apply(_:)``
/// - ``deleteItems(withIdentifiers:domain:)``
/// - ``deleteAllItems(inDomains:)``
/// - ``deleteAllItems()``
/// - ``markUpdated(domain:date:)``
///
/// ### Reading items
///
/// - ``item(_:domain:)``
/// - ``items(withIdentifier:domain:)``
/// - ``itemCount(domain:)``
/// - ``forEachItem(domain:_:)``
/// - ``thumbnail(of:domain:)``
/// - ``textContent(of:domain:)``
/// - ``domains()``
/// - ``statistics()``
///
/// ### Searching by words
///
/// - ``search(words:domain:limit:scope:)``
/// - ``searchResults(words:domain:limit:scope:)``
/// - ``searchReferences(words:domain:limit:scope:)``
/// - ``countMatches(words:domain:scope:)``
/// - ``spellings(of:correctingIndexed:)``
/// - ``searchPlan(words:domain:scope:)``
///
/// ### Querying
///
/// - ``query(_:domain:limit:)``
/// - ``query(_:domain:limit:now:calendar:)``
/// - ``countQuery(_:domain:)``
/// - ``explainQuery(_:domain:limit:)``
///
/// ### Reading from async code
///
/// - ``asyncRead(_:)``
/// - ``interrupt()``
/// - ``changeMarker()``
///
/// ### Damage and space
///
/// - ``reset(reason:)``
/// - ``checkIntegrity()``
/// - ``checkFullTextIntegrity()``
/// - ``resetHistory()``
/// - ``spaceUse()``
/// - ``reclaimSpace()``
public final class SearchableIndex: Sendable {
    /// The path of the index file.
    public let path: String
    /// Whether this handle only reads.
    public let isReadOnly: Bool
    /// How many async reads of a read-only handle run side by side (see ``init(path:readOnly:concurrentReads:logger:)``).
    public let concurrentReads: Int
    /// What this handle reads and writes through (``IndexConnections``): replaced when the
    /// file is opened again (``reopen()``).
    private let connections: Mutex<IndexConnections>
    /// The device and inode of the file opened (see ``isFileReplaced``).
    let fileIdentity: Mutex<[UInt64]>
    /// Rows written and deleted since space was last reclaimed (``reclaimSpaceIfChurned()``).
    public let churn = IndexChurn()
    /// GRDB's connections; a read-only handle opens its connection at the first call.
    var database: any DatabaseWriter {
        get throws { try currentConnections.database(path: path) }
    }
    /// The connections this handle reads and writes through now.
    var currentConnections: IndexConnections { connections.withLock { $0 } }
    /// Where the index reports what it does: resets, files it reopens, connections that do not
    /// close.
    let logger: Logger
    /// How many ``asyncRead(_:)`` calls run: while any does, ``readStatements(_:)`` reads as
    /// ``read(_:)`` does (its task-local flag is not read otherwise: made at first use, it cost
    /// every search's start-up).
    let asyncReads = Atomic<Int>(0)
    /// How many times this handle reset its index (``reset(reason:)``): what was indexed
    /// through it before is gone.
    let resets = Atomic<Int>(0)
    /// The connection that ``changeMarker()`` asks, opened at the first ask.
    let changeMonitorSlot = Mutex<SQLiteChangeMonitor?>(nil)

    /// Opens the index at `path`, creating it (with owner-only permissions) unless `readOnly`.
    ///
    /// - Parameters:
    ///   - path: The SQLite file of the index.
    ///   - readOnly: Open an existing index for reading only; never creates nor migrates it.
    ///   - concurrentReads: For a read-only handle, how many of GRDB's async reads
    ///     (``asyncRead(_:)``, the async twins of ``IndexReader``) run side by side, each on a
    ///     connection of its own that cancelling its task interrupts alone: the server's
    ///     searches, one per core. 1 (the default): one connection, reads one after another.
    ///   - logger: Where the index reports what it does.
    /// - Throws: ``SearchlightError`` with code `.noIndex` when a read-only index does not
    ///   exist, `.cannotOpenIndex` when the file cannot be created or opened, or when a
    ///   read-only index still has an older schema (opening it writable upgrades it).
    public init(path: String, readOnly: Bool = false, concurrentReads: Int = 1,
                logger: Logger = Logger(label: "searchlight.index")) throws {
        self.path = path
        self.isReadOnly = readOnly
        self.concurrentReads = max(concurrentReads, 1)
        self.logger = logger
        if readOnly {
            // `stat` itself: `FileManager.default` is made on first use (start-up).
            guard !Self.identity(of: path).isEmpty else {
                throw SearchlightError(.noIndex, "no index at \(path)")
            }
        } else {
            try Self.createPrivateFile(at: path)
        }
        do {
            if readOnly {
                // Search reads through SQLite's C API; GRDB's connection is opened only for
                // what still reads through it (a query, an item's rows, content search).
                let reader = try SQLiteReader(path: path, cacheKibibytes: Self.readerCacheKibibytes)
                // A schema this version does not know (a newer Searchlight's) cannot be read
                // safely: damage, as far as this version can tell. Checked in one read
                // transaction (each costs a BEGIN and a COMMIT at start-up).
                try reader.read { try Self.checkSchemaForReading(reader, path: path) }
                // In WAL mode a read-only connection still never waits for a writer.
                connections = Mutex(IndexConnections(reader: reader) {
                    guard concurrentReads > 1 else {
                        return try DatabaseQueue(path: path, configuration: Self.configuration(readOnly: true))
                    }
                    // A pool of read-only connections: each async read takes one, and GRDB
                    // interrupts only that one when its task is cancelled.
                    var configuration = Self.configuration(readOnly: true)
                    configuration.maximumReaderCount = concurrentReads
                    return try DatabasePool(path: path, configuration: configuration)
                })
            } else {
                let database = try DatabasePool(path: path, configuration: Self.configuration(readOnly: false))
                try database.read { db in
                    if try Self.migrator.hasBeenSuperseded(db) {
                        throw SearchlightError(.damagedIndex, "the index at \(path) was written by a newer Searchlight")
                    }
                }
                try Self.migrate(database)
                try database.writeWithoutTransaction { db in try Self.trackReleasedContentKinds(in: db) }
                connections = Mutex(IndexConnections(database))
            }
        } catch {
            throw SearchlightError.wrapping(error, .cannotOpenIndex, "cannot open index", path: path)
        }
        fileIdentity = Mutex(Self.identity(of: path))
    }

    /// What a read-only open checks, as GRDB's `DatabaseMigrator.hasBeenSuperseded`,
    /// `Database.tableExists` and `DatabaseMigrator.hasCompletedMigrations` would, in two
    /// plain queries: those load the whole schema into GRDB's cache and build sets of records,
    /// a cost every search paid at start-up (Benchmarks/README.md, "Start-up").
    private static func checkSchemaForReading(_ db: any ReadConnection, path: String) throws {
        let tables = try strings(in: db, """
            SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('item', 'grdb_migrations')
            """)
        let applied = tables.contains("grdb_migrations") ? try strings(in: db, "SELECT identifier FROM grdb_migrations") : []
        let known = migrations
        if applied.contains(where: { !known.contains($0) }) {
            throw SearchlightError(.damagedIndex, "the index at \(path) was written by a newer Searchlight")
        } else if !tables.contains("item") {
            throw SearchlightError(.noIndex, "\(path) is not a Searchlight index")
        } else if !known.allSatisfy(applied.contains) {
            // Only a writer upgrades an index; reading an older schema would fail on every query.
            throw SearchlightError(.outdatedIndex, "the index at \(path) was written by an older Searchlight")
        }
    }

    /// GRDB's configuration of a connection to an index: `readOnly` for a read-only handle's
    /// queue, made only when that queue is opened (its closures and arrays cost every search's
    /// start-up otherwise). `package`: the start-up floor's benchmark opens GRDB's connection as
    /// a read-only handle does.
    package static func configuration(readOnly: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        // Foreign keys guard writes; a read-only connection skips the pragma.
        configuration.foreignKeysEnabled = !readOnly
        configuration.label = "searchlight"
        configuration.prepareDatabase { db in
            SearchableIndex.registerFunctions(in: db)
            if !db.configuration.readonly {
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                // A write-ahead log grown by a burst is cut back to this after each checkpoint.
                try db.execute(sql: "PRAGMA journal_size_limit = \(SearchableIndex.walSizeLimit)")
            } else {
                // Searches read rows scattered over the file (a common word's first page visits
                // a couple of thousand): a larger page cache keeps them between searches of one
                // process. Only for read-only opens (`search`, `query`, a program that asks
                // many questions): scanning and watching keep their memory small. (Mapping
                // the file did as well for searches but slowed scans of the whole table.)
                // Through SQLite itself: GRDB's `execute(sql:)` builds its SQL literal first,
                // whose generic types cost conformance look-ups at every search's start.
                let pragma = "PRAGMA cache_size = -\(SearchableIndex.readerCacheKibibytes)"
                let code = sqlite3_exec(db.sqliteConnection, pragma, nil, nil, nil)
                if code != SQLITE_OK {
                    throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                                        sql: pragma)
                }
            }
        }
        configuration.readonly = readOnly
        return configuration
    }

    /// Opens the index's path again, creating the index there if it is gone (its file or
    /// folder was removed, or replaced): what this handle reads and writes from now on.
    /// What was indexed through it before is then gone, as after ``reset(reason:)``.
    ///
    /// The new connections replace the old ones under the handle's lock: a read that runs on
    /// another thread finishes on the connection it started with, and the next call uses the
    /// new file. ``resetCount`` grows by one, which tells a writer that its idea of what the
    /// index holds (the file indexer's domain states) must be rebuilt.
    ///
    /// ```swift
    /// if index.isFileReplaced { try index.reopen() }
    /// ```
    ///
    /// - Throws: ``SearchlightError`` when the index cannot be opened or created there; the
    ///   handle then keeps its old connections.
    public func reopen() throws {
        adopt(try SearchableIndex(path: path, readOnly: isReadOnly, concurrentReads: concurrentReads, logger: logger))
        resets.add(1, ordering: .relaxed)
        logger.warning("the index \(path) was removed or replaced: opened it again")
    }

    /// Closes the connections, as a command does before its process ends: the last one to
    /// close moves the write-ahead log into the file and removes it, which a process that exits
    /// with the index still held (by a thread that has not let go of it yet) never does, leaving
    /// the log beside the file. Calls after this fail; closing again does nothing.
    ///
    /// Closing never throws: a connection that cannot close (a statement still running on
    /// another thread) is logged as a warning and left to the process's end. A read-only
    /// handle that never needed GRDB's connection closes only its C reader.
    public func close() {
        let connections = currentConnections
        connections.reader?.close()
        guard let database = connections.openedDatabase else { return }
        do {
            // GRDB closes a pool's writer before its readers, and a read-only connection
            // closing last leaves the log: the readers go first.
            (database as? DatabasePool)?.releaseMemory()
            try database.close()
        } catch {
            logger.warning("could not close the index \(path): \(error)")
        }
    }

    /// Reads and writes through `fresh`'s connections (to the same path) from now on.
    func adopt(_ fresh: SearchableIndex) {
        let adopted = fresh.currentConnections
        connections.withLock { $0 = adopted }
        changeMonitorSlot.withLock { $0 = nil }
        fileIdentity.withLock { $0 = fresh.fileIdentity.withLock { $0 } }
    }

    /// The page cache of a read-only connection, in KiB; SQLite fills it only as pages are read.
    /// Room for the pages of a common word's first page (about 2 000 at 1 M items); a larger
    /// cache made whole-table scans slower (32 MiB: +15 % for the query-bench pixel rows).
    package static let readerCacheKibibytes = 16 * 1024

    /// Creates the folders of `path` (mode 0700) and the file itself (mode 0600) if missing:
    /// the index, and the files beside it that hold what it holds (the OCR store). SQLite
    /// gives a database's `-wal` and `-shm` files its mode.
    package static func createPrivateFile(at path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty && !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw SearchlightError(.cannotOpenIndex, "cannot create the index folder", path: folder, cause: SearchlightError.cause(of: error))
            }
        }
        do {
            try FileDescriptor.open(FilePath(path), .writeOnly, options: [.create, .closeOnExec],
                                    permissions: [.ownerReadWrite], retryOnInterrupt: true).close()
        } catch let errno as Errno {
            throw SearchlightError(.cannotOpenIndex, "cannot create the index", path: path, cause: .system(errno))
        }
    }
}
