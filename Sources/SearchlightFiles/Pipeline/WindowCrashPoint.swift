import Foundation
import Logging
import Synchronization
import SystemCalls

/// Points of the write path at which a test can have the process killed (debug builds'
/// `SEARCHLIGHT_TEST_CRASH=POINT:N`: at `POINT` of the Nth window that reaches it), to prove
/// that a crash leaves the window before or the window after, never half of one.
enum WindowCrashPoint: String, Sendable {
    /// Step ②: the window's events are coalesced; nothing is written.
    case coalesced
    /// Step ③ done: the window's new items are extracted; its transaction is about to be written.
    case extracted
    /// Step ④ done: the window's transaction is written.
    case committed

    #if DEBUG
    /// The point and window asked for, if any. Only in debug builds (tests): a release build
    /// has no such hook.
    private static let request: (point: String, window: Int)? = {
        guard let value = ProcessInfo.processInfo.environment["SEARCHLIGHT_TEST_CRASH"] else { return nil }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let window = Int(parts[1]) else { return nil }
        return (String(parts[0]), window)
    }()
    /// Windows that reached each point, in this process.
    private static let windowsSeen = Mutex([String: Int]())
    #endif

    /// Kills the process with SIGKILL if this is the point and window asked for.
    /// - Parameter window: What the window holds, logged with each window counted: a test that
    ///   finds another window than its own killed can tell which one it was.
    func reach(logger: Logger, window: @autoclosure () -> String = "") {
        #if DEBUG
        guard let request = Self.request, request.point == rawValue else { return }
        let seen = Self.windowsSeen.withLock { counts in
            counts[rawValue, default: 0] += 1
            return counts[rawValue]!
        }
        logger.notice("test crash point \(rawValue): window \(seen) \(window())")
        if seen == request.window {
            logger.notice("test crash point \(rawValue) of window \(seen)")
            try? SystemCall.send(SIGKILL, to: SystemCall.processID)
        }
        #endif
    }
}
