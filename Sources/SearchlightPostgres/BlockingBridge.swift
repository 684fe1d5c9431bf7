import Dispatch
import Synchronization

/// How ``PostgresStore``'s synchronous requirements wait for ``PostgresIndex``'s async calls:
/// its own detail, not an adapter between two protocols (the store implements the async twins
/// directly). Its callers are the scanner's walker and writer threads, the watcher, the commands.
///
/// The caller's thread waits on a semaphore while the call runs as a task whose executor is
/// a dispatch queue of the bridge's own, never the caller's thread and never Swift's
/// cooperative pool: a caller may itself be a pool thread (the watcher's services), and on a
/// machine of two cores, two such callers waiting for pool work would wait for ever.
final class BlockingBridge: TaskExecutor {
    private let queue = DispatchQueue(label: "searchlight.postgres-bridge", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// Runs `operation` to its end and returns what it returned or throws what it threw.
    func wait<T: Sendable>(_ operation: sending @escaping () async throws -> T) throws -> T {
        let outcome = Outcome<T>()
        Task(executorPreference: self) {
            do {
                outcome.finish(.success(try await operation()))
            } catch {
                outcome.finish(.failure(error))
            }
        }
        return try outcome.wait().get()
    }

    /// The result of one call, handed from the task to the waiting thread.
    private final class Outcome<T: Sendable>: Sendable {
        private let result = Mutex<Result<T, any Error>?>(nil)
        private let done = DispatchSemaphore(value: 0)

        func finish(_ value: Result<T, any Error>) {
            result.withLock { $0 = value }
            done.signal()
        }

        func wait() -> Result<T, any Error> {
            done.wait()
            return result.withLock { $0! }
        }
    }
}
