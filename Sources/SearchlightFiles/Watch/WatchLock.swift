import Foundation
import Glibc
import Searchlight
import SystemCalls
import SystemPackage

/// The lock a running watch holds (`flock(2)`) on a hidden file next to the index, one per
/// domain: `status` asks the lock whether a watch runs, not a process id that may have been
/// reused, and a second watch of the same domain is refused. The kernel releases the lock
/// when the watcher's process ends, however it ends (a `SIGKILL` included).
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
        return runtime.map { $0 + "/searchlight" } ?? "/tmp/searchlight-\(getuid())"
    }

    /// FNV-1a, 64 bits.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    private let descriptor: Int32
    public let path: String

    /// Takes the lock of `domain`.
    /// - Throws: ``WatchError/alreadyWatched(_:)`` when another watch holds it, ``WatchError/lock(_:errno:)``
    ///   when the file cannot be opened.
    public init(index indexPath: String, domain: String) throws(WatchError) {
        let path = Self.path(index: indexPath, domain: domain)
        self.path = path
        // The folder of a database's locks is the watch's to make (owner only).
        if indexPath.contains("://") { mkdir(Self.remoteLockFolder, 0o700) }
        let opened: Int32
        do {
            opened = try SystemCall.retryingOnInterrupt { open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600) }
        } catch {
            throw WatchError.lock(path, errno: error)
        }
        do {
            _ = try SystemCall.retryingOnInterrupt { flock(opened, LOCK_EX | LOCK_NB) }
        } catch {
            close(opened)
            if error == .wouldBlock { throw WatchError.alreadyWatched(domain) }
            throw WatchError.lock(path, errno: error)
        }
        descriptor = opened
    }

    deinit { close(descriptor) }

    /// Whether a watch of `domain` holds its lock now.
    public static func isHeld(index indexPath: String, domain: String) -> Bool {
        let opened = open(path(index: indexPath, domain: domain), O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { return false }
        defer { close(opened) }
        if flock(opened, LOCK_SH | LOCK_NB) == 0 {
            flock(opened, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK
    }
}
