import Foundation
import Searchlight
import SystemCalls
import SystemPackage

/// The lock a running watch holds (`flock(2)`) on a hidden file next to the index, one per
/// domain: `status` asks the lock whether a watch runs, not a process id that may have been
/// reused, and a second watch of the same domain is refused. The kernel releases the lock
/// when the watcher's process ends, however it ends (a `SIGKILL` included).
///
/// The lock is held for as long as the instance lives: ``FolderWatcher/run()`` takes one and
/// keeps it until it returns. The lock file stays after the watch ends: the lock on it, not
/// the file, tells whether a watch runs.
///
/// ```swift
/// let lock = try WatchLock(index: indexPath, domain: "notes")   // alreadyWatched if taken
/// defer { withExtendedLifetime(lock) {} }
/// WatchLock.isHeld(index: indexPath, domain: "notes")            // true, in any process
/// ```
public final class WatchLock: Sendable {
    /// The file locked for `domain` of the index at `indexPath`: hidden (never indexed when the
    /// index lies in the root), named after the index and the domain.
    ///
    /// An index that is no file (a `postgres://` URL, without password) has its locks in
    /// `$XDG_RUNTIME_DIR/searchlight` (else `/tmp/searchlight-UID`), named after the URL: they
    /// tell the watches of this machine apart; each machine watches domains of its own.
    public static func path(index indexPath: String, domain: String) -> String {
        var folder = (indexPath as NSString).deletingLastPathComponent
        var name = (indexPath as NSString).lastPathComponent
        if indexPath.contains("://") {
            folder = remoteLockFolder
            name = "index-" + String(fnv1a(indexPath), radix: 16)
        }
        // A domain is any string, a file name cannot be.
        return (folder.isEmpty ? "" : folder + "/") + ".\(name).watch-\(String(fnv1a(domain), radix: 16)).lock"
    }

    /// Where the locks of watches of a database live.
    static var remoteLockFolder: String {
        let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        return runtime.map { $0 + "/searchlight" } ?? "/tmp/searchlight-\(SystemCall.userID)"
    }

    /// ``FNV1a`` of the text's UTF-8.
    static func fnv1a(_ text: String) -> UInt64 {
        FNV1a.hash(text.utf8)
    }

    /// The lock file, open and locked while the instance lives.
    private let descriptor: Int32
    /// The lock file's path (``path(index:domain:)``).
    public let path: String

    /// Takes the lock of `domain`.
    ///
    /// Never waits: a lock another watch holds fails at once. The lock file is created when
    /// missing (and, for a database's watches, its folder, owner only).
    ///
    /// - Parameters:
    ///   - indexPath: The index's path, or its URL for a database.
    ///   - domain: The domain the watch indexes.
    /// - Throws: ``FileSystemError`` with ``FileSystemError/Code/alreadyWatched`` when another watch holds it, ``FileSystemError/Code/lock``
    ///   when the file cannot be opened.
    public init(index indexPath: String, domain: String) throws(FileSystemError) {
        let path = Self.path(index: indexPath, domain: domain)
        self.path = path
        // The folder of a database's locks is the watch's to make (owner only).
        if indexPath.contains("://") { try? SystemCall.makeDirectory(Self.remoteLockFolder) }
        let opened: Int32
        do {
            opened = try SystemCall.open(path.utf8, .readWrite, options: [.create, .closeOnExec])
        } catch {
            throw FileSystemError.lock(path, errno: error)
        }
        let locked: Bool
        do {
            locked = try SystemCall.lock(opened, .exclusive)
        } catch {
            SystemCall.close(opened)
            throw FileSystemError.lock(path, errno: error)
        }
        guard locked else {
            SystemCall.close(opened)
            throw FileSystemError.alreadyWatched(domain)
        }
        descriptor = opened
    }

    deinit { SystemCall.close(descriptor) }

    /// Whether a watch of `domain` holds its lock now.
    ///
    /// Asked by trying a shared lock, released at once: `status` calls it without disturbing
    /// the watch. A lock file that does not exist, or cannot be opened, means no watch.
    ///
    /// - Parameters:
    ///   - indexPath: The index's path, or its URL.
    ///   - domain: The domain.
    /// - Returns: Whether another open file holds the lock.
    public static func isHeld(index indexPath: String, domain: String) -> Bool {
        guard let opened = try? SystemCall.open(path(index: indexPath, domain: domain).utf8, .readOnly) else { return false }
        defer { SystemCall.close(opened) }
        guard let free = try? SystemCall.lock(opened, .shared) else { return false }
        if free { SystemCall.unlock(opened) }
        return !free
    }
}
