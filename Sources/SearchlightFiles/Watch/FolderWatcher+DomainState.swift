import Foundation
import Searchlight
import SystemCalls

// The watch's record in the index: its last scan and its health (for `status`), kept in the
// domain's state.
extension FolderWatcher {
    /// Stores the first reconcile's counts as the domain's last scan (`status` shows them,
    /// and the next scan's progress bar takes them as its estimate).
    func saveLastScan(_ summary: ScanSummary) {
        updateState { $0.lastScan = summary }
    }

    /// Records the watch's health now (after a pause, a resume or a change of backoff, which
    /// `status` shows).
    public func recordHealth() { writeHealth(running: true) }

    /// How the watch is doing now.
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
    func writeHealth(running: Bool) {
        let health = health(running: running)
        updateState { $0.watch = health }
    }

    /// The domain's state as stored, changed by `change`.
    func domainState(_ change: (inout DomainState) -> Void) -> DomainState {
        var domainState = (try? index.domainState(options.scan.domain)) ?? nil ?? DomainState(root: root.path)
        domainState.root = root.path
        change(&domainState)
        return domainState
    }

    /// Changes the domain's stored state (``domainState(_:)``) and writes it back. A failure
    /// is logged, never thrown: the health is a report, and a watch does not end because it
    /// could not be written (a damaged or unavailable index is the recovery's to handle).
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
