import Foundation

/// When a worker's job must be answered: a deadline counted in the time the worker could have
/// run, not in wall time.
///
/// A deadline is there to catch a decoder that hangs, not a machine that is busy: an idle
/// priority scan's workers on a loaded machine wait for a CPU for most of every second, and a
/// wall-clock deadline would fail good documents for good (a file that timed out is not tried
/// again until it changes). So the time the worker's threads spent waiting on a run queue,
/// which the kernel counts per thread (`/proc/PID/task/TID/schedstat`, second field), moves the
/// deadline back, up to ``maximumStretch`` times the deadline in all. A decoder that sleeps or
/// spins still times out: it is running or sleeping, not waiting for a CPU. Where the kernel
/// keeps no such count the deadline is plain wall time.
struct JobDeadline {
    /// At most this many times the deadline passes in wall time before a job times out.
    static let maximumStretch = 10

    let deadline: Duration
    let processID: pid_t
    let start: ContinuousClock.Instant
    private let waitedAtStart: Duration
    /// The largest extension seen: threads that end take their counts with them.
    private var extension_: Duration = .zero

    init(_ deadline: Duration, processID: pid_t, clock: ContinuousClock) {
        self.deadline = deadline
        self.processID = processID
        start = clock.now
        waitedAtStart = Self.runQueueWait(of: processID)
    }

    /// What is left until the job times out (zero or less: it has).
    mutating func remaining(clock: ContinuousClock) -> Duration {
        let plain = deadline - start.duration(to: clock.now)
        guard plain <= .zero else { return plain }
        let waited = Self.runQueueWait(of: processID) - waitedAtStart
        extension_ = min(max(extension_, waited), deadline * (Self.maximumStretch - 1))
        return plain + extension_
    }

    /// The time every thread of `processID` has waited for a CPU so far.
    static func runQueueWait(of processID: pid_t) -> Duration {
        let tasks = "/proc/\(processID)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks) else { return .zero }
        var nanoseconds: Int64 = 0
        for thread in threads {
            guard let stat = try? String(contentsOfFile: "\(tasks)/\(thread)/schedstat", encoding: .ascii) else { continue }
            let fields = stat.split(separator: " ")
            if fields.count >= 2, let waited = Int64(fields[1]) { nanoseconds += waited }
        }
        return .nanoseconds(nanoseconds)
    }
}
