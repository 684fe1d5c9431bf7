import Foundation
import Searchlight
import SystemCalls

// The watch's record in the index: its last scan and its health (for `status`), kept in the
// domain's state.
extension FolderWatcher {
    /// Stores the first reconcile's counts as the domain's last scan (`status` shows them,
    /// and the next scan's progress bar takes them as its estimate).
    ///
    /// Not saved while the root is offline: there was no scan to count.
    func saveLastScan(_ summary: ScanSummary) {
        updateState { $0.lastScan = summary }
    }

    /// Records the watch's health now (after a pause, a resume or a change of backoff, which
    /// `status` shows).
    ///
    /// The watcher writes its health by itself at each window, start, stop and fault; call this
    /// when something outside it changed what ``WatchHealth`` shows (the ``Options/control``
    /// paused or backed off). Blocks for one read and one write of the domain's state in the
    /// index; a failure is logged, not thrown.
    public func recordHealth() { writeHealth(running: true) }

    /// How the watch is doing now.
    ///
    /// A snapshot taken under the watch state's lock: watches, degraded folders, overflows,
    /// pending events, repairs and the control's pause and backoff.
    ///
    /// - Parameter running: Whether the watch runs (false in the record written as it ends).
    func health(running: Bool) -> WatchHealth {
        state.withLock { state in
            WatchHealth(pid: SystemCall.processID, running: running, updated: Date(), watchesUsed: state.table.count,
                        watchLimit: watchLimit, degradedSubtrees: state.degraded.sorted().map(\.lossyString),
                        overflows: state.overflows, pendingChanges: inbox.pendingCount,
                        selfCheckRepairs: state.selfCheckRepairs, lastSelfCheck: state.lastSelfCheck,
                        paused: options.control?.isPaused ?? false, backoff: options.control?.backoffReason)
        }
    }

    /// Writes how the watch is doing into the index, for `status`.
    ///
    /// Blocks for one read and one write of the domain's state (``updateState(_:)``); a failure
    /// is logged, never thrown.
    func writeHealth(running: Bool) {
        let health = health(running: running)
        updateState { $0.watch = health }
    }

    /// The domain's state as stored, changed by `change`.
    ///
    /// A domain that has no state yet, or whose state cannot be read, starts from a new state
    /// for the root; the root's current path is always written in, so a relocated root is
    /// recorded where it is now.
    func domainState(_ change: (inout DomainState) -> Void) -> DomainState {
        var domainState = (try? index.domainState(options.scan.domain)) ?? nil ?? DomainState(root: root.path)
        domainState.root = root.path
        change(&domainState)
        return domainState
    }

    /// Changes the domain's stored state (``domainState(_:)``) and writes it back. A failure
    /// is logged, never thrown: the health is a report, and a watch does not end because it
    /// could not be written (a damaged or unavailable index is the recovery's to handle).
    ///
    /// A read, then a write, not one transaction: a write of the same domain's state by another
    /// handle between the two is overwritten. The domain's ``WatchLock`` keeps a second watch
    /// of the domain out, not every other writer of its state.
    func updateState(_ change: (inout DomainState) -> Void) {
        do {
            try index.setState(domainState(change), domain: options.scan.domain)
        } catch where error.isIndexDamage || error.isIndexUnavailable {
            // Said once by the recovery that handles it (the next window or check): a health
            // note that meets it first (a backoff starting, say) must not say it again.
            logger.debug("cannot record the watch's state: \(error)")
        } catch {
            logger.warning("cannot record the watch's state: \(error)")
        }
    }
}
