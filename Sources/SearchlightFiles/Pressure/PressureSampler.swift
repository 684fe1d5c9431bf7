import SystemCalls

/// The pressure a watcher backs off for: the machine's (``PressureMonitor``), except CPU
/// pressure the watcher makes itself. High CPU pressure counts only as far as the machine's
/// other tasks waited for a CPU since the last sample (``RunQueueDelays``): a burst that only
/// the watcher (and the program making the files) keeps the CPUs busy with is indexed at full
/// speed, a build that makes others wait still backs it off.
///
/// Call ``read()`` at a steady pace (a watcher does, every two seconds): the first reading
/// over the CPU threshold starts an interval and does not back off yet; the next one says
/// whether others waited during it. Without per-thread delays (no `/proc`, or fixture files
/// that hold only the pressure files) the system's pressure alone decides, as before.
///
/// ```swift
/// var sampler = PressureSampler(monitor: PressureMonitor())
/// if let reason = sampler.read().backoffReason(thresholds: sampler.thresholds) { print("backing off: \(reason)") }
/// ```
public struct PressureSampler: Sendable {
    public let monitor: PressureMonitor
    public let thresholds: PressureMonitor.Thresholds
    private var delays: RunQueueDelays

    public init(monitor: PressureMonitor, thresholds: PressureMonitor.Thresholds = .init(),
                ownProcess: Int32 = SystemCall.processID) {
        self.monitor = monitor
        self.thresholds = thresholds
        delays = RunQueueDelays(procRoot: monitor.procRoot, ownProcess: ownProcess)
    }

    /// A reading whose CPU pressure is the lesser of the system's and the share of the time
    /// since the last reading that other tasks waited, when the system's is over the threshold.
    public mutating func read(now: ContinuousClock.Instant = .now) -> PressureMonitor.Reading {
        var reading = monitor.read()
        guard let cpu = reading.cpu, cpu >= thresholds.cpu else {
            delays.reset()
            return reading
        }
        guard delays.isAvailable else { return reading }
        reading.cpu = min(cpu, delays.sample(now: now) ?? 0)
        return reading
    }
}
