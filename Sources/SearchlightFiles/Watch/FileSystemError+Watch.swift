import Searchlight
import SystemPackage

// Why a watch stops: its root went away, or another watch of the domain holds its lock.
extension FileSystemError.Code {
    /// The watched root was deleted, moved away or unmounted.
    public static let rootGone = Self(name: "root gone")
    /// Another watch of the domain runs (it holds the domain's ``WatchLock``).
    public static let alreadyWatched = Self(name: "already watched")
    /// The domain's lock file cannot be opened or locked.
    public static let lock = Self(name: "cannot lock")
}

extension FileSystemError {
    /// The watched folder `root` was deleted, moved away or unmounted.
    static func rootGone(_ root: String) -> FileSystemError {
        FileSystemError(.rootGone, "the watched folder \(root) was deleted or moved away; the index is left as it was, "
                            + "so a restart on its new place reconciles it", path: ItemIdentifier(root))
    }

    /// Another watch of `domain` runs (it holds the domain's ``WatchLock``).
    static func alreadyWatched(_ domain: String) -> FileSystemError {
        FileSystemError(.alreadyWatched, "another `watch` of \(domain) is running (it holds its lock)")
    }

    /// The lock file at `path` cannot be opened or locked: `errno`.
    static func lock(_ path: String, errno: Errno) -> FileSystemError {
        FileSystemError(.lock, "cannot lock \(path)", path: ItemIdentifier(path), cause: errno)
    }
}
