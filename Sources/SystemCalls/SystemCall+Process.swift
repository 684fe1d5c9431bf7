#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

extension SystemCall {
    /// This process's id. The corresponding C function is `getpid(2)`.
    public static var processID: Int32 { getpid() }

    /// The real user id of this process. The corresponding C function is `getuid(2)`.
    public static var userID: UInt32 { getuid() }

    /// The value of the environment variable `name`, if set. The corresponding C function is `getenv(3)`.
    ///
    /// Reads the live environment, so it sees what ``setEnvironmentValue(_:to:)`` set; unlike
    /// `ProcessInfo.processInfo.environment`, which is a copy made once.
    public static func environmentValue(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The CPU time the calling thread has used. The corresponding C function is
    /// `clock_gettime(2)` with `CLOCK_THREAD_CPUTIME_ID`.
    ///
    /// For measuring the work done on one thread, whatever else the machine runs; one system
    /// call.
    public static var threadCPUTime: Duration {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
    }

    /// The process that started this one (1, or a subreaper, once it has died).
    /// The corresponding C function is `getppid(2)`.
    public static var parentProcessID: Int32 { getppid() }

    /// A limit of ``setLimit(_:to:)``.
    public enum ResourceLimit: Sendable {
        /// The bytes of address space (`RLIMIT_AS`): an allocation beyond fails.
        case addressSpace
        /// The largest core dump (`RLIMIT_CORE`): 0 for none.
        case coreFileSize

        /// Glibc's constant for the limit.
        var resource: __rlimit_resource_t {
            switch self {
            case .addressSpace: __rlimit_resource_t(RLIMIT_AS.rawValue)
            case .coreFileSize: __rlimit_resource_t(RLIMIT_CORE.rawValue)
            }
        }
    }

    /// Sets both the soft and the hard limit of `limit` for this process and its children.
    /// The corresponding C function is `setrlimit(2)`.
    ///
    /// A process may lower its hard limit but not raise it again: the extraction worker sets
    /// its own address-space limit once, at its start.
    ///
    /// - Throws: `EPERM` when raising a hard limit without the privilege, `EINVAL` for a value
    ///   the kernel refuses.
    public static func setLimit(_ limit: ResourceLimit, to value: UInt64) throws(Errno) {
        var bounds = rlimit(rlim_cur: rlim_t(value), rlim_max: rlim_t(value))
        _ = try checked { setrlimit(limit.resource, &bounds) }
    }

    /// The path of this process's executable, `nil` when the kernel does not say.
    /// The corresponding C function is `readlink(2)` of `/proc/self/exe`.
    ///
    /// A path that is not UTF-8 is decoded with U+FFFD for its invalid bytes.
    public static var executablePath: String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The executable `name` installed next to this process's own (`searchlight-extractor` next
    /// to `searchlight`), or `name` alone (found through `PATH`) when the own one is unknown.
    public static func siblingExecutable(_ name: String) -> String {
        guard let own = executablePath, let slash = own.lastIndex(of: "/") else { return name }
        return String(own[...slash]) + name
    }

    /// This machine's name, `nil` when it has none. The corresponding C function is `gethostname(2)`.
    public static var hostName: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0, buffer[0] != 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Sets the environment variable `name` to `value` for this process and the children it
    /// starts from now on. The corresponding C function is `setenv(3)`.
    ///
    /// Not thread-safe: `setenv` may race with any thread that reads the environment at the same
    /// moment (`getenv`, a library that does). Call it before starting threads, or where nothing
    /// else reads the environment.
    public static func setEnvironmentValue(_ name: String, to value: String) {
        _ = setenv(name, value, 1)
    }

    /// The signals the programs send or handle, by name (Glibc's numbers).
    public enum Signal {
        /// `SIGKILL`: ends a process; it cannot be caught.
        public static let kill = SIGKILL
        /// `SIGTERM`: asks a process to end.
        public static let terminate = SIGTERM
        /// `SIGINT`: a terminal's Ctrl-C.
        public static let interrupt = SIGINT
        /// `SIGHUP`: the terminal went away.
        public static let hangUp = SIGHUP
        /// `SIGPIPE`: a write to a pipe or socket nobody reads.
        public static let brokenPipe = SIGPIPE
    }

    /// Sends `signal` to the process `process`. The corresponding C function is `kill(2)`.
    public static func send(_ signal: Int32, to process: Int32) throws(Errno) {
        _ = try checked { kill(process, signal) }
    }

    /// Makes this process ignore `signal` (whose default action may end it), as a
    /// `DispatchSource` that handles it needs. The corresponding C function is `signal(2)`.
    ///
    /// Ignored dispositions are inherited by the children the process starts, unless they set
    /// their own.
    public static func ignoreSignal(_ signal: Int32) {
        _ = Glibc.signal(signal, SIG_IGN)
    }

    /// Sends `signal` to every process of the process group `group` (a child started with
    /// ``SpawnOptions/ownProcessGroup`` leads one). The corresponding C function is `kill(2)`.
    public static func send(_ signal: Int32, toGroup group: Int32) throws(Errno) {
        guard group > 0 else { throw .invalidArgument }
        _ = try checked { kill(-group, signal) }
    }

    /// Whether the process `process` exists (signal 0: nothing is sent; a process of
    /// another user, `EPERM`, exists too). The corresponding C function is `kill(2)`.
    public static func processExists(_ process: Int32) -> Bool {
        guard process > 0 else { return false }
        do {
            try send(0, to: process)
            return true
        } catch {
            return error == .notPermitted
        }
    }

    /// Ends this process with `status` after flushing C's output streams and running its exit
    /// handlers. The corresponding C function is `exit(3)`.
    public static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }

