import Foundation
import GRDB
import Logging
import Synchronization

/// Tells subscribers when any process commits a change to the index, for `/api/events`.
///
/// One connection of its own asks SQLite's `PRAGMA data_version` every `interval`: the number
/// changes when another connection (a `scan`, a `watch`, this process's watcher) has committed.
/// Checking costs a few microseconds and reads no table; when nobody listens it is not asked.
final class IndexChanges: Sendable {
    /// What a subscriber receives.
    enum Event: Sendable, Equatable {
        /// The index changed: the number of changes seen since the server started.
        case changed(Int)
        /// Nothing changed for a while: a stream writes something so that a closed connection is noticed.
        case heartbeat
    }

    private struct State {
        var version = 0
        var subscribers: [Int: AsyncStream<Event>.Continuation] = [:]
        var nextID = 0
        var isFinished = false
    }

    let interval: Duration
    private let database: DatabaseQueue
    private let state = Mutex(State())
    private let logger: Logger

    /// How often a subscriber gets a heartbeat when nothing changes.
    let heartbeatInterval: Duration

    init(path: String, interval: Duration, heartbeatInterval: Duration = .seconds(15), logger: Logger) throws {
        self.heartbeatInterval = heartbeatInterval
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "searchlight.events"
        database = try DatabaseQueue(path: path, configuration: configuration)
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
        var last: Int?
        let clock = ContinuousClock()
        var lastBeat = clock.now
        while !Task.isCancelled, !state.withLock({ $0.isFinished }) {
            if state.withLock({ !$0.subscribers.isEmpty }) || last == nil {
                do {
                    let version = try await database.read { try Int.fetchOne($0, sql: "PRAGMA data_version") }
                    if let last, version != last {
                        publishChange()
                        lastBeat = clock.now
                    }
                    last = version
                } catch {
                    logger.warning("cannot check the index for changes: \(error)")
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

    private func send(_ event: Event) {
        for continuation in state.withLock({ Array($0.subscribers.values) }) { continuation.yield(event) }
    }
}
