import SystemCalls

/// The pressure a watcher backs off for: the machine's (``PressureMonitor``), except CPU
/// pressure the watcher makes itself. High CPU pressure counts only as far as the machine's
/// other tasks waited for a CPU since the last sample (``RunQueueDelays``): a burst that only
/// the watcher (and the program making the files) keeps the CPUs busy with is indexed at full
/// speed, a build that makes others wait still backs it off.
///
/// Call ``read()`` at a steady pace (a watcher does, every two seconds): the first reading
/// over the CPU threshold starts an interval and does not back off yet; the next one says
/// whether others waited during it. While the system's pressure stays high, the others' waits
/// are measured again every ``othersInterval`` (reading every thread's delay costs a few
/// milliseconds), and the readings in between keep the last figure. Without per-thread delays
/// (no `/proc`, or fixture files that hold only the pressure files) the system's pressure
/// alone decides, as before.
///
/// ```swift
/// var sampler = PressureSampler(monitor: PressureMonitor())
/// if let reason = sampler.read().backoffReason(thresholds: sampler.thresholds) { print("backing off: \(reason)") }
/// ```
public struct PressureSampler: Sendable {
    /// Where the system's pressure and battery are read.
    public let monitor: PressureMonitor
    /// When to back off.
    public let thresholds: PressureMonitor.Thresholds
    /// How often the others' waits are measured while the system's pressure stays high.
    public let othersInterval: Duration
    private var delays: RunQueueDelays
    /// Whether the threads' delays can be read, once asked.
    private var delaysAvailable: Bool?
    /// The share of the last measured interval that other tasks waited.
    private var others: Double?
    private var nextMeasure: ContinuousClock.Instant?

    /// A sampler over `monitor` that measures the others' waits at most every `othersInterval`,
    /// counting `ownProcess` and its children as its own.
    public init(monitor: PressureMonitor, thresholds: PressureMonitor.Thresholds = .init(),
                othersInterval: Duration = .seconds(10), ownProcess: Int32 = SystemCall.processID) {
        self.monitor = monitor
        self.thresholds = thresholds
        self.othersInterval = othersInterval
        delays = RunQueueDelays(procRoot: monitor.procRoot, ownProcess: ownProcess)
    }

    /// A reading whose CPU pressure is the lesser of the system's and the share of the last
    /// measured interval that other tasks waited, when the system's is over the threshold.
    public mutating func read(now: ContinuousClock.Instant = .now) -> PressureMonitor.Reading {
        var reading = monitor.read()
        guard let cpu = reading.cpu, cpu >= thresholds.cpu else {
            delays.reset()
            others = nil
            nextMeasure = nil
            return reading
        }
        if delaysAvailable == nil { delaysAvailable = delays.isAvailable }
        guard delaysAvailable == true else { return reading }
        if nextMeasure.map({ now >= $0 }) ?? true {
            if let share = delays.sample(now: now) { others = share }
            // The first interval ends at the next reading; later ones are longer.
            nextMeasure = others == nil ? now : now + othersInterval
        }
        reading.cpu = min(cpu, others ?? 0)
        return reading
    }
}
