import Foundation
import Logging
import Searchlight
import Synchronization

// The self-check: a reconcile that should change nothing, and what it repairs.
extension FolderWatcher {
    /// How long the disk must be quiet before a self-check runs.
    ///
    /// Five settle intervals, and at least half a second: long enough that the editors' several
    /// steps of a save are done before the walk looks.
    var selfCheckQuiet: Duration { max(options.settleInterval * 5, .milliseconds(500)) }

    /// Reconciles the root, which should change nothing: every item it adds, updates or
    /// removes is a repair, logged as a warning with its path and counted for `status`.
    ///
    /// Not when events came while it ran: the walk saw the disk ahead of them, and applying
    /// them afterwards replays moves and deletes on an index that is already past them. Its
    /// repairs then prove nothing, and it runs again, uncounted, once the disk is quiet, to
    /// repair what the replay undid. The same holds after an overflow (whose repairs are
    /// expected: events were lost; they are counted).
    ///
    /// Blocks for as long as a reconcile of the whole root takes (every folder listed, every
    /// file's status read; only changed files are read again). Items whose change time alone
    /// moved are not repairs: they are logged at debug level.
    ///
    /// - Parameters:
    ///   - reason: Why it runs (`periodic`, `asked`, after an overflow…), for the log.
    ///   - counted: Whether its repairs count in ``selfCheckRepairs`` and ``recentRepairs``.
    ///   - afterOverflow: The kernel dropped events: the repairs are expected, and counted even
    ///     when the disk changed meanwhile.
    /// - Returns: What the reconcile did.
    /// - Throws: The reconcile's errors: the root gone, the index that cannot be written.
    @discardableResult
    func selfCheck(reason: String, counted: Bool = true, afterOverflow: Bool = false) throws -> ScanSummary {
        inbox.markQuiet()
        let mark = inotify.markActivity()
        let report = try reconcileWatched(recording: .changes)
        // A stale change time alone hid nothing from a search: not a repair.
        let repairs = report.changes.filter { $0.change != .restamped }
            .map { SelfCheckRepair(change: $0.change, identifier: $0.identifier) }
        let restamped = report.changes.count - repairs.count
        if restamped > 0 {
            logger.debug("self-check (\(reason)): \(restamped) items' change times moved with nothing else (a hard link made and removed between two looks, a permission)")
        }
        // A change made while the walk ran has its event queued by now, or read: no need to
        // wait for the reading task to hand it on (it may not run soon on a busy machine).
        let raced = inotify.hasActivity(since: mark) || inbox.eventsArrivedSinceMark
        if raced { inbox.requestSelfCheck(reason: "again: the disk changed during the last one", counted: false) }
        // Items whose extraction was deferred are refreshed by any check: not repairs.
        let concurrent = !afterOverflow && (raced || !counted || deferral.isPending)
        if repairs.isEmpty {
            logger.debug("self-check (\(reason)): the index matches \(root.path)")
        } else if concurrent {
            logger.info("""
                self-check (\(reason)): \(repairs.count) items changed while it ran (not counted): \
                \(repairs.prefix(20).map(\.description).joined(separator: ", "))
                """)
        } else {
            logger.warning("""
                self-check (\(reason)) repaired \(repairs.count) items in \(root.path): \
                \(repairs.prefix(50).map(\.description).joined(separator: ", "))\(repairs.count > 50 ? ", …" : "")
                """)
        }
        // Counted after the log: whoever sees the count (`status`, ``checkNow(timeout:)``) finds
        // the warning that names the repairs written already.
        state.withLock { state in
            state.lastSelfCheck = Date()
            if !concurrent {
                state.selfCheckRepairs += repairs.count
                state.repaired = Array((state.repaired + repairs).suffix(Self.repairsKept))
            }
        }
        writeHealth(running: true)
        return report.summary
    }

    /// How many of the latest repairs ``recentRepairs`` keeps.
    ///
    /// Older repairs are dropped, oldest first, as each check appends its own; the running count
    /// of repairs is kept apart (`selfCheckRepairs`), whole.
    static var repairsKept: Int { 100 }

    /// Asks for a self-check (as the periodic timer does) and returns once one has run, or
    /// after `timeout`; whether one ran.
    ///
    /// Polls every 10 milliseconds; for tests and diagnosis, not for a hot path. A check asked
    /// for runs only once the disk has been quiet for ``selfCheckQuiet``.
    ///
    /// - Parameter timeout: How long to wait at most.
    /// - Returns: Whether a self-check ended after this call began.
    func checkNow(timeout: Duration = .seconds(60)) async -> Bool {
        let before = state.withLock { $0.lastSelfCheck }
        inbox.requestSelfCheck(reason: "asked")
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if state.withLock({ $0.lastSelfCheck != before }) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }
}

/// An item a self-check found different from the disk, and what it did to it.
///
/// A repair means that the watch missed a change (or that the change was made in a way
/// inotify cannot see). The latest ones are in ``FolderWatcher/recentRepairs`` and each is
/// logged as a warning.
public struct SelfCheckRepair: Sendable, Equatable, CustomStringConvertible {
    /// What the repair did: the item was missing, stale, or should not have been there.
    ///
    /// `added` when the index lacked the item, `updated` when it was stale, `removed` when its file
    /// was gone, `restamped` when only its change stamp had fallen behind.
    public let change: ScanChange
    /// The repaired item's path relative to the root.
    ///
    /// Its bytes are the path's, which need not be UTF-8; ``description`` shows them lossily.
    public let identifier: ItemIdentifier

    /// The change and the quoted path, as the log shows them: `added "notes/todo.md"`.
    public var description: String { "\(change.rawValue) \(identifier.lossyString.debugDescription)" }
}
