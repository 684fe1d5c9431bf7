internal import CShimFileSystem
#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

extension SystemCall {
    /// How a child that ``spawn(_:arguments:environment:options:)`` starts begins.
    ///
    /// ```swift
    /// var options = SystemCall.SpawnOptions()
    /// options.standardOutput = .null
    /// options.searchesPath = true
    /// let child = try SystemCall.spawn("xdg-open", arguments: ["xdg-open", url].map { Array($0.utf8) },
    ///                                  options: options)
    /// let status = try SystemCall.waitForExit(of: child)  // .exited(0)
    /// ```
    public struct SpawnOptions: Sendable {
        /// Where one of the child's standard descriptors (0, 1, 2) comes from.
        public enum Source: Sendable {
            /// This process's own.
            case inherited
            /// `/dev/null`.
            case null
            /// A descriptor of this process, duplicated (`dup2`, which clears close-on-exec).
            case descriptor(Int32)
        }

        /// The child's descriptor 0.
        public var standardInput = Source.inherited
        /// The child's descriptor 1.
        public var standardOutput = Source.inherited
        /// The child's descriptor 2.
        public var standardError = Source.inherited
        /// Descriptors of this process given to the child under other numbers (3 and up),
        /// `(ours, theirs)`.
        public var extraDescriptors: [(ours: Int32, theirs: Int32)] = []
        /// Look the program up in `PATH` when its name holds no slash (`posix_spawnp`).
        public var searchesPath = false
        /// A session of its own (`setsid`): it outlives this process's session.
        public var newSession = false
        /// A process group of its own (a terminal's Ctrl-C reaches only its parent), with
        /// default signal handlers and an empty signal mask, whatever this process does with
        /// its own.
        public var ownProcessGroup = false

        /// A child that shares this process's standard descriptors, session and process group, and
        /// is found by path, not in `PATH`.
        public init() {}
    }

    /// Starts `program` with `arguments` (the first is its name) and `environment`
    /// (`KEY=value`; this process's own when `nil`): its process id. Every descriptor of
    /// this process opened close-on-exec stays out of the child.
    /// The corresponding C functions are `posix_spawn(3)` and `posix_spawnp(3)`.
    ///
    /// glibc's `posix_spawn` runs the child with `vfork`-like speed and reports an exec failure
    /// (a missing program) as the call's error, so a child that could not start never exists.
    /// Safe to call from any thread; a descriptor another thread opens at the same moment
    /// without close-on-exec may leak into the child.
    ///
    /// - Parameters:
    ///   - program: The executable's path, or its name with ``SpawnOptions/searchesPath``.
    ///   - arguments: The child's `argv`, as bytes; by convention the first is its name.
    ///   - environment: The child's environment as `KEY=value` strings; `nil` passes this
    ///     process's live environment.
    ///   - options: Its standard descriptors, extra descriptors, session and process group.
    /// - Returns: The child's process id; reap it with ``waitForExit(of:blocking:)``.
    /// - Throws: The `Errno` of `posix_spawn`: `ENOENT` for a missing program, `EACCES` for one
    ///   that may not be run, `EAGAIN` when the process limit is reached.
    public static func spawn(
        _ program: String, arguments: [[UInt8]], environment: [String]? = nil, options: SpawnOptions = SpawnOptions()
    ) throws(Errno) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, source) in [(Int32(0), options.standardInput), (1, options.standardOutput), (2, options.standardError)] {
            switch source {
            case .inherited: break
            case .null: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            }
        }
        // dup2 gives the copy no close-on-exec flag (glibc clears it when the numbers match).
        for (ours, theirs) in options.extraDescriptors { posix_spawn_file_actions_adddup2(&actions, ours, theirs) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var flags: Int32 = 0
        if options.ownProcessGroup {
            var defaultSignals = sigset_t()
            sigfillset(&defaultSignals)
            var emptyMask = sigset_t()
            sigemptyset(&emptyMask)
            posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
            posix_spawnattr_setsigmask(&attributes, &emptyMask)
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP
        }
        // glibc's POSIX_SPAWN_SETSID, which its spawn.h declares only under _GNU_SOURCE.
        if options.newSession { flags |= 0x80 }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var process: pid_t = 0
        let result = withCStrings(arguments) { argv in
            withCStrings((environment ?? []).map { Array($0.utf8) }) { envp in
                // This process's own environment when none is given.
                let envp = environment == nil ? UnsafePointer(environ) : mutableStrings(envp)
                return options.searchesPath
                    ? posix_spawnp(&process, program, &actions, &attributes, mutableStrings(argv), envp)
                    : posix_spawn(&process, program, &actions, &attributes, mutableStrings(argv), envp)
            }
        }
        guard result == 0 else { throw Errno(rawValue: result) }
        return process
    }

    /// How a child process ended, from `waitpid(2)`'s status.
    public enum ExitStatus: Sendable, Equatable, CustomStringConvertible {
        /// It exited with this code.
        case exited(Int32)
        /// This signal ended it.
        case signaled(Int32)

        /// Decodes `waitpid(2)`'s raw status (`WIFEXITED`, `WEXITSTATUS`, `WTERMSIG` are macros
        /// Swift cannot import).
        ///
        /// A stopped child's status is not expected: ``waitForExit(of:blocking:)`` does not ask
        /// for those.
        public init(waitStatus status: Int32) {
            let signal = status & 0x7f
            self = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
        }

        /// The exit code, or 128 + the signal's number, as a shell reports it.
        public var shellStatus: Int32 {
            switch self {
            case .exited(let code): code
            case .signaled(let signal): 128 + signal
            }
        }

        /// `exit status 0`, `signal 9`: as messages print it.
        public var description: String {
            switch self {
            case .exited(let code): "exit status \(code)"
            case .signaled(let signal): "signal \(signal)"
            }
        }
    }

    /// Reaps the child `process`: how it ended, or `nil` while it runs and `blocking` is false.
    /// `ECHILD` when it is no child of ours or was reaped already.
    /// The corresponding C function is `waitpid(2)`.
    ///
    /// A blocking call blocks the calling thread until the child ends: call it from a thread of
    /// your own, not from Swift's cooperative pool.
    public static func waitForExit(of process: Int32, blocking: Bool = true) throws(Errno) -> ExitStatus? {
        var status: Int32 = 0
        let result = try retryingOnInterrupt { waitpid(process, &status, blocking ? 0 : WNOHANG) }
        return result == process ? ExitStatus(waitStatus: status) : nil
    }

    /// A pipe, both ends close-on-exec from the start: `(read end, write end)`; a child spawned
    /// by another thread meanwhile inherits neither (setting the flag after `pipe(2)` left a
    /// moment when it could, and a worker holding a write end keeps its reader from ever seeing
    /// the end). The corresponding C function is `pipe2(2)` with `O_CLOEXEC`.
    public static func pipe() throws(Errno) -> (readEnd: Int32, writeEnd: Int32) {
        var ends: [Int32] = [-1, -1]
        _ = try checked { cfs_pipe_close_on_exec(&ends) }
        return (ends[0], ends[1])
    }

    /// A connected pair of Unix stream sockets, both close-on-exec.
    /// The corresponding C function is `socketpair(2)`.
    public static func socketPair() throws(Errno) -> (Int32, Int32) {
        var pair: [Int32] = [-1, -1]
        _ = try checked { socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) }
        return (pair[0], pair[1])
    }
}
