import Foundation
import Logging
import Searchlight
import Synchronization
import SystemCalls

/// A fault of the index that a watch waits out (Docs/Contract.md#when-things-break): a full disk, a read-only or
/// removed index folder, a database away. Written to a small file beside the watch's lock
/// (the index itself cannot take it), read by `status`.
///
/// The watcher writes it when a fault begins and at each failed attempt, and removes it when
/// the index can be written again or the watch ends; a file left by a watch that died is
/// ignored by ``current(index:domain:)``. Dates are encoded as `JSONEncoder`'s default
/// (seconds since 2001), so the file is meant for this library, not for other programs.
///
/// ```swift
/// if let fault = WatchFault.current(index: indexPath, domain: "notes") {
///     print("\(fault.summary) since \(fault.since), attempt \(fault.attempts)")
/// }
/// ```
public struct WatchFault: Codable, Sendable, Equatable {
    /// The watching process.
    ///
    /// ``current(index:domain:)`` ignores the fault once no process has this id, so a file left by a
    /// watch that was killed is not shown as a fault in progress.
    public var pid: Int32
    /// `disk full`, `index read-only`, `index unavailable` (``SearchlightError/faultSummary``).
    ///
    /// Updated at each attempt, so it names the latest kind of fault when one kind gave way to
    /// another (a full disk, then a removed folder).
    public var summary: String
    /// The error, as one line.
    ///
    /// The latest attempt's error, as `SearchlightError` prints it: its message, the path, then the
    /// underlying SQLite or system error.
    public var detail: String
    /// When the fault began.
    ///
    /// Set by the first failed attempt and kept while the fault lasts, whatever its kind becomes.
    public var since: Date
    /// Attempts so far.
    ///
    /// Counts the failed attempts, the one that began the fault included.
    public var attempts: Int
    /// When the next attempt is due.
    ///
    /// The waits double from one second up to a minute between attempts; a date in the past means an
    /// attempt is due or running.
    public var nextAttempt: Date

    /// Where a watch of `domain` records its fault: beside the locks of remote indexes
    /// (`$XDG_RUNTIME_DIR/searchlight`, else `/tmp/searchlight-UID`), not beside the index,
    /// whose folder may be the one that is full or read-only.
    ///
    /// The name holds FNV-1a hashes of the index path and of the domain, so every watch of
    /// every index has its own file, and neither the path nor the domain need be a valid file
    /// name.
    ///
    /// - Parameters:
    ///   - indexPath: The index's path, or its URL.
    ///   - domain: The watched domain.
    /// - Returns: The file's absolute path; the file may not exist.
    public static func path(index indexPath: String, domain: String) -> String {
        WatchLock.remoteLockFolder + "/fault-\(String(WatchLock.fnv1a(indexPath), radix: 16))"
            + "-\(String(WatchLock.fnv1a(domain), radix: 16)).json"
    }

    /// The fault a running watch of `domain` records now, if any.
    ///
    /// A recorded fault counts only while the domain's ``WatchLock`` is held and the process that
    /// wrote it still exists, so a file left behind by a watch that was killed is not shown.
    /// Reads one small file and takes no lock; safe from any thread.
    ///
    /// - Parameters:
    ///   - indexPath: The index's path, or its URL.
    ///   - domain: The watched domain.
    /// - Returns: The fault, or `nil` when no watch runs, none is waiting out a fault, or the
    ///   file cannot be read.
    public static func current(index indexPath: String, domain: String) -> WatchFault? {
        guard WatchLock.isHeld(index: indexPath, domain: domain),
              let data = FileManager.default.contents(atPath: path(index: indexPath, domain: domain)),
              let fault = try? JSONDecoder().decode(WatchFault.self, from: data),
              SystemCall.processExists(fault.pid) else { return nil }
        return fault
    }
}

