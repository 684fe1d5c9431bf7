import Foundation
import Logging
import Searchlight
import Synchronization

/// Tells subscribers when any process commits a change to the index, for `/api/events`.
///
/// The index's change marker is asked every `interval` (``Searchlight/IndexReader/changeMarker()``: SQLite's
/// `PRAGMA data_version` on a connection of its own, the PostgreSQL index's batch counts): it
/// changes when any writer (a `scan`, a `watch`, this process's watcher) has committed.
/// Checking reads no item; when nobody listens it is not asked.
final class IndexChanges: Sendable {
    /// What a subscriber receives.
    enum Event: Sendable, Equatable {
        /// The index changed: the number of changes seen since the server started.
        case changed(Int)
        /// Nothing changed for a while: a stream writes something so that a closed connection is noticed.
        case heartbeat
    }

    /// What the lock guards: the count of changes and who listens.
    private struct State {
        /// The changes seen since the server started.
        var version = 0
        /// Each subscriber's stream, by its number.
        var subscribers: [Int: AsyncStream<Event>.Continuation] = [:]
        /// The last number given to a subscriber.
        var nextID = 0
        /// Set by ``finish()``: later subscriptions end at once.
        var isFinished = false
    }

    /// How often the marker is asked while someone listens.
    let interval: Duration
    /// Asks the index's change marker (``Searchlight/IndexReader/changeMarker()``).
    private let marker: @Sendable () async throws -> [Int64]
    /// The count and the subscribers, shared by ``run()`` and the requests that subscribe.
    private let state = Mutex(State())
    /// Where a marker that cannot be read is reported, once until it can again.
    private let logger: Logger

    /// How often a subscriber gets a heartbeat when nothing changes.
    let heartbeatInterval: Duration

    /// Follows the changes `marker` tells of, every `interval`; nothing is asked until ``run()``.
    init(marker: @escaping @Sendable () async throws -> [Int64], interval: Duration,
         heartbeatInterval: Duration = .seconds(15), logger: Logger) {
        self.heartbeatInterval = heartbeatInterval
        self.marker = marker
        self.interval = interval
        self.logger = logger
    }

    /// The number of changes seen so far, then one element per change (and heartbeats), until ``finish()``.
    func subscribe() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(1))
        let id: Int? = state.withLock { state in
            guard !state.isFinished else { return nil }
            state.nextID += 1
            state.subscribers[state.nextID] = continuation
            continuation.yield(.changed(state.version))
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Polls until the task is cancelled or ``finish()`` is called.
    func run() async {
        var last: [Int64]?
        let clock = ContinuousClock()
        var lastBeat = clock.now
        // Logged when it starts failing (a database that went away), not at every poll.
        var failing = false
        while !Task.isCancelled, !state.withLock({ $0.isFinished }) {
            if state.withLock({ !$0.subscribers.isEmpty }) || last == nil {
                do {
                    let version = try await marker()
                    if let last, version != last {
                        publishChange()
                        lastBeat = clock.now
                    }
                    last = version
                    if failing {
                        logger.notice("the index's changes are followed again")
                        failing = false
                    }
                } catch {
                    if !failing { logger.warning("cannot check the index for changes: \(error)") }
                    failing = true
                }
            }
            if clock.now - lastBeat >= heartbeatInterval {
                send(.heartbeat)
                lastBeat = clock.now
            }
            try? await Task.sleep(for: interval)
        }
    }

    /// Ends every subscription (the server is shutting down).
    func finish() {
        let subscribers = state.withLock { state in
            state.isFinished = true
            defer { state.subscribers = [:] }
            return state.subscribers
        }
        for continuation in subscribers.values { continuation.finish() }
    }

    /// Counts a change and tells every subscriber.
    private func publishChange() {
        send(state.withLock { state in
            state.version += 1
            return .changed(state.version)
        })
    }

    /// Hands `event` to every subscriber; each keeps only its newest unread event.
    private func send(_ event: Event) {
        for continuation in state.withLock({ Array($0.subscribers.values) }) { continuation.yield(event) }
    }
}
