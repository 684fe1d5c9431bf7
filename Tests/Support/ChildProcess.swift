import Foundation
import Glibc
import Synchronization
import Testing

/// A child process started with `posix_spawn(3)` and reaped with `waitpid(2)` on its own pid.
///
/// The tests do not use Foundation's `Process`: on Linux its `waitUntilExit()` waits for a
/// SIGCHLD handler that runs on a dispatch queue, and a test run that keeps the few threads
/// of a 2-core machine busy was seen waiting there for good after the child had exited. Here
/// waiting is the system call itself, on the calling thread.
public final class ChildProcess: Sendable {
    /// Where one of the child's standard descriptors goes.
    public enum Redirect: Sendable {
        /// `/dev/null`.
        case null
        /// A descriptor of this process (a pipe's end, an open file), duplicated.
        case descriptor(Int32)
        /// A file, created or truncated (or appended to).
        case file(String, append: Bool = false)
    }

    /// A failure to start the child.
    public struct StartError: Error, CustomStringConvertible {
        public var program: String
        public var code: Int32
        public var description: String { "cannot start \(program): errno \(code)" }
    }

    public let processIdentifier: pid_t
    /// The raw wait status once reaped.
    private let status = Mutex<Int32?>(nil)

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
    /// module does not declare (it is a GNU extension): looked up once.
    private static let addCloseFrom: @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32 = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else {
            preconditionFailure("glibc has no posix_spawn_file_actions_addclosefrom_np (2.34 or later is needed)")
        }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29 and later), looked up as
    /// ``addCloseFrom`` is.
    private static let addChangeFolder: @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>,
                                                        UnsafePointer<CChar>) -> Int32 = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else {
            preconditionFailure("glibc has no posix_spawn_file_actions_addchdir_np (2.29 or later is needed)")
        }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>,
                                                          UnsafePointer<CChar>) -> Int32).self)
    }()

    /// Starts `arguments[0]` (looked up in `PATH` when it holds no slash) with the rest as its
    /// arguments, this process's environment merged with `environment` (`nil` values remove
    /// a variable), in `currentFolder` when given (this process's otherwise).
    public init(_ arguments: [String], environment: [String: String?] = [:], currentFolder: String? = nil,
                stdin: Redirect = .null, stdout: Redirect = .null, stderr: Redirect = .null) throws {
        precondition(!arguments.isEmpty)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, redirect) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
            switch redirect {
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            case .descriptor(let descriptor):
                posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            case .file(let path, let append):
                let flags = target == 0 ? O_RDONLY : O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC)
                posix_spawn_file_actions_addopen(&actions, target, path, flags, 0o644)
            }
        }
        // Only the three standard descriptors: the test process's others (files other tests
        // hold open at this moment) would stay open in the child, holding them past their
        // close (a late `IN_CLOSE_WRITE` for a watch, "text file busy" for a copy).
        _ = Self.addCloseFrom(&actions, 3)
        if let currentFolder { _ = Self.addChangeFolder(&actions, currentFolder) }
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        var argv = arguments.map { strdup($0) } + [nil]
        var envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let result = arguments[0].contains("/")
            ? posix_spawn(&pid, arguments[0], &actions, nil, &argv, &envp)
            : posix_spawnp(&pid, arguments[0], &actions, nil, &argv, &envp)
        guard result == 0 else { throw StartError(program: arguments[0], code: result) }
        processIdentifier = pid
    }

    deinit {
        // Never leave a zombie, nor a child running past its test.
        if reap(blocking: false) == nil {
            kill(processIdentifier, SIGKILL)
            _ = reap(blocking: true)
        }
    }

    /// Reaps the child if it has exited (or waits for it): its raw wait status.
    @discardableResult
    private func reap(blocking: Bool) -> Int32? {
        status.withLock { status in
            if let status { return status }
            var raw: Int32 = 0
            while true {
                let result = waitpid(processIdentifier, &raw, blocking ? 0 : WNOHANG)
                if result == processIdentifier {
                    status = raw
                    return raw
                }
                if result == 0 { return nil }
                if errno != EINTR { return nil }
            }
        }
    }

    /// Whether the child has not exited yet.
    public var isRunning: Bool { reap(blocking: false) == nil }

    /// How long ``waitUntilExit(timeout:sourceLocation:)`` waits by default: longer than any
    /// command of the suite takes on a loaded machine, short of hanging it.
    public static let exitTimeout: TimeInterval = 600

    /// Waits for the child to exit, at most `timeout` seconds (``waitUntil(timeout:every:_:)``).
    /// A child still running then fails the test (an issue at the caller's line) and is killed
    /// and reaped: a stuck child fails the suite instead of hanging it.
    /// A `brief` child (``shell(_:)-swift.func``: `cp`, `mv`, `chmod`) may be waited for on any
    /// thread; any other is waited for as ``waitUntil(timeout:every:sourceLocation:_:)`` waits.
    public func waitUntilExit(timeout: TimeInterval = exitTimeout, brief: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) {
        let exited = brief ? waitOnThisThread(timeout: timeout, every: .milliseconds(1)) { !isRunning }
            : exits(within: timeout, sourceLocation: sourceLocation)
        guard !exited else { return }
        Issue.record("\(processIdentifier) did not exit within \(timeout) s: killed", sourceLocation: sourceLocation)
        kill(processIdentifier, SIGKILL)
        _ = reap(blocking: true)
    }

    /// Waits for the child, up to `timeout` seconds; whether it exited (it keeps running if not).
    public func exits(within timeout: TimeInterval, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        waitUntil(timeout: timeout, sourceLocation: sourceLocation) { !isRunning }
    }

    /// The exit code, or the signal's number when a signal ended it (as Foundation's `Process`).
    /// Waits for the child first (``waitUntilExit(timeout:sourceLocation:)``).
    public var terminationStatus: Int32 {
        waitUntilExit()
        let raw = reap(blocking: false) ?? 0
        return raw & 0x7F == 0 ? (raw >> 8) & 0xFF : raw & 0x7F
    }

    /// Whether a signal ended the child. Waits for it first.
    public var wasSignaled: Bool {
        waitUntilExit()
        let raw = reap(blocking: false) ?? 0
        return raw & 0x7F != 0
    }

    /// Sends `signal` to the child while it runs.
    public func send(_ signal: Int32) {
        if isRunning { kill(processIdentifier, signal) }
    }

    /// Sends SIGTERM.
    public func terminate() { send(SIGTERM) }

    /// Runs a command to completion: its exit status and what it printed. Output goes
    /// through files, so a chatty child never blocks on a full pipe; `input` is its
    /// standard input.
    ///
    /// Waiting blocks the calling thread: a test on Swift's cooperative pool runs only `brief`
    /// commands (see ``waitUntilExit(timeout:brief:sourceLocation:)``).
    public static func run(_ arguments: [String], environment: [String: String?] = [:], currentFolder: String? = nil,
                           input: [UInt8]? = nil, brief: Bool = false,
                           sourceLocation: SourceLocation = #_sourceLocation) throws -> (status: Int32, stdout: [UInt8], stderr: [UInt8]) {
        let base = FileManager.default.temporaryDirectory.path + "/searchlight-child-\(UUID().uuidString)"
        let inputPath = base + ".in", outputPath = base + ".out", errorPath = base + ".err"
        defer { for path in [inputPath, outputPath, errorPath] { unlink(path) } }
        if let input { _ = FileManager.default.createFile(atPath: inputPath, contents: Data(input)) }
        let child = try ChildProcess(arguments, environment: environment, currentFolder: currentFolder,
                                     stdin: input == nil ? .null : .file(inputPath),
                                     stdout: .file(outputPath), stderr: .file(errorPath))
        child.waitUntilExit(brief: brief, sourceLocation: sourceLocation)
        let output = FileManager.default.contents(atPath: outputPath) ?? Data()
        let error = FileManager.default.contents(atPath: errorPath) ?? Data()
        return (child.terminationStatus, Array(output), Array(error))
    }
}