/// Where the watcher stands with the index's faults.
///
/// Kept behind ``FolderWatcher``'s `recovery` mutex: the loop of windows, the timers and
/// the blocking work on dispatch threads all read and change it.
struct RecoveryState: Sendable {
    /// The fault in progress.
    ///
    /// `nil` while the index can be written. Set by ``FolderWatcher/fail(with:)`` and cleared by
    /// ``FolderWatcher/recovered()``; it is the value written to the fault's file for `status`.
    var fault: WatchFault?
    /// The root must be reconciled: a window's changes were not written.
    ///
    /// Set by a failed write, a reopened index and a reset index (this watcher's or another's);
    /// cleared by ``FolderWatcher/reconciled()`` once a window's reconcile is committed, not when a
    /// fault ends, so that a reconcile interrupted by a second fault is made again.
    var needsReconcile = false
    /// The next attempt while a fault lasts.
    ///
    /// `nil` when no fault lasts; ``FolderWatcher/retryWait(now:)`` measures the wait from it.
    var retryAt: ContinuousClock.Instant?
    /// The wait before the next attempt after this one fails.
    ///
    /// Reset when a fault begins and when it ends, so that every fault starts at
    /// ``FolderWatcher/firstRetryDelay``.
    var backoff = Backoff(first: FolderWatcher.firstRetryDelay, longest: FolderWatcher.longestRetryDelay)
    /// The index handle's resets seen (``SearchableIndex/resetCount``): another watcher of the
    /// same index may have reset it.
    ///
    /// Compared by ``FolderWatcher/needsReconcile`` with the handle's count at each window: a
    /// difference marks the root for a reconcile.
    var resetsSeen = 0
    /// The index's file is gone: open its path again before the next attempt.
    ///
    /// Set by ``FolderWatcher/fail(with:)`` when the error says the file is gone or no file exists at
    /// the index's path; cleared by ``FolderWatcher/recovering(_:)`` once the file is open again. While
    /// it is set, a replaced file is not reported as a new fault.
    var reopen = false
    /// The watch's lock taken again beside a recreated index (the first went with the folder).
    ///
    /// Kept here so that it lives as long as the watcher; the watch's first lock still ends
    /// the watch's run.
    var lockAgain: WatchLock?
    /// An integrity check is due (``FolderWatcher/Options/integrityCheckInterval``).
    ///
    /// Set by ``FolderWatcher/scheduleIntegrityChecks(every:)``, cleared when
    /// ``FolderWatcher/checkIntegrityIfDue()`` starts the check.
    var integrityCheckDue = false
}

// A window whose write fails because of the index's storage loses nothing: the root is marked
// for a reconcile, which compares the disk with the index and converges, retried with backoff
// until the fault ends. Damage found meanwhile (a corrupt page, a failed integrity check) resets
// the index and reconciles the root into it. Any other error still ends the watch.
extension FolderWatcher {
    /// How long the first retry of a window after a fault of the index waits.
    ///
    /// Each failed attempt doubles the wait (``Backoff``), up to ``longestRetryDelay``.
    static let firstRetryDelay: Duration = .seconds(1)
    /// The longest wait between retries, which back off from ``firstRetryDelay`` up to it.
    ///
    /// Also the interval the first log line of a fault announces.
    static let longestRetryDelay: Duration = .seconds(60)

    /// How long until the next attempt, while a fault lasts and it is not due yet.
    ///
    /// While it returns a duration, the loop of windows processes nothing: events wait in the
    /// inbox, and ``fail(with:)`` has scheduled a wake-up for when the attempt is due.
    ///
    /// - Parameter now: The current instant (given by tests).
    /// - Returns: The time left, or `nil` when no fault lasts or its next attempt is due.
    func retryWait(now: ContinuousClock.Instant = .now) -> Duration? {
        recovery.withLock { state in
            guard let at = state.retryAt, at > now else { return nil }
            return at - now
        }
    }

    /// Whether the next window must reconcile the whole root (a failed write, a reset index).
    /// An index file that was removed under the watch (SQLite would go on writing into the
    /// removed file) is a fault: it is created again at the next attempt.
    ///
    /// Not a plain read: a replaced SQLite file starts a fault (``fail(with:)``), and a reset
    /// made by another handle of the index (its ``Searchlight/SearchableIndex/resetCount``
    /// moved) marks the root for a reconcile.
    var needsReconcile: Bool {
        if let sqlite = index as? SearchableIndex, !recovery.withLock({ $0.reopen }), sqlite.isFileReplaced {
            fail(with: SearchlightError(.indexUnavailable, "the index file was removed or replaced", path: sqlite.path,
                                        cause: .system(.noSuchFileOrDirectory)))
        }
        let resets = (index as? SearchableIndex)?.resetCount ?? 0
        return recovery.withLock { state in
            if resets != state.resetsSeen {
                // Another watcher of this index reset it: this root's items are gone too.
                state.resetsSeen = resets
                state.needsReconcile = true
            }
            return state.needsReconcile
        }
    }

