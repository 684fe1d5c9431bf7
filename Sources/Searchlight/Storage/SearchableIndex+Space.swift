import Foundation
import GRDB
import Synchronization

/// Keeping the index's files the size of what they hold (Baloo's best-known complaint is an
/// index that only grows). Deleting and rewriting rows leaves three kinds of dead space:
///
/// - free pages inside the file, which SQLite reuses but never gives back to the disk;
/// - in the full-text indexes (FTS5, contentless), every deleted or rewritten row's entries
///   stay as tombstones in their segments until segments are merged;
/// - a write-ahead log that grew during a burst.
///
/// ``reclaimSpace()`` undoes all three: it merges each full-text index into one segment
/// (FTS5's `optimize`), rewrites the file packed (`VACUUM`: deletions also leave B-tree pages
/// half empty, which giving back free pages alone would not undo), and truncates the log. `watch`
/// calls ``reclaimSpaceIfChurned()`` whenever it is idle, and `scan` when it is done, which
/// does the work when ``IndexChurn`` says it is worth it.
///
/// Growth alone is worth it too here, once the index has at least doubled (a first scan):
/// FTS5 writes a segment per transaction and merges four of a level at a time, so a first
/// scan leaves a dozen or more segments (19 on `/usr/share`, 11 on 2 000 files), and every
/// look-up of a term reads each of them — the spelling pass of a search with no hit makes
/// hundreds. One segment and a packed file: `search xylophone` (no hit) on `/usr/share` 6.5 →
/// 5.7 ms, the index 8 % smaller, for the merge and vacuum's 0.27 s after a 12 s scan
/// (Benchmarks/README.md, "The spelling pass and the full-text segments").
extension SearchableIndex {
    /// Bytes of write-ahead log kept after a checkpoint (`journal_size_limit`).
    static let walSizeLimit = 4 * 1024 * 1024

    /// What the index's files take.
    public struct SpaceUse: Sendable, Equatable {
        /// The database file, and its write-ahead log.
        public var fileBytes: Int64
        /// Its write-ahead log (`-wal`), 0 when there is none.
        public var walBytes: Int64
        /// Free pages inside the file, in bytes.
        public var freeBytes: Int64
    }

    /// The sizes of the index's files and of the free space inside.
    ///
    /// The free space is SQLite's free pages, which later writes reuse and only
    /// ``reclaimSpace()`` gives back; the full-text indexes' dead entries are not counted.
    ///
    /// - Returns: The main file's, the log's and the free pages' bytes.
    /// - Throws: ``SearchlightError`` when the index cannot be read.
    public func spaceUse() throws -> SpaceUse {
        let (pageSize, free) = try read { db in
            (try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 4096,
             try Int64.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0)
        }
        func size(_ path: String) -> Int64 {
            ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
        }
        return SpaceUse(fileBytes: size(path), walBytes: size(path + "-wal"), freeBytes: free * pageSize)
    }

    /// How many segments each full-text index is made of (the rows of its `_idx` table name
    /// each segment's leaves): what every look-up of a term reads, one by one.
    func fullTextSegments() throws -> (words: Int, content: Int) {
        try read { db in
            (try Int.fetchOne(db, sql: "SELECT count(DISTINCT segid) FROM item_words_idx") ?? 0,
             try Int.fetchOne(db, sql: "SELECT count(DISTINCT segid) FROM item_content_idx") ?? 0)
        }
    }

    /// Merges the full-text indexes, rewrites the file without its free pages and half-empty
    /// ones, and truncates the log. Writers wait meanwhile (seconds on a large index); readers
    /// go on. A vacuum that cannot run (no room for the copy on a full disk) is logged and left
    /// for the next time; either way the churn counts from zero again, so that a failure is not
    /// retried at every idle moment.
    /// ```swift
    /// let reclaimed = try index.reclaimSpace()
    /// print("\(reclaimed.before - reclaimed.after) bytes given back")
    /// ```
    ///
    /// - Returns: The bytes of the file and its log, before and after.
    /// - Throws: ``SearchlightError`` when the index cannot be read; a vacuum that fails does not throw.
    @discardableResult
    public func reclaimSpace() throws -> ReclaimedSpace {
        let before = try spaceUse()
        let items = try itemCount(domain: nil)
        defer { churn.reset(items: items) }
        try write { db in
            for table in ["item_words", "item_content"] {
                try db.execute(sql: "INSERT INTO \(table)(\(table)) VALUES ('optimize')")
            }
        }
        try databaseErrors("cannot reclaim the index's space") {
            try database.writeWithoutTransaction { db in
                // Deleting half the rows leaves pages half full, which only a vacuum packs again
                // (a churned index measured 1.23 times a fresh one with free pages alone given
                // back by `incremental_vacuum`, which also needs a file in that mode: a pointer
                // map in every file, for no gain once the file is vacuumed).
                do {
                    try db.execute(sql: "VACUUM")
                } catch {
                    logger.warning("cannot vacuum the index now: \(error)")
                }
                try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            }
        }
        let after = try spaceUse()
        logger.debug("reclaimed space", metadata: [
            "before": "\(before.fileBytes + before.walBytes)", "after": "\(after.fileBytes + after.walBytes)",
        ])
        return ReclaimedSpace(before: before.fileBytes + before.walBytes, after: after.fileBytes + after.walBytes)
    }

}

