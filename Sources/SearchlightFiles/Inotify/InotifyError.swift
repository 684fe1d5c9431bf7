import SystemPackage

/// A failed inotify operation, with the system call, its `errno` and the path involved.
///
/// Prints as one clear line:
///
/// ```
/// inotify_add_watch failed for /home/ann/Documents/big: No space left on device (the inotify watch limit is reached: raise the sysctl fs.inotify.max_user_watches)
/// ```
public struct InotifyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The operation that failed, named after its C function.
    public struct Operation: Hashable, Sendable, CustomStringConvertible {
        let name: String
        /// `inotify_init1(2)`: creating the inotify descriptor.
        public static let initialize = Operation(name: "inotify_init1")
        /// `inotify_add_watch(2)`: watching a directory.
        public static let addWatch = Operation(name: "inotify_add_watch")
        /// `inotify_rm_watch(2)`: removing a watch.
        public static let removeWatch = Operation(name: "inotify_rm_watch")
        /// `read(2)` on the inotify descriptor, or decoding what it returned.
        public static let read = Operation(name: "read")
        /// Reading an inotify limit from `/proc/sys/fs/inotify`.
        public static let readLimit = Operation(name: "reading inotify limit")
        public var description: String { name }
    }

    /// The operation that failed.
    public var operation: Operation
    /// The error number, captured right after the failing call.
    public var errno: Errno
    /// The path involved, when there is one.
    public var path: FilePath?
    /// The watch involved, when there is one.
    public var watch: WatchDescriptor?
    /// More detail, when `errno` alone does not say enough.
    public var detail: String?

    public init(
        _ operation: Operation,
        errno: Errno,
        path: FilePath? = nil,
        watch: WatchDescriptor? = nil,
        detail: String? = nil
    ) {
        self.operation = operation
        self.errno = errno
        self.path = path
        self.watch = watch
        self.detail = detail
    }

    /// Whether the per-user limit on inotify watches is reached (`ENOSPC` from
    /// `inotify_add_watch(2)`): raise `fs.inotify.max_user_watches`, or rescan what is
    /// left unwatched.
    public var isWatchLimitReached: Bool {
        operation == .addWatch && errno == .noSpace
    }

    /// Whether the per-user limit on inotify instances is reached (`EMFILE` from
    /// `inotify_init1(2)`, see `fs.inotify.max_user_instances`).
    public var isInstanceLimitReached: Bool {
        operation == .initialize && errno == .tooManyOpenFiles
    }

    /// Whether the path is gone or is no longer a directory (`ENOENT`, `ENOTDIR`): the
    /// directory vanished, or was replaced by a file or a symbolic link, before it could be
    /// watched. Not a failure for a watcher: the events of its parent tell the rest.
    public var isNoSuchFile: Bool {
        errno == .noSuchFileOrDirectory || errno == .notDirectory
    }

    /// Whether the watch no longer exists (`EINVAL` from `inotify_rm_watch(2)`): the kernel
    /// already removed it because its directory was deleted or unmounted, and an
    /// ``InotifyEventMask/ignored`` event is on its way or was read.
    public var isStaleWatch: Bool {
        operation == .removeWatch && errno == .invalidArgument
    }

    /// Whether permission to read the directory was denied (`EACCES`).
    public var isPermissionDenied: Bool {
        errno == .permissionDenied
    }

    public var description: String {
        var line = "\(operation) failed"
        if let path { line += " for \(path)" }
        if let watch { line += " (\(watch))" }
        line += ": \(errno)"
        if let detail {
            line += " (\(detail))"
        } else if isWatchLimitReached {
            line += " (the inotify watch limit is reached: raise the sysctl fs.inotify.max_user_watches)"
        } else if isInstanceLimitReached {
            line += " (the inotify instance limit may be reached: see the sysctl fs.inotify.max_user_instances)"
        }
        return line
    }
}
