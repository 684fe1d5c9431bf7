internal import CShimFileSystem
#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

extension SystemCall {
    /// The calling thread's id. The corresponding C function is `gettid(2)`.
    public static var threadID: Int32 { cfs_gettid() }

    /// Sets the nice value of the thread `thread` (0: the calling thread).
    /// The corresponding C function is `setpriority(2)` with `PRIO_PROCESS`.
    public static func setNice(_ value: Int32, thread: Int32 = 0) throws(Errno) {
        _ = try checked { setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(thread), value) }
    }

    /// The calling thread's nice value. The corresponding C function is `getpriority(2)`.
    public static var nice: Int32 {
        getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
    }

    /// An I/O scheduling class of `ioprio_set(2)`.
    public enum IOClass: Int32, Sendable {
        /// No class set (the kernel derives one from the nice value), real time, best effort, or
        /// idle: I/O only when no one else needs the disk.
        case none = 0, realTime = 1, bestEffort = 2, idle = 3
    }

    /// Sets the I/O scheduling class and level (0 to 7) of the thread `thread` (0: the
    /// calling thread). The corresponding C function is `ioprio_set(2)`.
    public static func setIOPriority(_ ioClass: IOClass, level: Int32 = 0, thread: Int32 = 0) throws(Errno) {
        _ = try checked { cfs_set_io_priority(thread, ioClass.rawValue, level) }
    }

    /// The I/O scheduling class of the thread `thread` (0: the calling thread).
    /// The corresponding C function is `ioprio_get(2)`.
    public static func ioClass(thread: Int32 = 0) throws(Errno) -> IOClass {
        IOClass(rawValue: try checked { cfs_get_io_priority(thread) } >> 13) ?? .none
    }
}
