import Dispatch
import Testing

/// Runs each test of a suite on a dispatch queue of its own instead of the Swift concurrency
/// pool.
///
/// Swift Testing calls even a synchronous test from a task, on the pool, which has as many
/// threads as cores: two here. A test that waits on a child process or decodes documents for
/// seconds holds one of them, two such tests hold both, and every asynchronous test running
/// beside them (a watcher's tasks, a server, a PostgreSQL client's continuations) stalls past
/// its deadlines. A serial queue made for the test runs on a thread of its own (libdispatch
/// starts one as needed for such queues), so blocking there blocks nobody else.
///
/// ```swift
/// @Suite("searchlight command line", .serialized, .ownThread)
/// ```
public struct OwnThread: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        // Suites are scoped too: only each test (or test case) gets a thread.
        guard testCase != nil else { return try await function() }
        try await withTaskExecutorPreference(QueueExecutor(label: test.name)) { try await function() }
    }
}

extension Trait where Self == OwnThread {
    /// Each test runs on a thread of its own: see ``OwnThread``.
    public static var ownThread: Self { OwnThread() }
}

/// A task executor that runs its jobs one at a time on a serial dispatch queue.
final class QueueExecutor: TaskExecutor {
    private let queue: DispatchQueue

    init(label: String) { queue = DispatchQueue(label: "searchlight.test." + label) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
