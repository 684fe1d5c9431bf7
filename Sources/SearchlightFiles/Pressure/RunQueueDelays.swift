import SystemCalls
import SystemPackage

/// How long the machine's *other* tasks waited for a CPU: the sum of the run-queue delays of
/// every thread but the watcher's own and its children's (the extraction workers), from
/// `/proc/PID/task/TID/schedstat` (its second field: nanoseconds spent runnable but not
/// running), between two samples.
///
/// The system's CPU pressure (`/proc/pressure/cpu`, "some") counts the time *any* task waited,
/// the watcher's own threads included: on two cores a burst's inspectors, its writer and the
/// program making the files are enough to hold it above 90 %, so a watcher that backed off on
/// it would slow itself down under a load it makes itself. Its own threads' waits cannot be
/// subtracted from that figure either: while others keep the CPUs busy the watcher waits as
/// long as they do, and the difference would say that nobody else waited. The waits of the
/// other tasks, summed, are what says whether someone else wants the CPU.
///
/// Sampling reads a few files per thread of the machine (a few milliseconds for a thousand
/// threads): ``PressureSampler`` does it only while the system's pressure is high. A thread
/// that starts and ends between two samples is not seen; one that started since the last
/// sample counts its whole wait.
///
/// A value with the last sample in it: one per sampler, used from one thread. Only the
/// direct children of the own process are left out; a process they start counts as another
/// task.
public struct RunQueueDelays: Sendable {
    /// The folder standing for `/proc`.
    public let procRoot: String
    /// The process whose threads, and whose children's, are not "others".
    public let ownProcess: Int32
    /// The last sample's time and each thread's delay then; `nil` before the first.
    private var last: (at: ContinuousClock.Instant, delays: [Int32: UInt64])?

    /// Delays of the threads under `procRoot`, the threads of `ownProcess` and its children left out.
    public init(procRoot: String = "/proc", ownProcess: Int32 = SystemCall.processID) {
        self.procRoot = procRoot
        self.ownProcess = ownProcess
    }

    /// Whether the delays can be read at all: the own process's threads are listed (not so
    /// without `/proc`, or on fixture files that hold only the pressure files).
    ///
    /// Opens one folder: cheap enough to ask once, at start.
    public var isAvailable: Bool {
        guard let task = try? SystemCall.open(Array("\(procRoot)/\(ownProcess)/task".utf8), .readOnly,
                                              options: [.directory, .closeOnExec]) else { return false }
        SystemCall.close(task)
        return true
    }

    /// Samples the delays now: the share of the time since the last sample (in percent, the
    /// sum over the other threads, so possibly above 100) that other tasks spent waiting for a
    /// CPU; `nil` at the first sample, or when they cannot be read.
    ///
    /// - Parameter now: The sample's time (given by tests).
    public mutating func sample(now: ContinuousClock.Instant = .now) -> Double? {
        guard let delays = othersDelays() else {
            last = nil
            return nil
        }
        defer { last = (now, delays) }
        guard let last, now > last.at else { return nil }
        var waited: UInt64 = 0
        for (thread, delay) in delays {
            let before = last.delays[thread] ?? 0
            // A thread number reused by a new thread restarts from zero.
            waited &+= delay >= before ? delay - before : delay
        }
        let elapsed = now - last.at
        let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
        return Double(waited) / nanoseconds * 100
    }

    /// Forgets the last sample (the next one starts a new interval).
    public mutating func reset() { last = nil }

    /// The run-queue delay of every thread of the machine but the own process's and its
    /// children's, by thread number; `nil` when `/proc` cannot be listed.
    ///
    /// Reads `stat` once per process and `schedstat` once per thread, through descriptors
    /// opened below `/proc`, 512 bytes at most each.
    func othersDelays() -> [Int32: UInt64]? {
        guard let proc = try? SystemCall.open(Array(procRoot.utf8), .readOnly, options: [.directory, .closeOnExec]) else { return nil }
        defer { SystemCall.close(proc) }
        guard let names = try? SystemCall.entryNames(of: proc) else { return nil }
        var delays: [Int32: UInt64] = [:]
        for name in names {
            guard let process = Self.number(name), process != ownProcess else { continue }
            // Gone meanwhile, or not readable: nothing to count.
            guard let stat = Self.contents(of: name + Array("/stat".utf8), in: proc),
                  Self.parentProcess(inStat: stat) != ownProcess,
                  let task = try? SystemCall.open(name + Array("/task".utf8), in: proc, .readOnly, options: [.directory, .closeOnExec])
            else { continue }
            defer { SystemCall.close(task) }
            for thread in (try? SystemCall.entryNames(of: task)) ?? [] {
                guard let number = Self.number(thread),
                      let schedstat = Self.contents(of: thread + Array("/schedstat".utf8), in: task),
                      let delay = Self.runQueueDelay(inSchedstat: schedstat) else { continue }
                delays[number] = delay
            }
        }
        return delays
    }

    /// The second field of a `schedstat` line (`runtime delay slices`), in nanoseconds.
    ///
    /// ```swift
    /// RunQueueDelays.runQueueDelay(inSchedstat: Array("1853 2204 9\n".utf8))  // 2204
    /// ```
    static func runQueueDelay(inSchedstat bytes: [UInt8]) -> UInt64? {
        let fields = bytes.split(whereSeparator: { $0 == 0x20 || $0 == 0x0A })
        guard fields.count >= 2 else { return nil }
        return UInt64(String(decoding: fields[1], as: UTF8.self))
    }

    /// The parent's process number in a `/proc/PID/stat` line: the second field after the
    /// command name, which is in parentheses and may itself hold spaces and parentheses.
    static func parentProcess(inStat bytes: [UInt8]) -> Int32? {
        guard let close = bytes.lastIndex(of: 0x29) else { return nil }
        let fields = bytes[(close + 1)...].split(separator: 0x20)
        guard fields.count >= 2 else { return nil }
        return Int32(String(decoding: fields[1], as: UTF8.self))
    }

    /// The number a folder of `/proc` names (a process or a thread), or `nil` for any other name.
    private static func number(_ name: [UInt8]) -> Int32? {
        guard !name.isEmpty, name.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int32(String(decoding: name, as: UTF8.self))
    }

    /// The first 512 bytes of a small file below `directory` (a `stat` or `schedstat` line).
    private static func contents(of name: [UInt8], in directory: Int32) -> [UInt8]? {
        guard let file = try? SystemCall.open(name, in: directory, .readOnly) else { return nil }
        defer { SystemCall.close(file) }
        return try? SystemCall.readBytes(file, limit: 512)
    }
}
