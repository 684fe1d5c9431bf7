import Synchronization
import SystemCalls
import SystemPackage

/// Sends service state to systemd over `$NOTIFY_SOCKET` (`READY=1`, `STATUS=…`, `STOPPING=1`),
/// as `sd_notify(3)` does. Does nothing when the variable is not set.
///
/// Notification is best effort and never blocks: a supervisor that stops reading (one that
/// only waits for `READY=1`, or PID 1 during a boot storm) lets the kernel's queue of the
/// socket fill, and a blocking `sendto(2)` would then stall the caller — the watcher's window
/// thread — for good. A message that finds the queue full is dropped and counted
/// (``droppedCount``); `READY=1` and `STOPPING=1`, which a supervisor waits for, get a few
/// short, bounded retries first.
public struct SystemdNotifier: Sendable {
    let socketPath: [UInt8]?
    private let drops = DropCounter()

    /// A notifier for `$NOTIFY_SOCKET`, or a silent one when it is unset.
    public init(environment: [String: String]) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : Array($0.utf8) }
    }

    /// Whether systemd asked for notifications.
    public var isEnabled: Bool { socketPath != nil }

    /// Messages dropped because the supervisor's queue was full (or the socket was gone).
    public var droppedCount: Int { drops.value }

    /// Sends one or more `KEY=value` lines, without ever blocking. A message that cannot be
    /// queued is dropped and counted; one that carries `READY=1` or `STOPPING=1` is retried
    /// for at most about 50 ms first.
    /// The corresponding C functions are `socket(2)` and `sendto(2)` with `MSG_DONTWAIT`.
    public func notify(_ state: String) {
        guard let path = socketPath else { return }
        let essential = state.contains("READY=1") || state.contains("STOPPING=1")
        let attempts = essential ? 10 : 1
        for attempt in 0..<attempts {
            switch Self.send(Array(state.utf8), to: path) {
            case .sent: return
            case .failed: drops.increment(); return
            case .queueFull:
                guard attempt + 1 < attempts else { break }
                SystemCall.sleep(nanoseconds: 5_000_000)
            }
        }
        drops.increment()
    }

    private enum Outcome { case sent, queueFull, failed }

    /// One non-blocking datagram to the socket at `path`.
    private static func send(_ message: [UInt8], to path: [UInt8]) -> Outcome {
        do {
            try SystemCall.sendDatagram(message, toUnixSocket: path)
            return .sent
        } catch {
            return error == .wouldBlock || error == .resourceTemporarilyUnavailable || error == .noBufferSpace ? .queueFull : .failed
        }
    }
}

/// The count of dropped notifications, shared by every copy of one notifier.
private final class DropCounter: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
    func increment() { count.add(1, ordering: .relaxed) }
}
