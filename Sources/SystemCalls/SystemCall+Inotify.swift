internal import CShimFileSystem
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

    /// The fixed part of one inotify record (`struct inotify_event` without the name that
    /// follows it, which Swift cannot see as a flexible array member).
    public struct InotifyRecordHeader: Sendable {
        /// Its size in bytes (16): the name, `nameLength` bytes NUL-padded, starts there.
        public static let size = MemoryLayout<inotify_event>.size
        /// The alignment a buffer for `read(2)` of an inotify descriptor needs.
        public static let alignment = MemoryLayout<inotify_event>.alignment

        /// The watch descriptor the event is about (`wd`): what `inotify_add_watch(2)` returned.
        public var watch: Int32
        /// What happened, as ``InotifyEventMask`` bits (`mask`).
        public var mask: UInt32
        /// The number that pairs an `IN_MOVED_FROM` with its `IN_MOVED_TO` (`cookie`); 0 otherwise.
        public var cookie: UInt32
        /// The bytes of the name after the header, NUL padding included (`len`); 0 for the watched
        /// directory itself.
        public var nameLength: Int

        /// The header at `offset` in `bytes` (which must hold ``size`` bytes from there).
        public init(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
            let header = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
            (watch, mask, cookie, nameLength) = (header.wd, header.mask, header.cookie, Int(header.len))
        }
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
