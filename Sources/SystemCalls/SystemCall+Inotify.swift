import CFileSystem
#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

extension SystemCall {
    /// A new inotify instance: its descriptor. The corresponding C function is `inotify_init1(2)`.
    public static func inotifyInitialize(nonBlocking: Bool = true, closeOnExec: Bool = true) throws(Errno) -> Int32 {
        var flags: Int32 = 0
        if nonBlocking { flags |= Int32(truncatingIfNeeded: IN_NONBLOCK) }
        if closeOnExec { flags |= Int32(truncatingIfNeeded: IN_CLOEXEC) }
        return try checked { inotify_init1(flags) }
    }

    /// Watches the folder at `path` for the events of `mask`: the watch descriptor its events
    /// carry. The corresponding C function is `inotify_add_watch(2)`.
    public static func inotifyAddWatch(_ descriptor: Int32, path: UnsafePointer<CChar>, mask: UInt32) throws(Errno) -> Int32 {
        try checked { inotify_add_watch(descriptor, path, mask) }
    }

    /// Stops the watch `watch`. The corresponding C function is `inotify_rm_watch(2)`.
    public static func inotifyRemoveWatch(_ descriptor: Int32, watch: Int32) throws(Errno) {
        _ = try checked { inotify_rm_watch(descriptor, watch) }
    }

    /// How many bytes can be read from `descriptor` now (for inotify: the events queued that
    /// nobody read yet). The corresponding C function is `ioctl(2)` with `FIONREAD`.
    public static func readableByteCount(_ descriptor: Int32) throws(Errno) -> Int {
        Int(try checked { cfs_readable_bytes(descriptor) })
    }
}
