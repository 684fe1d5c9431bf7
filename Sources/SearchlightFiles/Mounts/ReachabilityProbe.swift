import Dispatch
import Foundation
import Synchronization
import SystemCalls

/// Asks a folder on a network or FUSE filesystem whether its server answers, with a deadline:
/// the call runs on a thread of its own, so that a server that stopped answering leaves the
/// asker free (Docs/Contract.md#drives-and-mounts). A call that never returns keeps its thread;
/// while it is stuck no other is started, and the folder is taken as unreachable.
public final class ReachabilityProbe: Sendable {
    /// A probe still waiting for the server.
    private let stuck = Mutex(false)

    /// A probe with no question pending; keep one per root, so that one stuck server does not
    /// make the others look unreachable.
    public init() {}

    /// Whether the folder at `path` can be opened and read within `deadline` (`opendir` and
    /// one `getdents`, which a server must answer: the kernel caches no listing); `false` at
    /// once while an earlier probe is still waiting.
    public func answers(_ path: String, within deadline: Duration) -> Bool {
        let start = stuck.withLock { stuck in
            if stuck { return false }
            stuck = true
            return true
        }
        guard start else { return false }
        let done = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            if let descriptor = try? SystemCall.open(Array(path.utf8), .readOnly, options: [.directory, .closeOnExec]) {
                _ = try? SystemCall.entryNames(of: descriptor)
                SystemCall.close(descriptor)
            }
            self.stuck.withLock { $0 = false }
            done.signal()
        }
        thread.name = "searchlight-probe"
        thread.start()
        let nanoseconds = Int(deadline.components.seconds) * 1_000_000_000 + Int(deadline.components.attoseconds / 1_000_000_000)
        return done.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success
    }
}
