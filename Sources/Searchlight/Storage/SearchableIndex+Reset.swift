import Foundation
import GRDB
import Logging
import SystemPackage
import SystemCalls

/// What a damaged index became: when it was reset, why, and where its files were kept.
///
/// Returned by the resets (``SearchableIndex/reset(path:reason:logger:)``,
/// ``SearchableIndex/reset(reason:)``) and listed by ``SearchableIndex/resetHistory()``; the
/// list is kept in the index file itself, so a reset made by another process is seen too.
public struct IndexReset: Sendable, Equatable, Codable {
    /// When the index was reset.
    public var date: Date
    /// Why: the error that showed the damage, as one line.
    public var reason: String
    /// The damaged files, kept for a report: the main file first, then its `-wal` and `-shm`
    /// as they were (named `FILE.damaged-DATE`, `FILE.damaged-DATE-wal`, … so that SQLite opens
    /// them together).
    ///
    /// Empty when no copy could be kept (a full disk). A reset through an open handle copies the
    /// main file and its `-wal` only.
    public var movedAside: [String]

    /// Records a reset made at `date`, for `reason`, whose damaged files were moved to `movedAside`.
    public init(date: Date, reason: String, movedAside: [String]) {
        self.date = date
        self.reason = reason
        self.movedAside = movedAside
    }
}

/// Told when an index had to be reset and lost its items, in the shape of CoreSpotlight's
/// `CSSearchableIndexDelegate`: the application indexes everything again.
///
/// Called by ``SearchableIndex/openResettingDamage(path:verify:logger:delegate:)`` on the
/// thread that opened the index, before it returns: a delegate that indexes everything again
/// at once blocks that caller for as long as it takes, so it usually schedules the work.
public protocol SearchableIndexDelegate: AnyObject, Sendable {
    /// The index was damaged and is now empty: index every item again.
    ///
    /// - Parameters:
    ///   - index: The new, empty index, open for writing.
    ///   - reset: When and why the index was reset, and where its files were kept.
    func reindexAllSearchableItems(in index: SearchableIndex, after reset: IndexReset)
}

// A damaged index (Docs/Contract.md#when-things-break) is derived data: it is kept aside, for a report, and replaced by
// an empty one that its user fills again.
extension SearchableIndex {
    /// Opens the index at `path` for writing; if it is damaged (``SearchlightError/isDamage``),
    /// resets it (``reset(path:reason:logger:)``) and asks `delegate` to index everything again.
    ///
    /// What `scan` and `watch` open their index with: the index is derived data, which the
    /// disk can give again, so damage costs a rebuild rather than an error. An index that
    /// cannot be opened for another reason (a folder that cannot be created, a file written by
    /// a newer Searchlight) still throws.
    ///
    /// ```swift
    /// let (index, reset) = try SearchableIndex.openResettingDamage(path: path, verify: true)
    /// if let reset { print("the index was damaged (\(reset.reason)) and starts empty") }
    /// ```
    ///
    /// - Parameters:
    ///   - path: The index file.
    ///   - verify: Also run ``checkIntegrity()`` first: finds damage in pages that
    ///     opening does not read. It reads the whole file.
    ///   - logger: Where the index, and a reset, are reported.
    ///   - delegate: Told of a reset, on the calling thread, before this returns.
    /// - Returns: The index, and the reset when there was one.
    /// - Throws: ``SearchlightError`` when the index cannot be opened for a reason other than
    ///   damage, or a damaged one cannot be reset.
    public static func openResettingDamage(path: String, verify: Bool = false,
                                           logger: Logger = Logger(label: "searchlight.index"),
                                           delegate: (any SearchableIndexDelegate)? = nil) throws -> (SearchableIndex, IndexReset?) {
        let reason: String
        do {
            let index = try SearchableIndex(path: path, logger: logger)
            if verify { try index.checkIntegrity() }
            return (index, nil)
        } catch let error as SearchlightError where error.isDamage {
            reason = error.damageReason
        }
        let (index, reset) = try self.reset(path: path, reason: reason, logger: logger)
        delegate?.reindexAllSearchableItems(in: index, after: reset)
        return (index, reset)
    }

