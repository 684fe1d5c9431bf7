import SearchlightTestSupport
import SystemCalls
import Testing
@testable import SearchlightFiles

@Suite("Pressure sampler", .ownThread)
struct PressureSamplerTests {
    let proc = TemporaryTree("proc")
    let start = ContinuousClock.now
    /// The watcher's process number in the fixture.
    let own: Int32 = 100

    /// A process of the fixture: its `stat` line (with a command name that holds a space and
    /// parentheses, as `stat` allows) and each thread's run-queue delay in nanoseconds.
    func process(_ pid: Int32, parent: Int32, threads: [Int32: UInt64]) {
        proc.write("\(pid)/stat", "\(pid) (odd (name) x) S \(parent) \(pid) \(pid) 0 -1 4194560 160 0 0 0\n")
        for (thread, delay) in threads {
            proc.write("\(pid)/task/\(thread)/schedstat", "123456789 \(delay) 42\n")
        }
    }

    func cpuPressure(_ some: String) {
        proc.write("pressure/cpu", "some avg10=\(some) avg60=10.00 avg300=5.00 total=1007648813\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n")
        proc.write("pressure/io", "some avg10=0.00 avg60=0.00 avg300=0.00 total=1\n")
    }

    /// The watcher (two threads), its extraction worker, and another program (two threads).
    func machine(own: UInt64, worker: UInt64, others: (UInt64, UInt64)) {
        process(100, parent: 1, threads: [100: own, 101: own])
        process(200, parent: 100, threads: [200: worker])
        process(300, parent: 1, threads: [300: others.0, 301: others.1])
    }

    /// A sampler of the fixture, with the system's CPU pressure at 95 % and nobody waiting yet.
    func busyMachine(othersInterval: Duration) -> PressureSampler {
        cpuPressure("95.00")
        machine(own: 0, worker: 0, others: (0, 0))
        return PressureSampler(monitor: PressureMonitor(procRoot: proc.path, sysRoot: proc.path + "/none"),
                               othersInterval: othersInterval, ownProcess: own)
    }

    func backoffReason(_ sampler: inout PressureSampler, at seconds: Int) -> String? {
        sampler.read(now: start + .seconds(seconds)).backoffReason(thresholds: sampler.thresholds)
    }

    @Test func readsTheFieldsOfSchedstatAndStat() {
        #expect(RunQueueDelays.runQueueDelay(inSchedstat: Array("5361432 998877 17\n".utf8)) == 998_877)
        #expect(RunQueueDelays.runQueueDelay(inSchedstat: Array("garbage\n".utf8)) == nil)
        #expect(RunQueueDelays.parentProcess(inStat: Array("7 (a) b (c)) R 4242 7 7 0\n".utf8)) == 4242)
        #expect(RunQueueDelays.parentProcess(inStat: Array("no parenthesis".utf8)) == nil)
    }

    @Test func countsOnlyTheWaitsOfOtherProcessesSinceTheLastSample() {
        var delays = RunQueueDelays(procRoot: proc.path, ownProcess: own)
        #expect(!delays.isAvailable)
        machine(own: 1_000, worker: 1_000, others: (1_000, 1_000))
        #expect(delays.isAvailable)
        #expect(delays.sample(now: start) == nil, "the first sample starts an interval")
        // In two seconds the watcher waited 3 s (two threads), its worker 1 s: not counted.
        // The other program waited 0.5 s and 0.3 s: 40 % of the interval.
        machine(own: 1_500_001_000, worker: 1_000_001_000, others: (500_001_000, 300_001_000))
        let share = delays.sample(now: start + .seconds(2))
        #expect(share.map { abs($0 - 40) < 0.001 } == true, "\(String(describing: share))")
        // A thread that appeared meanwhile counts its whole wait.
        proc.write("300/task/302/schedstat", "1 200000000 1\n")
        let next = delays.sample(now: start + .seconds(3))
        #expect(next.map { abs($0 - 20) < 0.001 } == true, "\(String(describing: next))")
        delays.reset()
        #expect(delays.sample(now: start + .seconds(4)) == nil)
    }

    @Test func backsOffForPressureOthersFeelNotForItsOwn() {
        var sampler = busyMachine(othersInterval: .seconds(2))
        func reason(at seconds: Int) -> String? { backoffReason(&sampler, at: seconds) }
        #expect(reason(at: 0) == nil, "no interval yet")
        // The watcher's threads and worker wait (the pressure is its own): no backoff.
        machine(own: 4_000_000_000, worker: 2_000_000_000, others: (100_000_000, 0))
        #expect(reason(at: 2) == nil)
        // Another program waited 1.8 s of 2: it wants the CPU.
        machine(own: 8_000_000_000, worker: 2_000_000_000, others: (1_100_000_000, 800_000_000))
        #expect(reason(at: 4) == "cpu pressure 90%")
        // More than the system's figure (several threads waiting at once): the system's.
        machine(own: 8_000_000_000, worker: 2_000_000_000, others: (3_100_000_000, 2_800_000_000))
        #expect(reason(at: 6) == "cpu pressure 95%")
        // Low system pressure: not backing off, whatever the threads say, and a new interval
        // starts when it is high again.
        cpuPressure("10.00")
        #expect(reason(at: 8) == nil)
        cpuPressure("95.00")
        machine(own: 8_000_000_000, worker: 2_000_000_000, others: (9_100_000_000, 9_800_000_000))
        #expect(reason(at: 10) == nil, "no interval yet")
    }

    @Test func measuresTheOthersAgainOnlyEveryInterval() {
        var sampler = busyMachine(othersInterval: .seconds(10))
        func reason(at seconds: Int) -> String? { backoffReason(&sampler, at: seconds) }
        #expect(reason(at: 0) == nil, "no interval yet")
        // The first interval ends at the next reading: others waited 1.8 s of 2.
        machine(own: 0, worker: 0, others: (1_000_000_000, 800_000_000))
        #expect(reason(at: 2) == "cpu pressure 90%")
        // Nobody waits any more, but the next measure is 10 s after the last: the figure stays.
        #expect(reason(at: 4) == "cpu pressure 90%")
        #expect(reason(at: 10) == "cpu pressure 90%")
        // Measured again over the 10 s since: 0.4 s of waiting, 4 %.
        machine(own: 0, worker: 0, others: (1_200_000_000, 1_000_000_000))
        #expect(reason(at: 12) == nil)
        #expect(sampler.read(now: start + .seconds(12)).cpu.map { abs($0 - 4) < 0.001 } == true)
    }

    @Test func withoutThreadDelaysTheSystemPressureAloneDecides() {
        cpuPressure("95.00")
        var sampler = PressureSampler(monitor: PressureMonitor(procRoot: proc.path, sysRoot: proc.path + "/none"), ownProcess: own)
        #expect(sampler.read().backoffReason(thresholds: sampler.thresholds) == "cpu pressure 95%")
    }

    @Test func theRealProcIsReadable() {
        var delays = RunQueueDelays()
        #expect(delays.isAvailable)
        _ = delays.sample()
        // Every other process of this machine is listed: the share is a number, not a
        // failure to read.
        #expect(delays.sample(now: .now + .milliseconds(1)).map { $0 >= 0 } == true)
    }
}
