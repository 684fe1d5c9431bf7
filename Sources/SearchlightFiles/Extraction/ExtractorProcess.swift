import CShimFoundationICUData
import ExtractionProtocol
import Searchlight
import SystemCalls
import SystemPackage

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

    private(set) var processID: Int32 = 0
    private var channel: Int32 = -1
    /// The worker's private temporary folder (`--temporary-folder`), the one place its sandbox
    /// lets it write; made before it starts, removed once it has ended.
    private var temporaryFolder: WorkerFolder?
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
    func start() throws(FileSystemError) {
        precondition(!isRunning)
        let (ours, theirs): (Int32, Int32)
        do {
            (ours, theirs) = try SystemCall.socketPair()
        } catch {
            throw FileSystemError("socketpair", errno: error)
        }
        defer { SystemCall.close(theirs) }
        // dup2 clears FD_CLOEXEC on the copies; every other descriptor of ours is CLOEXEC
        // (swift-corelibs and our own code open them so), so the worker gets only 0, 1, 2.
        var options = SystemCall.SpawnOptions()
        (options.standardInput, options.standardOutput) = (.descriptor(theirs), .descriptor(theirs))
        if !inheritsStandardError { options.standardError = .null }
        // Default signal handling and an empty mask in the child whatever the indexer
        // does with its own; its own process group, so a terminal's Ctrl-C reaches
        // only the indexer, which then shuts the workers down in order.
        options.ownProcessGroup = true
        let folder: WorkerFolder
        do {
            folder = try WorkerFolder()
        } catch {
            SystemCall.close(ours)
            throw error
        }
        do {
            processID = try SystemCall.spawn(executable.string, arguments: ([executable.string] + arguments + ["--temporary-folder", folder.path]).map { Array($0.utf8) },
                                             environment: environment, options: options)
        } catch {
            SystemCall.close(ours)
            folder.remove()
            throw FileSystemError("posix_spawn", path: ItemIdentifier(executable.string), errno: error)
        }
        channel = ours
        temporaryFolder = folder
    }

    // MARK: Running a job

    /// Sends one request and waits for its response until `deadline` (see ``JobDeadline``: time
    /// the worker spent waiting for a CPU does not count).
    ///
    /// On a timeout, a crash or a protocol error the worker is killed and reaped, and
    /// ``isRunning`` becomes false: the pool starts a new one for the next job.
    func run(kind: ExtractionKind, path: [UInt8], limit: UInt32, contentType: String,
             deadline: Duration) -> Result<ExtractionResponse, ExtractionFailure> {
        run(kindRawValue: kind.rawValue, path: path, limit: limit, contentType: contentType, deadline: deadline)
    }

    /// ``run(kind:path:limit:contentType:deadline:)`` for a kind by its raw value (the tests'
    /// sandbox probe, a kind only debug workers answer).
    func run(kindRawValue: UInt8, path: [UInt8], limit: UInt32, contentType: String,
             deadline: Duration) -> Result<ExtractionResponse, ExtractionFailure> {
        precondition(isRunning)
        var request = ExtractionRequest(jobID: nextJobID, kind: .text, path: path, limit: limit, contentType: contentType)
        request.kindRawValue = kindRawValue
        // The worker cannot open the user's files (ExtractorSandbox): it gets ours.
        let file: Int32
        switch Self.openForWorker(path) {
        case .success(let descriptor): file = descriptor
        case .failure(let failure): return .failure(failure)
        }
        defer { SystemCall.close(file) }
        return exchange(request, passing: file, deadline: deadline)
    }

    /// Embeds texts (``ExtractionKind/embed``): a request without a file.
    func run(embedding: EmbeddingJob, deadline: Duration) -> Result<ExtractionResponse, ExtractionFailure> {
        precondition(isRunning)
        return exchange(ExtractionRequest(jobID: nextJobID, embedding: embedding), passing: nil, deadline: deadline)
    }

    /// Sends `request` (with `file` attached, if any) and reads the response, within `deadline`.
    private func exchange(_ request: ExtractionRequest, passing file: Int32?,
                          deadline: Duration) -> Result<ExtractionResponse, ExtractionFailure> {
        let clock = ContinuousClock()
        var end = JobDeadline(deadline, processID: processID, clock: clock)
        let jobID = request.jobID
        nextJobID &+= 1
        let sent = send(request.encodedFrame(), passing: file, until: &end, clock: clock)
        if let failure = failure(sent, deadline: deadline) {
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

    /// Opens the regular file at the absolute `path` for a worker: one component at a time
    /// from `/`, never through a symbolic link (``FolderDescent``), never blocking on a FIFO.
    /// The corresponding C functions are `openat(2)` and `fstat(2)`.
    static func openForWorker(_ path: [UInt8]) -> Result<Int32, ExtractionFailure> {
        guard path.first == UInt8(ascii: "/") else {
            return .failure(ExtractionFailure(.unreadable, "open: not an absolute path"))
        }
        let descriptor: Int32
        do {
            let root = try SystemCall.open([UInt8(ascii: "/")], .readOnly, options: [.directory, .closeOnExec])
            defer { SystemCall.close(root) }
            descriptor = try SystemCall.open(below: root, path.dropFirst(), .readOnly, options: .readingSafely)
        } catch {
            return .failure(ExtractionFailure(.unreadable, "open: \(error)"))
        }
        guard let status = try? SystemCall.status(of: descriptor), status.isRegularFile else {
            SystemCall.close(descriptor)
            return .failure(ExtractionFailure(.unreadable, "open: not a regular file"))
        }
        return .success(descriptor)
    }

    /// Writes all of `bytes`, the first of them with the descriptor `passed` attached (if any).
    /// The corresponding C functions are `poll(2)`, `sendmsg(2)` and `send(2)`.
    private func send(_ bytes: [UInt8], passing passed: Int32?, until end: inout JobDeadline, clock: ContinuousClock) -> Progress {
        var written = 0
        while written < bytes.count {
            switch wait(for: SystemCall.writable, until: &end, clock: clock) {
            case .done: break
            case let other: return other
            }
            do {
                written += try bytes.withUnsafeBytes { raw in
                    Result { () throws(Errno) in
                        let rest = UnsafeRawBufferPointer(rebasing: raw[written...])
                        if written == 0, let passed { return try SystemCall.send(channel, rest, passing: passed) }
                        return try SystemCall.send(channel, rest)
                    }
                }.get()
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
            switch wait(for: SystemCall.readable, until: &end, clock: clock) {
            case .done: break
            case let other: return other
            }
            let wanted = min(chunk.count, count - bytes.count)
            let result: Int
            do {
                result = try chunk.withUnsafeMutableBytes { raw in
                    Result { () throws(Errno) in try SystemCall.receive(channel, into: UnsafeMutableRawBufferPointer(rebasing: raw[..<wanted])) }
                }.get()
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
            if ready & (SystemCall.readable | SystemCall.writable) != 0 { return .done }
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
        SystemCall.close(channel)
        channel = -1
        var status = reap(blocking: false)
        if status == nil {
            try? SystemCall.send(SystemCall.Signal.kill, to: processID)
            status = reap(blocking: true)
        }
        processID = 0
        temporaryFolder?.remove()
        temporaryFolder = nil
        return status ?? .unknown
    }

    /// Closes the worker's input so that it exits on its own, waits up to `grace` for
    /// that, then kills it. Returns how it ended.
    @discardableResult
    func stop(grace: Duration) -> TerminationStatus {
        closeInput()
        return awaitExit(grace: grace)
    }

    /// Closes the worker's input: it exits on its own once it has read what was sent. The
    /// first half of ``stop(grace:)``, so that several workers wind down at the same time.
    func closeInput() {
        guard isRunning else { return }
        SystemCall.shutdownSending(channel)
    }

    /// Waits up to `grace` for the worker to exit after ``closeInput()``, then kills it.
    /// Returns how it ended.
    @discardableResult
    func awaitExit(grace: Duration) -> TerminationStatus {
        guard isRunning else { return .unknown }
        // The worker's end closes when it exits: wait for end of file on ours.
        let clock = ContinuousClock()
        var end = JobDeadline(grace, processID: processID, clock: clock)
        var scratch = [UInt8](repeating: 0, count: 512)
        waiting: while case .done = wait(for: SystemCall.readable, until: &end, clock: clock) {
            do {
                let result = try scratch.withUnsafeMutableBytes { raw in
                    Result { () throws(Errno) in try SystemCall.receive(channel, into: raw) }
                }.get()
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
        do {
            return try SystemCall.waitForExit(of: processID, blocking: blocking).map(TerminationStatus.init)
        } catch {
            // ECHILD: someone else reaped it (a SIGCHLD handler set to SIG_IGN).
            return .unknown
        }
    }
}

/// How a worker process ended, from `waitpid(2)`'s status.
enum TerminationStatus: Equatable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)
    case unknown

    init(_ status: SystemCall.ExitStatus) {
        switch status {
        case .exited(let code): self = .exited(code)
        case .signaled(let signal): self = .signaled(signal)
        }
    }

    var description: String {
        switch self {
        // A release worker that found no Foundation ICU data to share (CShimFoundationICUData): its
        // own message went to its standard error, which the indexer does not keep.
        case .exited(SEARCHLIGHT_ICU_DATA_MISSING_STATUS):
            "exit status \(SEARCHLIGHT_ICU_DATA_MISSING_STATUS): its ICU data (lib/searchlight/\(SEARCHLIGHT_ICU_DATA_FILE)) is missing or damaged; reinstall Searchlight"
        case .exited(let code): "exit status \(code)"
        case .signaled(let signal): "signal \(signal)"
        case .unknown: "status unknown"
        }
    }
}
