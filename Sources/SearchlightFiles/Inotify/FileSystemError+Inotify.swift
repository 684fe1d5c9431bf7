import Searchlight
import SystemPackage

// inotify's failures: the code names the C function, the message the path or the watch, the
// cause the errno it set; what the watcher does about each is asked of the predicates here.
extension FileSystemError.Code {
    /// `inotify_init1(2)`: creating the inotify descriptor.
    public static let initializeInotify = Self(name: "inotify_init1")
    /// `inotify_add_watch(2)`: watching a directory.
    public static let addWatch = Self(name: "inotify_add_watch")
    /// `inotify_rm_watch(2)`: removing a watch.
    public static let removeWatch = Self(name: "inotify_rm_watch")
    /// `read(2)` on the inotify descriptor, or decoding what it returned.
    public static let readEvents = Self(name: "read")
    /// Reading an inotify limit from `/proc/sys/fs/inotify`.
    public static let readInotifyLimit = Self(name: "reading inotify limit")
}

extension FileSystemError {
    /// A failed inotify call, `code` (``Code/addWatch``…), on `path` or `watch`, which set
    /// `errno` (`nil` when what failed was no system call: `detail` says what). Prints
    /// `inotify_add_watch failed for /home/ann/big: No space left on device (…)`.
    init(_ code: Code, errno: Errno?, path: FilePath? = nil, watch: WatchDescriptor? = nil, detail: String? = nil) {
        var message = "\(code) failed"
        if let path { message += " for \(path)" }
        if let watch { message += " (\(watch))" }
        if let detail { message += errno == nil ? ": \(detail)" : " (\(detail))" }
        // The path's bytes as they are: a name that is not UTF-8 stays findable.
        let bytes = path?.withPlatformString { start in
            var end = start
            while end.pointee != 0 { end += 1 }
            return UnsafeBufferPointer(start: start, count: end - start).map { UInt8(bitPattern: $0) }
        }
        self.init(code, message, path: bytes.map { ItemIdentifier(bytes: $0) }, cause: errno)
    }

    /// Whether the per-user limit on inotify watches is reached (`ENOSPC` from
    /// `inotify_add_watch(2)`): raise `fs.inotify.max_user_watches`, or rescan what is
    /// left unwatched.
    public var isWatchLimitReached: Bool {
        code == .addWatch && cause == .noSpace
    }

    /// Whether the per-user limit on inotify instances is reached (`EMFILE` from
    /// `inotify_init1(2)`, see `fs.inotify.max_user_instances`).
    public var isInstanceLimitReached: Bool {
        code == .initializeInotify && cause == .tooManyOpenFiles
    }

    /// Whether the watch no longer exists (`EINVAL` from `inotify_rm_watch(2)`): the kernel
    /// already removed it because its directory was deleted or unmounted, and an
    /// ``InotifyEventMask/ignored`` event is on its way or was read.
    public var isStaleWatch: Bool {
        code == .removeWatch && cause == .invalidArgument
    }

    /// What the user can do about a limit that was reached, when one was.
    var advice: String? {
        if isWatchLimitReached {
            return "the inotify watch limit is reached: raise the sysctl fs.inotify.max_user_watches"
        }
        if isInstanceLimitReached {
            return "the inotify instance limit may be reached: see the sysctl fs.inotify.max_user_instances"
        }
        return nil
    }
}