    /// Moves the files of the damaged index at `path` aside (the main file, its `-wal`, `-shm`
    /// and `-journal`, renamed with the date) and creates an empty index there, which records
    /// the reset (``resetHistory()``). No handle of this process may be open on it (use
    /// ``reset(reason:)`` through an open handle).
    ///
    /// The files are renamed, not copied, so moving them aside costs nothing whatever their size;
    /// a process that still holds the old file open goes on with it, unaware.
    ///
    /// - Parameters:
    ///   - path: The index file.
    ///   - reason: Why, as one line: the error that showed the damage.
    ///   - logger: Where the reset is reported (one warning naming the files moved aside).
    /// - Returns: The new, empty index, and the record of the reset.
    /// - Throws: ``SearchlightError`` `.cannotOpenIndex` when the files cannot be moved aside or
    ///   the new index cannot be created.
    public static func reset(path: String, reason: String,
                             logger: Logger = Logger(label: "searchlight.index")) throws -> (SearchableIndex, IndexReset) {
        let date = Date()
        let base = asideName(for: path, date: date)
        var moved: [String] = []
        for suffix in ["", "-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: path + suffix) {
            do {
                try SystemCall.rename(path + suffix, to: base + suffix)
            } catch {
                throw SearchlightError(.cannotOpenIndex, "cannot move the damaged index aside", path: path + suffix,
                                       cause: .system(error))
            }
            moved.append(base + suffix)
        }
        let reset = IndexReset(date: date, reason: reason, movedAside: moved)
        let index = try SearchableIndex(path: path, logger: logger)
        try index.record(reset)
        logger.warning("the index \(path) was damaged (\(reason)): moved aside to \(moved.first ?? base), rebuilt from scratch")
        return (index, reset)
    }

