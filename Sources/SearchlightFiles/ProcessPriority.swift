import Foundation
import SystemCalls
import SystemPackage

/// The indexer's CPU and I/O priority. ``lowerToIdle()`` makes it yield to everything else:
/// nice 19 and the idle I/O scheduling class. Child processes (the extraction workers) and
/// threads started afterwards inherit both.
public enum ProcessPriority {
    /// The nice value of an idle indexer.
    public static let idleNice: Int32 = 19
    /// The idle I/O scheduling class of `ioprio_set(2)`.
    public static let idleIOClass = SystemCall.IOClass.idle.rawValue

    /// Lowers every thread of the process to nice 19 and the idle I/O class.
    ///
    /// Linux keeps both per thread, and a thread inherits them from the thread that creates
    /// it: every existing thread is lowered (`/proc/self/task`), so that threads started later
    /// by any of them start low too.
    /// The corresponding C functions are `setpriority(2)` and `ioprio_set(2)`.
    /// - Throws: ``FileSystemError`` when a call fails for the calling thread.
    public static func lowerToIdle() throws(FileSystemError) {
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task"))?.compactMap { Int32($0) } ?? []
        let current = SystemCall.threadID
        for thread in Set(threads + [current]) {
            // Another thread may have exited meanwhile: only the calling thread's failure counts.
            do {
                try FileSystemError.attributing("setpriority") { () throws(Errno) in try SystemCall.setNice(idleNice, thread: thread) }
                try FileSystemError.attributing("ioprio_set") { () throws(Errno) in
                    try SystemCall.setIOPriority(.idle, thread: thread)
                }
            } catch where thread == current {
                throw error
            } catch {
                continue
            }
        }
    }

    /// The calling thread's nice value. The corresponding C function is `getpriority(2)`.
    public static var nice: Int32 { SystemCall.nice }

    /// The calling thread's I/O scheduling class (0 none, 1 real time, 2 best effort, 3 idle).
    /// The corresponding C function is `ioprio_get(2)`.
    public static var ioClass: Int32 {
        (try? SystemCall.ioClass().rawValue) ?? -1
    }
}
