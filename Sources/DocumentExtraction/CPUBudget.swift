import SystemCalls

/// A bound on the CPU time the calling thread spends from now on: work on a crowded machine
/// (a worker at idle priority waits for a core) gets as far as on a quiet one, so what a
/// document yields does not depend on the machine's load. The indexer's deadline, which
/// stretches by the time its worker waited for a CPU (``JobDeadline``), still bounds the wait.
/// Read with ``SystemCall/threadCPUTime``.
struct CPUBudget {
    private let end: Duration

    init(_ budget: Duration) { end = SystemCall.threadCPUTime + budget }

    /// Whether the thread has spent the budget.
    var isSpent: Bool { SystemCall.threadCPUTime >= end }
}