extension SearchableIndex {
    /// `true`: a first scan leaves many full-text segments, which one merge makes one.
    public var reclaimsAfterGrowth: Bool { true }
}

/// What reclaiming space did: the index's bytes before and after.
public struct ReclaimedSpace: Sendable, Equatable {
    /// The index's bytes (file and log) before.
    public var before: Int64
    /// The index's bytes (file and log) after.
    public var after: Int64

    /// Records a reclaim that took the index from `before` to `after` bytes.
    public init(before: Int64, after: Int64) {
        self.before = before
        self.after = after
    }
}

/// The rows written and deleted since an index's space was last reclaimed, and when that is
/// worth doing again: once the rows deleted and rewritten — the rows changed, less the items
/// added — reach half the index's items, and at least ``minimum``. So its cost stays a fraction
/// of the indexing that caused it, and a first scan (rows that only add items) is no churn;
/// ``hasDoubled(items:)`` tells a store that reclaims after growth as well (SQLite's) of one.
public final class IndexChurn: Sendable {
    /// Fewer changed rows than this never warrant a reclaim.
    public static let minimum = 1_000

    /// The counts, behind ``state``'s lock.
    private struct State {
        /// Rows changed (upserts and deletions) since the last reclaim.
        var rows = 0
        /// The index's items at the last reclaim, or when this process first wrote.
        var baseline: Int?
    }

    /// The counts: one churn is shared by every thread that writes through its index.
    private let state = Mutex(State())

    /// Nothing written yet: no rows, and no baseline until ``IndexWriter`` counts the items
    /// before this process first writes.
    public init() {}

    /// Rows changed (upserts and deletions) since the last reclaim.
    public var rows: Int { state.withLock { $0.rows } }

    /// Records the items `count` gives, the first time only (before this process's first write).
    ///
    /// - Parameter count: Counts the index's items; called at most once per churn.
    /// - Throws: What `count` throws; the baseline then stays unset.
    public func countBaseline(_ count: () throws -> Int) rethrows {
        guard state.withLock({ $0.baseline == nil }) else { return }
        let items = try count()
        state.withLock { if $0.baseline == nil { $0.baseline = items } }
    }

    /// Counts a batch's changes: one row per change, whatever it is.
    ///
    /// - Parameter batch: A batch just applied.
    public func note(_ batch: IndexBatch) {
        state.withLock { $0.rows += batch.changes.count }
    }

    /// Whether the index, now holding `items`, has at least doubled since the last reclaim (or
    /// since this process first wrote), by at least ``minimum`` items: a first scan.
    ///
    /// - Parameter items: The index's items now.
    /// - Returns: Whether it grew by as many items as it had, and by ``minimum`` at least.
    public func hasDoubled(items: Int) -> Bool {
        state.withLock { state in
            let grown = items - (state.baseline ?? items)
            return grown >= Self.minimum && grown >= (state.baseline ?? items)
        }
    }

    /// Whether the churn is worth reclaiming space for, the index now holding `items`.
    ///
    /// The rows changed, less the items added since the baseline, must reach ``minimum`` and
    /// half of `items`.
    ///
    /// - Parameter items: The index's items now.
    /// - Returns: Whether space is worth reclaiming now.
    public func isWorthReclaiming(items: Int) -> Bool {
        state.withLock { state in
            let churned = state.rows - max(0, items - (state.baseline ?? items))
            return churned >= Self.minimum && churned >= items / 2
        }
    }

    /// Starts counting again from `items`, after space was reclaimed.
    ///
    /// - Parameter items: The index's items after the reclaim: the new baseline.
    public func reset(items: Int) {
        state.withLock { $0 = State(rows: 0, baseline: items) }
    }
}
