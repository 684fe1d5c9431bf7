import Foundation
import Synchronization

/// Step ① of the write path, the event: what a watcher has read and not yet coalesced.
///
/// Events read from inotify and not yet processed, with when they came; shared by the task
/// that reads and the task that processes.
final class WatchInbox: Sendable {
    private struct State {
        var events: [InotifyEvent] = []
        var firstAt: ContinuousClock.Instant?
        var lastAt: ContinuousClock.Instant?
        var stopRequested = false
        var rescanRequested = false
        var selfCheckRequested: (reason: String, counted: Bool)?
        /// When the last event came (not reset by ``drain()``).
        var lastEventAt: ContinuousClock.Instant?
        /// Events appended since ``markQuiet()``.
        var arrivedSinceMark = false
        /// Why events can no longer be read (see ``fail(_:)``).
        var failure: FileSystemError?
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
            state.arrivedSinceMark = true
            state.lastEventAt = now
            state.lastAt = now
            if state.firstAt == nil { state.firstAt = now }
        }
        continuation.yield()
    }

    /// Events can no longer be read: the watch must end with `error`.
    func fail(_ error: FileSystemError) {
        state.withLock { $0.failure = error }
        continuation.yield()
    }

    /// Why events can no longer be read, if they cannot.
    var failure: FileSystemError? { state.withLock { $0.failure } }

    func requestStop() {
        state.withLock { $0.stopRequested = true }
        continuation.yield()
    }

    func requestRescan() {
        state.withLock { $0.rescanRequested = true }
        continuation.yield()
    }

    /// Asks for a self-check of the root (the reason is logged); it runs once no event has
    /// come for a while. An uncounted check (after one that raced with events) reports its
    /// repairs without counting them.
    func requestSelfCheck(reason: String, counted: Bool = true) {
        state.withLock { state in
            if let pending = state.selfCheckRequested {
                state.selfCheckRequested = (pending.reason, pending.counted || counted)
            } else {
                state.selfCheckRequested = (reason, counted)
            }
        }
        continuation.yield()
    }

    /// The pending self-check, which it takes, if no event waits and none came for `quiet`;
    /// otherwise how long until it may run (`nil` when none is pending).
    func takeSelfCheck(afterQuiet quiet: Duration, now: ContinuousClock.Instant = .now)
        -> (check: (reason: String, counted: Bool)?, wait: Duration?)
    {
        state.withLock { state in
            guard let request = state.selfCheckRequested else { return (nil, nil) }
            guard state.events.isEmpty else { return (nil, quiet) }
            if let last = state.lastEventAt, now - last < quiet { return (nil, quiet - (now - last)) }
            state.selfCheckRequested = nil
            return (request, nil)
        }
    }

    /// Wakes the processing loop (to look again at a pending self-check).
    func poke() { continuation.yield() }

    /// Starts watching for events that come during something (a self-check).
    func markQuiet() { state.withLock { $0.arrivedSinceMark = false } }
    /// Whether events came since ``markQuiet()``.
    var eventsArrivedSinceMark: Bool { state.withLock { $0.arrivedSinceMark } }

    var isStopRequested: Bool { state.withLock { $0.stopRequested } }
    /// Whether a pending event is about an entry named `name` (tests wait for a sentinel's
    /// event: inotify reports in order, so every event before it has come too).
    func holdsEvent(named name: String) -> Bool {
        let bytes = Array(name.utf8)
        return state.withLock { $0.events.contains { $0.name == bytes } }
    }
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
