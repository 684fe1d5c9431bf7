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
    public static func environmentValue(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The CPU time the calling thread has used. The corresponding C function is
    /// `clock_gettime(2)` with `CLOCK_THREAD_CPUTIME_ID`.
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

        var resource: __rlimit_resource_t {
            switch self {
            case .addressSpace: __rlimit_resource_t(RLIMIT_AS.rawValue)
            case .coreFileSize: __rlimit_resource_t(RLIMIT_CORE.rawValue)
            }
        }
    }

    /// Sets both the soft and the hard limit of `limit` for this process and its children.
    /// The corresponding C function is `setrlimit(2)`.
    public static func setLimit(_ limit: ResourceLimit, to value: UInt64) throws(Errno) {
        var bounds = rlimit(rlim_cur: rlim_t(value), rlim_max: rlim_t(value))
        _ = try checked { setrlimit(limit.resource, &bounds) }
    }

    /// The path of this process's executable, `nil` when the kernel does not say.
    /// The corresponding C function is `readlink(2)` of `/proc/self/exe`.
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

    /// Sends `signal` to the process `process`. The corresponding C function is `kill(2)`.
    public static func send(_ signal: Int32, to process: Int32) throws(Errno) {
        _ = try checked { kill(process, signal) }
    }

    /// Makes this process ignore `signal` (whose default action may end it), as a
    /// `DispatchSource` that handles it needs. The corresponding C function is `signal(2)`.
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

    /// Sleeps the calling thread for `nanoseconds`, the whole time even when a signal
    /// interrupts it. The corresponding C function is `nanosleep(2)`.
    public static func sleep(nanoseconds: Int) {
        var pause = timespec(tv_sec: nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
        var rest = timespec()
        while nanosleep(&pause, &rest) != 0, lastError == .interrupted { pause = rest }
    }
}
