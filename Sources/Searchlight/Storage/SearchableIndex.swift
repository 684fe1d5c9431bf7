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
public final class SearchableIndex: Sendable {
    /// The path of the index file.
    public let path: String
    /// Whether this handle only reads.
    public let isReadOnly: Bool
    /// A pool (a writer and concurrent readers) for a writable index; one read-only
    /// connection for a read-only one, which is all a query command needs and opens faster.
    private let connection: Mutex<any DatabaseWriter>
    /// The device and inode of the file opened (see ``isFileReplaced``).
    let fileIdentity: Mutex<[UInt64]>
    /// Rows written and deleted since space was last reclaimed (``reclaimSpaceIfChurned()``).
    public let churn = IndexChurn()
    /// The connections: replaced when the file is opened again (``reopen()``).
    var database: any DatabaseWriter { connection.withLock { $0 } }
    let logger: Logger
    /// How many times this handle reset its index (``reset(reason:)``): what was indexed
    /// through it before is gone.
    let resets = Atomic<Int>(0)

    /// Opens the index at `path`, creating it (with owner-only permissions) unless `readOnly`.
    ///
    /// - Parameters:
    ///   - path: The SQLite file of the index.
    ///   - readOnly: Open an existing index for reading only; never creates nor migrates it.
    ///   - logger: Where the index reports what it does.
    /// - Throws: ``SearchlightError`` with code `.noIndex` when a read-only index does not
    ///   exist, `.cannotOpenIndex` when the file cannot be created or opened, or when a
    ///   read-only index still has an older schema (opening it writable upgrades it).
    public init(path: String, readOnly: Bool = false, logger: Logger = Logger(label: "searchlight.index")) throws {
        self.path = path
        self.isReadOnly = readOnly
        self.logger = logger
        if readOnly {
            // `stat` itself: `FileManager.default` is made on first use (start-up).
            guard !Self.identity(of: path).isEmpty else {
                throw SearchlightError(.noIndex, "no index at \(path)")
            }
        } else {
            try Self.createPrivateFile(at: path)
        }
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
        let database: any DatabaseWriter
        do {
            if readOnly {
                // In WAL mode a read-only connection still never waits for a writer.
                configuration.readonly = true
                database = try DatabaseQueue(path: path, configuration: configuration)
            } else {
                database = try DatabasePool(path: path, configuration: configuration)
            }
            // A schema this version does not know (a newer Searchlight's) cannot be read nor
            // written safely: damage, as far as this version can tell. A read-only open checks
            // everything in one read transaction (each costs a BEGIN and a COMMIT at start-up).
            try database.read { db in
                if readOnly {
                    try Self.checkSchemaForReading(db, path: path)
                } else if try Self.migrator.hasBeenSuperseded(db) {
                    throw SearchlightError(.damagedIndex, "the index at \(path) was written by a newer Searchlight")
                }
            }
            if !readOnly {
                try Self.migrate(database)
                try database.writeWithoutTransaction { db in try Self.trackReleasedContentKinds(in: db) }
            }
        } catch {
            throw SearchlightError.wrapping(error, .cannotOpenIndex, "cannot open index", path: path)
        }
        connection = Mutex(database)
        fileIdentity = Mutex(Self.identity(of: path))
    }

    /// What a read-only open checks, as GRDB's `DatabaseMigrator.hasBeenSuperseded`,
    /// `Database.tableExists` and `DatabaseMigrator.hasCompletedMigrations` would, in two
    /// plain queries: those load the whole schema into GRDB's cache and build sets of records,
    /// a cost every search paid at start-up (Benchmarks/README.md, "Start-up").
    private static func checkSchemaForReading(_ db: Database, path: String) throws {
        let tables = try strings(in: db, """
            SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('item', 'grdb_migrations')
            """)
        let applied = tables.contains("grdb_migrations") ? try strings(in: db, "SELECT identifier FROM grdb_migrations") : []
        let known = migrator.migrations
        if applied.contains(where: { !known.contains($0) }) {
            throw SearchlightError(.damagedIndex, "the index at \(path) was written by a newer Searchlight")
        } else if !tables.contains("item") {
            throw SearchlightError(.noIndex, "\(path) is not a Searchlight index")
        } else if !known.allSatisfy(applied.contains) {
            // Only a writer upgrades an index; reading an older schema would fail on every query.
            throw SearchlightError(.outdatedIndex, "the index at \(path) was written by an older Searchlight")
        }
    }

    /// Opens the index's path again, creating the index there if it is gone (its file or
    /// folder was removed, or replaced): what this handle reads and writes from now on.
    /// What was indexed through it before is then gone, as after ``reset(reason:)``.
    public func reopen() throws {
        adopt(try SearchableIndex(path: path, readOnly: isReadOnly, logger: logger))
        resets.add(1, ordering: .relaxed)
        logger.warning("the index \(path) was removed or replaced: opened it again")
    }

    /// Closes the connections, as a command does before its process ends: the last one to
    /// close moves the write-ahead log into the file and removes it, which a process that exits
    /// with the index still held (by a thread that has not let go of it yet) never does, leaving
    /// the log beside the file. Calls after this fail; closing again does nothing.
    public func close() {
        let database = self.database
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
        connection.withLock { $0 = fresh.database }
        fileIdentity.withLock { $0 = fresh.fileIdentity.withLock { $0 } }
    }

    /// The page cache of a read-only connection, in KiB; SQLite fills it only as pages are read.
    /// Room for the pages of a common word's first page (about 2 000 at 1 M items); a larger
    /// cache made whole-table scans slower (32 MiB: +15 % for the query-bench pixel rows).
    package static let readerCacheKibibytes = 16 * 1024

    /// Creates the folders of `path` (mode 0700) and the file itself (mode 0600) if missing.
    static func createPrivateFile(at path: String) throws {
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