    /// Ends this process with `status` at once: no handler runs, nothing is flushed (a thread
    /// that must not wait for the others). The corresponding C function is `_exit(2)`.
    public static func exitImmediately(_ status: Int32) -> Never {
        _exit(status)
    }

    /// Ends this process with `SIGABRT` (a crash, for the tests that need one).
    /// The corresponding C function is `abort(3)`.
    public static func abort() -> Never {
        Glibc.abort()
    }

    /// Blocks the calling thread until a signal arrives. The corresponding C function is `pause(2)`.
    public static func waitForSignal() {
        _ = pause()
    }

    /// Runs `body` on a new thread nobody joins (one the process's exit ends).
    /// The corresponding C functions are `pthread_create(3)` and `pthread_detach(3)`.
    ///
    /// The thread gets the system's default stack size. `body` is retained until it has run.
    ///
    /// - Throws: The `Errno` of `pthread_create` (`EAGAIN` when the process or the system has
    ///   too many threads).
    public static func startDetachedThread(_ body: @escaping @Sendable () -> Void) throws(Errno) {
        let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { context in
            let body = Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue()
            body.run()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            throw Errno(rawValue: result)
        }
        pthread_detach(thread)
    }

    /// The closure a new thread runs, boxed to pass through `pthread_create`'s `void *`.
    private final class ThreadBody: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// CPU time this process has used, its own and that of the children it waited for, in
    /// nanoseconds. The corresponding C functions are `clock_gettime(2)` and `getrusage(2)`.
    public static var processorTime: Int64 {
        var process = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &process)
        var children = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &children)
        let childSeconds = Int64(children.ru_utime.tv_sec) + Int64(children.ru_stime.tv_sec)
        let childMicroseconds = Int64(children.ru_utime.tv_usec) + Int64(children.ru_stime.tv_usec)
        return Int64(process.tv_sec) * 1_000_000_000 + Int64(process.tv_nsec) + childSeconds * 1_000_000_000 + childMicroseconds * 1000
    }

    /// The monotonic clock, in nanoseconds. The corresponding C function is `clock_gettime(2)`.
    public static var monotonicTime: Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// Sleeps the calling thread for `nanoseconds`, the whole time even when a signal
    /// interrupts it. The corresponding C function is `nanosleep(2)`.
    public static func sleep(nanoseconds: Int) {
        var pause = timespec(tv_sec: nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
        var rest = timespec()
        while nanosleep(&pause, &rest) != 0, lastError == .interrupted { pause = rest }
    }
}