    /// Runs window work on a thread of its own (``blocking(_:)``). An error of the index's
    /// storage is waited out, damage is reset; either way the root is reconciled next.
    ///
    /// When a fault left the index file gone, the file is opened again first (and the watch's
    /// lock taken again beside it). Then `body` runs; on success, a fault in progress ends
    /// (``recovered()``).
    ///
    /// - Parameter body: The window's blocking work: a window, a self-check, a catch-up.
    /// - Throws: Any error of `body` other than damage and unavailability of the index, which
    ///   are handled here; those end the watch.
    func recovering(_ body: @escaping @Sendable () throws -> Void) async throws {
        let reopen = recovery.withLock { $0.reopen } ? index as? SearchableIndex : nil
        do {
            try await Self.blocking {
                if let reopen {
                    try reopen.reopen()
                    // `status` and a second watch ask the lock beside the index.
                    let lock = try? WatchLock(index: reopen.path, domain: self.options.scan.domain)
                    self.recovery.withLock { state in
                        if let lock { state.lockAgain = lock }
                        state.reopen = false
                        state.resetsSeen = reopen.resetCount
                        state.needsReconcile = true
                    }
                }
                try body()
            }
        } catch where error.isIndexDamage {
            try await resetDamagedIndex(error)
            return
        } catch where error.isIndexUnavailable {
            fail(with: error as! SearchlightError)
            return
        }
        // It writes the health when a fault ended: off the cooperative pool.
        _ = try? await Self.blocking { self.recovered() }
    }

    /// A fault began or goes on: logged once, recorded for `status`, retried later.
    ///
    /// Each call doubles the wait before the next attempt (from ``firstRetryDelay`` up to
    /// ``longestRetryDelay``), marks the root for a reconcile, and notes that the index must be
    /// opened again when its file is gone. The log says the fault once when it begins, once more
    /// when its kind changes, and at debug level at each other attempt.
    ///
    /// - Parameter error: The error of the index; its ``Searchlight/SearchlightError/faultSummary``
    ///   is what `status` shows.
    func fail(with error: SearchlightError) {
        let now = Date()
        let (fault, isNew, changed) = recovery.withLock { state in
            let isNew = state.fault == nil
            let changed = state.fault.map { $0.summary != error.faultSummary } ?? false
            if isNew { state.backoff.reset() }
            let delay = state.backoff.next()
            state.needsReconcile = true
            state.retryAt = .now + delay
            if error.isFileGone || !FileManager.default.fileExists(atPath: index.path) { state.reopen = true }
            var fault = state.fault ?? WatchFault(pid: SystemCall.processID, summary: error.faultSummary, detail: "\(error)",
                                                   since: now, attempts: 0, nextAttempt: now)
            fault.summary = error.faultSummary
            fault.detail = "\(error)"
            fault.attempts += 1
            fault.nextAttempt = now.addingTimeInterval(delay.seconds)
            state.fault = fault
            return (fault, isNew, changed)
        }
        if isNew {
            logger.error("""
                \(error); changes in \(root.path) are kept and written \
                once it can be written again (retrying with backoff, up to every \(Self.longestRetryDelay))
                """)
        } else if changed {
            // Logged once per kind of fault, not per attempt.
            logger.warning("the index still cannot be written, now: \(error) (retrying)")
        } else {
            logger.debug("the index still cannot be written (attempt \(fault.attempts)): \(error)")
        }
        recordFault(fault)
        // Woken for the next attempt even when no event comes.
        Task { [inbox] in
            try? await Task.sleep(for: fault.nextAttempt.timeIntervalSinceNow > 0
                                  ? .milliseconds(Int(fault.nextAttempt.timeIntervalSinceNow * 1000) + 1) : .zero)
            inbox.poke()
        }
    }

    /// Work went through: a fault in progress is over, and a reconcile pending is done.
    ///
    /// Cheap when no fault was in progress: one lock, nothing written. Otherwise it logs how
    /// long the fault lasted, removes the fault's file and writes the health as running.
    func recovered() {
        let ended = recovery.withLock { state in
            defer {
                state.fault = nil
                state.retryAt = nil
                state.backoff.reset()
            }
            return state.fault
        }
        guard let ended else { return }
        logger.notice("""
            the index can be written again (\(ended.summary) since \(ended.since.formatted(.iso8601)), \
            \(ended.attempts) attempts); \(root.path) is reconciled
            """)
        recordFault(nil)
        writeHealth(running: true)
    }

