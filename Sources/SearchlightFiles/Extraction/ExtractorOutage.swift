import Synchronization

/// Whether the worker executable works, and when to try it again when it does not.
///
/// A missing or broken `searchlight-extractor` (deleted by an upgrade in progress, a missing
/// shared library, a build that crashes on every file) says nothing about the files being
/// indexed: while it is out, jobs fail at once as ``ExtractionFailure/Reason-swift.enum/unavailable``
/// (their items are indexed by name and type and extracted later) and the executable is tried
/// again after a back-off that doubles from ``firstRetry`` up to ``longestRetry``. The outage
/// is logged once when it begins and once when it ends, never per file.
final class ExtractorOutage: Sendable {
    static let firstRetry: Duration = .seconds(1)
    static let longestRetry: Duration = .seconds(60)

    private struct State {
        var reason: String
        var retryAt: ContinuousClock.Instant
        var backoff = Backoff(first: ExtractorOutage.firstRetry, longest: ExtractorOutage.longestRetry)
    }

    private let state = Mutex<State?>(nil)

    /// Why the workers are out, or nil while they work.
    var reason: String? { state.withLock { $0?.reason } }

    /// Whether a job may try a worker now: no outage, or its back-off has passed.
    var mayTry: Bool {
        state.withLock { state in
            guard let outage = state else { return true }
            return ContinuousClock.now >= outage.retryAt
        }
    }

    /// Records a failure of the executable itself. Returns true when this begins an outage
    /// (the caller logs it); a failed retry only lengthens the back-off.
    func fail(_ reason: String) -> Bool {
        state.withLock { state in
            let begins = state == nil
            var outage = state ?? State(reason: reason, retryAt: .now)
            outage.reason = reason
            outage.retryAt = .now + outage.backoff.next()
            state = outage
            return begins
        }
    }

    /// Records a job the executable answered. Returns the reason of the outage it ends, if
    /// there was one (the caller logs that the workers are back).
    func succeed() -> String? {
        state.withLock { state in
            defer { state = nil }
            return state?.reason
        }
    }
}
