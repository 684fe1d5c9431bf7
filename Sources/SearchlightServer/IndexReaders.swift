import Logging
import NIOCore
import NIOPosix
import Searchlight
import SearchlightFiles
import Synchronization

/// A few read-only handles on the index, each lent to one request at a time, and the deadline
/// of every read.
///
/// SQLite runs one statement at a time per connection: with several handles, concurrent
/// searches run side by side (readers never wait for the watcher's writes in WAL mode). A read
/// that outlives the deadline is interrupted (`sqlite3_interrupt`) and answered with 503;
/// because a handle serves one request at a time, the interrupt stops only that request.
/// A PostgreSQL index is one handle lent to every request at once (it has connections of its
/// own), whose statements the server stops at the same deadline (`statement_timeout`).
/// Reads run on NIO's thread pool, not on the cooperative pool: the stores block.
final class IndexReaders: Sendable {
    /// Opens a read-only handle on the index.
    typealias Opener = @Sendable () throws -> any FileIndexStore

    private struct State {
        var idle: [any FileIndexStore]
        var waiting: [CheckedContinuation<any FileIndexStore, Never>] = []
    }

    let deadline: Duration
    private let open: Opener
    private let logger: Logger
    private let state: Mutex<State>

    /// Opens `count` read-only handles with `open` (which may return the same handle each time,
    /// when it serves concurrent reads itself).
    /// - Throws: What `open` throws (``SearchlightError`` when there is no index).
    init(count: Int, deadline: Duration, logger: Logger, open: @escaping Opener) throws {
        self.deadline = deadline
        self.open = open
        self.logger = logger
        let handles = try (0..<max(count, 1)).map { _ in try open() }
        state = Mutex(State(idle: handles))
    }

    /// Runs `body` with a handle of its own, on the thread pool, interrupted after the deadline.
    /// - Throws: ``APIError`` 503 when the deadline passed while it ran (even if it finished
    ///   since: it took too long); whatever `body` throws otherwise.
    func read<T: Sendable>(_ body: @escaping @Sendable (any FileIndexStore) throws -> T) async throws -> T {
        let index = await checkOut()
        let run = RunFlag()
        defer {
            // An interrupted connection may keep refusing statements until every statement it
            // started is reset: it is replaced by a fresh one rather than lent again.
            checkIn(run.state.withLock { $0 } == .interrupted ? reopened(index) : index)
        }
        // The timer runs on one of NIO's event loops, not in a task: a task's sleep ends only
        // when the concurrency pool has a thread free, and on a busy machine that can be after
        // the query has run its course.
        let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: .init(deadline)) {
            run.state.withLock { state in
                // Interrupting under the lock: the read cannot finish (and the handle go back to
                // the pool for another request) between the check and the interrupt.
                if state == .running {
                    index.interrupt()
                    state = .interrupted
                }
            }
        }
        defer { timer.cancel() }
        let result: Result<T, any Error>
        do {
            result = .success(try await NIOThreadPool.singleton.runIfActive {
                defer { run.state.withLock { if $0 == .running { $0 = .finished } } }
                return try body(index)
            })
        } catch {
            result = .failure(error)
        }
        if run.state.withLock({ $0 }) == .interrupted
            || (result.error as? any IndexStoreError)?.isTimeout == true {
            throw APIError(.serviceUnavailable, "the query took longer than \(deadline) and was stopped; make it more selective")
        }
        return try result.get()
    }

    /// A new handle in place of `index`; `index` itself when the index cannot be opened again.
    private func reopened(_ index: any FileIndexStore) -> any FileIndexStore {
        do {
            return try open()
        } catch {
            logger.warning("cannot reopen the index after an interrupted query: \(error)")
            return index
        }
    }

    private enum RunState: Sendable { case running, finished, interrupted }

    /// Whether a read still runs, finished, or was interrupted; shared by the read and its timer.
    private final class RunFlag: Sendable {
        let state = Mutex(RunState.running)
    }

    private func checkOut() async -> any FileIndexStore {
        if let index = state.withLock({ $0.idle.popLast() }) { return index }
        return await withCheckedContinuation { continuation in
            let index: (any FileIndexStore)? = state.withLock { state in
                if let index = state.idle.popLast() { return index }
                state.waiting.append(continuation)
                return nil
            }
            if let index { continuation.resume(returning: index) }
        }
    }

    private func checkIn(_ index: any FileIndexStore) {
        let waiter: CheckedContinuation<any FileIndexStore, Never>? = state.withLock { state in
            if state.waiting.isEmpty {
                state.idle.append(index)
                return nil
            }
            return state.waiting.removeFirst()
        }
        waiter?.resume(returning: index)
    }
}

extension Result {
    /// The error, when this is a failure.
    var error: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}

extension TimeAmount {
    /// The same span of time, to the nanosecond.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
