import Foundation
import Synchronization

/// Events read from inotify and not yet processed, with when they came; shared by the task
/// that reads and the task that processes.
final class WatchInbox: Sendable {
    private struct State {
        var events: [InotifyEvent] = []
        var firstAt: ContinuousClock.Instant?
        var lastAt: ContinuousClock.Instant?
        var stopRequested = false
        var rescanRequested = false
    }

    private let state = Mutex(State())
    private let continuation: AsyncStream<Void>.Continuation
    /// A tick each time something arrives; ticks coalesce.
    let wakeups: AsyncStream<Void>

    init() {
        (wakeups, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func append(_ events: [InotifyEvent]) {
        let now = ContinuousClock.now
        state.withLock { state in
            state.events += events
            state.lastAt = now
            if state.firstAt == nil { state.firstAt = now }
        }
        continuation.yield()
    }

    func requestStop() {
        state.withLock { $0.stopRequested = true }
        continuation.yield()
    }

    func requestRescan() {
        state.withLock { $0.rescanRequested = true }
        continuation.yield()
    }

    var isStopRequested: Bool { state.withLock { $0.stopRequested } }
    var pendingCount: Int { state.withLock { $0.events.count } }

    /// How long since the last event and since the first pending one.
    func ages(now: ContinuousClock.Instant = .now) -> (quiet: Duration, pending: Duration)? {
        state.withLock { state in
            guard let first = state.firstAt, let last = state.lastAt else { return nil }
            return (now - last, now - first)
        }
    }

    /// Whether a pending event came before `instant`.
    func hasEvents(before instant: ContinuousClock.Instant) -> Bool {
        state.withLock { state in state.firstAt.map { $0 < instant } ?? false }
    }

    /// Takes every pending event, and whether a rescan was asked for.
    func drain() -> (events: [InotifyEvent], rescan: Bool) {
        state.withLock { state in
            defer {
                state.events = []
                state.firstAt = nil
                state.lastAt = nil
                state.rescanRequested = false
            }
            return (state.events, state.rescanRequested)
        }
    }
}