    /// Resets the damaged index through this open handle: copies its files aside (as
    /// ``reset(path:reason:logger:)`` names them), empties the database in place and creates the
    /// schema again. Every handle on the file, in any process, then sees an empty index.
    ///
    /// What a watcher does when it meets damage while it runs (a failed integrity check, a
    /// corrupt page): the file stays where it is, so the other processes that hold it open
    /// need not notice anything but the emptiness. ``resetCount`` grows by one.
    ///
    /// Blocks for the copies (a read of the whole file) and for an exclusive write transaction
    /// that erases the database (GRDB's `erase()`), which the other writers wait for.
    ///
    /// - Parameter reason: Why, as one line: the error that showed the damage.
    /// - Returns: The record of the reset, also kept in the index (``resetHistory()``).
    /// - Throws: ``SearchlightError`` when the database cannot be emptied or its schema made
    ///   again (a copy that cannot be kept is only logged).
    @discardableResult
    public func reset(reason: String) throws -> IndexReset {
        let date = Date()
        let base = Self.asideName(for: path, date: date)
        var moved: [String] = []
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
            do {
                try FileManager.default.copyItem(atPath: path + suffix, toPath: base + suffix)
                moved.append(base + suffix)
            } catch {
                // Keeping a copy is for a report; the reset matters more (the disk may be full).
                logger.warning("cannot keep a copy of the damaged index \(path + suffix): \(error)")
            }
        }
        let reset = IndexReset(date: date, reason: reason, movedAside: moved)
        try databaseErrors("cannot reset the index") {
            // The connection's temporary triggers on the erased tables would break its every
            // later statement: dropped first. Damage that keeps SQLite from reading the schema
            // keeps it from dropping them too; the emptied file is then opened afresh.
            let stopped = (try? database.writeWithoutTransaction { db in try Self.stopTrackingReleasedContentKinds(in: db) }) != nil
            try database.erase()
            if !stopped {
                adopt(try SearchableIndex(path: path, readOnly: false, logger: logger))
            }
            try Self.migrate(database)
            try database.writeWithoutTransaction { db in try Self.trackReleasedContentKinds(in: db) }
        }
        try record(reset)
        resets.add(1, ordering: .relaxed)
        logger.warning("the index was damaged (\(reason)); kept a copy at \(moved.first ?? "nowhere") and emptied it")
        return reset
    }

    /// Whether the file at ``path`` is no longer the one this handle opened: removed (with
    /// its folder, perhaps) or replaced. SQLite goes on writing into the removed file, which
    /// nobody will ever read: ``reopen()`` creates the index again.
    public var isFileReplaced: Bool {
        Self.identity(of: path) != fileIdentity.withLock { $0 }
    }

    /// The device and inode of the file at `path` (empty when there is none).
    ///
    /// Follows links, as SQLite does when it opens the path. One `stat(2)`: cheap enough to ask
    /// before every window of a watch.
    static func identity(of path: String) -> [UInt64] {
        guard let status = try? SystemCall.status(followingLinksOf: path) else { return [] }
        return [UInt64(status.st_dev), UInt64(status.st_ino)]
    }

    /// How many times this handle reset its index (``reset(reason:)``).
    public var resetCount: Int { resets.load(ordering: .relaxed) }

    /// Checks the index's pages and structure (SQLite's `PRAGMA quick_check`: a read of the
    /// whole file, without the cost of checking every index against its table).
    ///
    /// A read like any other: writers go on meanwhile. Its time grows with the file (it reads
    /// every page), which is why a watch runs it once an hour when no event waits.
    ///
    /// ```swift
    /// do {
    ///     try index.checkIntegrity()
    /// } catch let error as SearchlightError where error.isDamage {
    ///     try index.reset(reason: error.damageReason)
    /// }
    /// ```
    ///
    /// At most the first three of the ten problems SQLite is asked for are named in the error.
    ///
    /// - Throws: ``SearchlightError`` `.damagedIndex` when it finds damage.
    public func checkIntegrity() throws {
        let problems = try read { db in try String.fetchAll(db, sql: "PRAGMA quick_check(10)") }
        if problems != ["ok"] {
            throw SearchlightError(.damagedIndex, "the index is damaged (integrity check: \(problems.prefix(3).joined(separator: "; ")))",
                                   path: path)
        }
    }

    /// The resets this index file went through, oldest first.
    ///
    /// Kept in the index itself, so a reset made by another process is listed as well; an
    /// index never reset has none (`searchlight status` shows the last).
    ///
    /// - Returns: The resets, oldest first.
    /// - Throws: ``SearchlightError`` when the index cannot be read.
    public func resetHistory() throws -> [IndexReset] {
        try read { db in
            guard try db.tableExists("index_reset") else { return [] }
            return try Row.fetchAll(db, sql: "SELECT date, reason, movedAside FROM index_reset ORDER BY date").map { row in
                let aside: String = row["movedAside"]
                return IndexReset(date: Date(timeIntervalSince1970: row["date"]), reason: row["reason"],
                                  movedAside: aside.split(separator: "\n").map(String.init))
            }
        }
    }

    /// Records a reset in the index itself (a table of its own, outside the migrated schema:
    /// only an index that was reset has it).
    ///
    /// The files moved aside are stored as one text, a path per line.
    ///
    /// - Throws: ``SearchlightError`` when the index cannot be written.
    func record(_ reset: IndexReset) throws {
        try write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS index_reset (date REAL NOT NULL, reason TEXT NOT NULL, movedAside TEXT NOT NULL)
                """)
            try db.execute(sql: "INSERT INTO index_reset (date, reason, movedAside) VALUES (?, ?, ?)",
                           arguments: [reset.date.timeIntervalSince1970, reset.reason, reset.movedAside.joined(separator: "\n")])
        }
    }

    /// `PATH.damaged-2026-11-25T20-01-02` (UTC), with a number after it when taken.
    ///
    /// The name is free of the main file's and of its `-wal`'s: resets within the same second
    /// never overwrite one another's copies.
    static func asideName(for path: String, date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let stamp = String(format: "%04d-%02d-%02dT%02d-%02d-%02d", parts.year!, parts.month!, parts.day!,
                           parts.hour!, parts.minute!, parts.second!)
        var name = "\(path).damaged-\(stamp)"
        var number = 2
        while FileManager.default.fileExists(atPath: name) || FileManager.default.fileExists(atPath: name + "-wal") {
            name = "\(path).damaged-\(stamp)-\(number)"
            number += 1
        }
        return name
    }
}