    /// The window that reconciled the root went through.
    ///
    /// Called by the window's work once its reconcile is committed, so a later fault marks the
    /// root again.
    func reconciled() { recovery.withLock { $0.needsReconcile = false } }

    /// Resets the damaged index in place and reconciles the root into it; a store that cannot
    /// be reset (not a SQLite file) ends the watch with the error.
    ///
    /// The reset runs on a dispatch thread and empties the index, every domain's items with
    /// it (other watchers of the same index see the new ``Searchlight/SearchableIndex/resetCount``
    /// and reconcile their roots too). A reset that fails because the index cannot be written
    /// becomes a fault, retried later.
    ///
    /// - Parameter error: The damage found; its reason is recorded with the reset.
    /// - Throws: `error` itself when the index is not a SQLite file (the PostgreSQL store cannot
    ///   be reset by a watch), or the reset's error when it is neither damage nor unavailability.
    func resetDamagedIndex(_ error: any Error) async throws {
        guard let sqlite = index as? SearchableIndex else { throw error }
        do {
            try await Self.blocking { _ = try sqlite.reset(reason: (error as? SearchlightError)?.damageReason ?? "\(error)") }
        } catch where error.isIndexUnavailable {
            fail(with: error as! SearchlightError)
            return
        }
        recovery.withLock { state in
            state.resetsSeen = sqlite.resetCount
            state.needsReconcile = true
        }
        logger.notice("the index \(index.path) was damaged: \(root.path) is reconciled into the empty index")
        // Now, not at the next event.
        inbox.poke()
    }

    /// Writes the fault for `status`, or removes it (`nil`). Best effort: `status` shows less.
    ///
    /// The file is replaced whole (written beside it, then renamed), so `status` never reads
    /// half of one.
    func recordFault(_ fault: WatchFault?) {
        let path = WatchFault.path(index: index.path, domain: options.scan.domain)
        guard let fault else {
            try? SystemCall.unlink(path.utf8)
            return
        }
        try? SystemCall.makeDirectory(WatchLock.remoteLockFolder)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .deferredToDate
        if let data = try? encoder.encode(fault) {
            try? SystemCall.replaceFile(path, with: data)
        }
    }

    /// Asks for an integrity check at the next quiet moment, every `interval`.
    ///
    /// Runs as a child task of the watch until it is cancelled; it only sets a flag and wakes
    /// the loop, which runs the check itself (``checkIntegrityIfDue()``).
    func scheduleIntegrityChecks(every interval: Duration) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            if Task.isCancelled { return }
            recovery.withLock { $0.integrityCheckDue = true }
            inbox.poke()
        }
    }

    /// Runs a due integrity check (SQLite's `quick_check`, which reads the whole file) when no
    /// event waits: damage that no read met yet resets the index and reconciles the root.
    ///
    /// Skipped while a fault lasts or events wait, and for the PostgreSQL store (the server
    /// looks after its own pages). The check runs on a dispatch thread through ``recovering(_:)``.
    ///
    /// - Throws: What ``recovering(_:)`` throws.
    func checkIntegrityIfDue() async throws {
        guard let sqlite = index as? SearchableIndex, inbox.pendingCount == 0,
              recovery.withLock({ $0.integrityCheckDue && $0.fault == nil }) else { return }
        recovery.withLock { $0.integrityCheckDue = false }
        try await recovering {
            try sqlite.checkIntegrity()
            self.logger.debug("integrity check: \(sqlite.path) is sound")
        }
    }

    /// Gives back the space deletions and rewrites left in the index, once they are worth it
    /// (``Searchlight/IndexWriter/reclaimSpaceIfChurned()``), when no event waits: the index stays the size of what
    /// it holds, whatever the churn.
    ///
    /// Skipped while a fault lasts, while events wait, and until ``Searchlight/IndexChurn/minimum``
    /// rows have churned. It runs on the caller's thread: the loop of windows calls it from its
    /// task, not through ``blocking(_:)``.
    func reclaimSpaceIfChurned() {
        guard inbox.pendingCount == 0, recovery.withLock({ $0.fault == nil }), index.churnedRows >= IndexChurn.minimum else { return }
        // Only space is at stake: a failure is logged, never a fault of the watch.
        do {
            if let reclaimed = try index.reclaimSpaceIfChurned() {
                logger.debug("reclaimed index space", metadata: [
                    "before": "\(reclaimed.before)", "after": "\(reclaimed.after)",
                ])
            }
        } catch {
            logger.warning("cannot reclaim the index's space: \(error)")
        }
    }
}
