import Glibc

/// A bound on the CPU time the calling thread spends from now on: work on a crowded machine
/// (a worker at idle priority waits for a core) gets as far as on a quiet one, so what a
/// document yields does not depend on the machine's load. The indexer's deadline, which
/// stretches by the time its worker waited for a CPU (``JobDeadline``), still bounds the wait.
/// The corresponding C function is `clock_gettime(2)` with `CLOCK_THREAD_CPUTIME_ID`.
struct CPUBudget {
    private let end: Duration

    init(_ budget: Duration) { end = Self.threadTime() + budget }

    /// Whether the thread has spent the budget.
    var isSpent: Bool { Self.threadTime() >= end }

    /// The CPU time the calling thread has used.
    static func threadTime() -> Duration {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
    }
}
