import ExtractionProtocol
import SystemPackage

#if canImport(Glibc)
import Glibc
import SystemCalls
#endif

/// One `searchlight-extractor` child process and its channel.
///
/// The channel is a `socketpair(2)` whose child end is the worker's standard input
/// and output: unlike a pipe, our end can `send(2)` with `MSG_NOSIGNAL`, so a dead
/// worker gives `EPIPE` instead of a `SIGPIPE` that would kill the indexer, and
/// the process's signal dispositions stay untouched.
///
/// Not thread-safe: ``ExtractorPool`` lends each process to one caller at a time.
final class ExtractorProcess: @unchecked Sendable {
    private let executable: FilePath
    private let arguments: [String]
    private let environment: [String]
    private let inheritsStandardError: Bool

    private(set) var processID: pid_t = 0
    private var channel: Int32 = -1
    private var nextJobID: UInt64 = 1

    var isRunning: Bool { processID > 0 }

    init(executable: FilePath, arguments: [String], environment: [String], inheritsStandardError: Bool) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.inheritsStandardError = inheritsStandardError
    }

    deinit {
        if isRunning { _ = terminate() }
    }

    // MARK: Starting

    /// Spawns the worker. The corresponding C functions are `socketpair(2)` and `posix_spawn(3)`.
    func start() throws(ExtractorSystemError) {
        precondition(!isRunning)
        var pair: [Int32] = [-1, -1]
        do {
            _ = try SystemCall.checked {
                socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair)
            }
        } catch {
            throw ExtractorSystemError("socketpair", errno: error)
        }
        let (ours, theirs) = (pair[0], pair[1])
        defer { close(theirs) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears FD_CLOEXEC on the copies; every other descriptor of ours is CLOEXEC
        // (swift-corelibs and our own code open them so), so the worker gets only 0, 1, 2.
        posix_spawn_file_actions_adddup2(&actions, theirs, 0)
        posix_spawn_file_actions_adddup2(&actions, theirs, 1)
        if !inheritsStandardError {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Default signal handling and an empty mask in the child whatever the indexer
        // does with its own; its own process group, so a terminal's Ctrl-C reaches
        // only the indexer, which then shuts the workers down in order.
        var defaultSignals = sigset_t()
        sigfillset(&defaultSignals)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

        let argv = [executable.string] + arguments
        var pid: pid_t = 0
        let result = executable.withPlatformString { path in
            withCStrings(argv) { argv in
                withCStrings(environment) { envp in
                    posix_spawn(&pid, path, &actions, &attributes, argv, envp)
                }
            }
        }
        guard result == 0 else {
            close(ours)
            throw ExtractorSystemError("posix_spawn", errno: Errno(rawValue: result), path: executable)
        }
        processID = pid
        channel = ours
    }

    // MARK: Running a job

    /// Sends one request and waits for its response until `deadline` (see ``JobDeadline``: time
    /// the worker spent waiting for a CPU does not count).
    ///
    /// On a timeout, a crash or a protocol error the worker is killed and reaped, and
    /// ``isRunning`` becomes false: the pool starts a new one for the next job.
    func run(kind: ExtractionKind, path: [UInt8], limit: UInt32, contentType: String,
             deadline: Duration) -> Result<ExtractionResponse, ExtractionFailure> {
        precondition(isRunning)
        let clock = ContinuousClock()
        var end = JobDeadline(deadline, processID: processID, clock: clock)
        let jobID = nextJobID
        nextJobID &+= 1
        let request = ExtractionRequest(jobID: jobID, kind: kind, path: path, limit: limit, contentType: contentType)

        if let failure = failure(send(request.encodedFrame(), until: &end, clock: clock), deadline: deadline) {
            return .failure(failure)
        }

        var header: [UInt8] = []
        if let failure = failure(receive(count: ExtractionFrame.headerSize, into: &header, until: &end, clock: clock),
                                 deadline: deadline) {
            return .failure(failure)
        }
        let response: ExtractionResponse
        do {
            let length = try ExtractionFrame.payloadLength(header: header)
            var payload: [UInt8] = []
            if let failure = failure(receive(count: length, into: &payload, until: &end, clock: clock), deadline: deadline) {
                return .failure(failure)
            }
            response = try ExtractionResponse(payload: payload)
        } catch {
            _ = terminate()
            return .failure(ExtractionFailure(.crashed, "extractor sent a broken reply (\(error.message))"))
        }
        guard response.jobID == jobID else {
            _ = terminate()
            return .failure(ExtractionFailure(.crashed, "extractor answered job \(response.jobID) instead of \(jobID)"))
        }
        return .success(response)
    }

    private enum Progress { case done, timedOut, closed }

    /// What went wrong with a send or a receive, if anything; a worker that timed out is killed.
    private func failure(_ progress: Progress, deadline: Duration) -> ExtractionFailure? {
        switch progress {
        case .done:
            return nil
        case .timedOut:
            _ = terminate()
            return ExtractionFailure(.timedOut, "timed out after \(deadline.shortDescription)")
        case .closed:
            return crashFailure()
        }
    }

    /// Writes all of `bytes`. The corresponding C functions are `poll(2)` and `send(2)`.
    private func send(_ bytes: [UInt8], until end: inout JobDeadline, clock: ContinuousClock) -> Progress {
        var written = 0
        while written < bytes.count {
            switch wait(for: Int16(POLLOUT), until: &end, clock: clock) {
            case .done: break
            case let other: return other
            }
            do {
                written += try SystemCall.retryingOnInterrupt {
                    bytes.withUnsafeBytes {
                        Glibc.send(channel, $0.baseAddress! + written, bytes.count - written,
                                   Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                    }
                }
            } catch where error == .resourceTemporarilyUnavailable {
                continue
            } catch {
                return .closed
            }
        }
        return .done
    }

    /// Reads exactly `count` bytes into `bytes`. The corresponding C functions are `poll(2)` and `recv(2)`.
    private func receive(count: Int, into bytes: inout [UInt8], until end: inout JobDeadline, clock: ContinuousClock) -> Progress {
        // Never more than `count`: the next frame's bytes stay in the socket.
        bytes.reserveCapacity(count)
        var chunk = [UInt8](repeating: 0, count: min(count, 64 << 10))
        while bytes.count < count {
            switch wait(for: Int16(POLLIN), until: &end, clock: clock) {
            case .done: break
            case let other: return other
            }
            let wanted = min(chunk.count, count - bytes.count)
            let result: Int
            do {
                result = try SystemCall.retryingOnInterrupt {
                    chunk.withUnsafeMutableBytes { recv(channel, $0.baseAddress!, wanted, Int32(MSG_DONTWAIT)) }
                }
            } catch where error == .resourceTemporarilyUnavailable {
                continue
            } catch {
                return .closed
            }
            if result == 0 { return .closed }
            bytes.append(contentsOf: chunk[..<result])
        }
        return .done
    }

    /// Waits until the channel is ready for `events` or `end` passes. The corresponding C function is `poll(2)`.
    private func wait(for events: Int16, until end: inout JobDeadline, clock: ContinuousClock) -> Progress {
        while true {
            let remaining = end.remaining(clock: clock)
            if remaining <= .zero { return .timedOut }
            // Round up so that we never wake just before the deadline and spin.
            let milliseconds = Int32(clamping: remaining.milliseconds + 1)
            guard let ready = try? SystemCall.poll(channel, for: events, milliseconds: milliseconds) else { return .closed }
            if ready == 0 { continue }
            // POLLHUP with data still readable is handled by recv returning the data first.
            if ready & Int16(POLLIN | POLLOUT) != 0 { return .done }
            return .closed
        }
    }

    // MARK: Stopping

    /// Kills the worker after it failed on a job and describes how it ended.
    private func crashFailure() -> ExtractionFailure {
        let status = terminate()
        return ExtractionFailure(.crashed, "extractor crashed (\(status.description))")
    }

    /// Kills (`SIGKILL`) and reaps the worker; returns how it ended. A worker that had
    /// already died keeps its own status (a crash shows as the signal that caused it).
    /// The corresponding C functions are `kill(2)` and `waitpid(2)`.
    @discardableResult
    func terminate() -> TerminationStatus {
        guard isRunning else { return .unknown }
        close(channel)
        channel = -1
        var status = reap(blocking: false)
        if status == nil {
            kill(processID, SIGKILL)
            status = reap(blocking: true)
        }
        processID = 0
        return status ?? .unknown
    }

    /// Closes the worker's input so that it exits on its own, waits up to `grace` for
    /// that, then kills it. Returns how it ended.
    @discardableResult
    func stop(grace: Duration) -> TerminationStatus {
        guard isRunning else { return .unknown }
        shutdown(channel, Int32(SHUT_WR))
        // The worker's end closes when it exits: wait for end of file on ours.
        let clock = ContinuousClock()
        var end = JobDeadline(grace, processID: processID, clock: clock)
        var scratch = [UInt8](repeating: 0, count: 512)
        waiting: while case .done = wait(for: Int16(POLLIN), until: &end, clock: clock) {
            do {
                let result = try SystemCall.retryingOnInterrupt {
                    scratch.withUnsafeMutableBytes { recv(channel, $0.baseAddress!, $0.count, Int32(MSG_DONTWAIT)) }
                }
                if result == 0 { break waiting }
            } catch where error == .resourceTemporarilyUnavailable {
                continue
            } catch {
                break waiting
            }
        }
        return terminate()
    }

    private func reap(blocking: Bool) -> TerminationStatus? {
        var status: Int32 = 0
        // ECHILD: someone else reaped it (a SIGCHLD handler set to SIG_IGN).
        guard let result = try? SystemCall.retryingOnInterrupt({ waitpid(processID, &status, blocking ? 0 : WNOHANG) })
        else { return .unknown }
        if result == processID { return TerminationStatus(waitStatus: status) }
        if result == 0 { return nil }
        return .unknown
    }
}

/// How a worker process ended, from `waitpid(2)`'s status.
enum TerminationStatus: Equatable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)
    case unknown

    init(waitStatus status: Int32) {
        // WIFEXITED / WTERMSIG are macros Swift cannot import.
        let signal = status & 0x7f
        self = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }

    var description: String {
        switch self {
        case .exited(let code): "exit status \(code)"
        case .signaled(let signal): "signal \(signal)"
        case .unknown: "status unknown"
        }
    }
}

/// Calls `body` with a NULL-terminated array of C strings.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
