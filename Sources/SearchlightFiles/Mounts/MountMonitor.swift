import Foundation
import Synchronization
import SystemCalls

/// Tells whoever listens that the mount table changed: a filesystem was mounted or unmounted
/// (`/proc/self/mountinfo` polled for `POLLPRI`, proc(5)). One thread for the process, started
/// by the first listener.
///
/// The thread wakes at least once a second and otherwise sleeps in `poll(2)`; a change costs
/// a read of the mount table and a call of each listener. When `/proc/self/mountinfo` cannot
/// be opened (no `/proc`), the thread ends at once and listeners are never called.
///
/// ```swift
/// let number = MountMonitor.shared.add { print("the mount table changed") }
/// defer { MountMonitor.shared.remove(number) }
/// ```
public final class MountMonitor: Sendable {
    /// The process's monitor.
    public static let shared = MountMonitor()

    /// The listeners by number, the next number, whether the thread runs, and the changes seen.
    private struct State {
        var listeners: [Int: @Sendable () -> Void] = [:]
        var next = 0
        var started = false
        /// Changes seen so far.
        var generation = 0
    }

    /// Shared by the polling thread and the callers of ``add(_:)`` and ``remove(_:)``.
    private let state = Mutex(State())

    /// Changes of the mount table seen since the monitor started.
    ///
    /// A caller that remembers it can tell, later, whether anything was mounted or unmounted
    /// meanwhile without being a listener.
    public var generation: Int { state.withLock { $0.generation } }

    /// Calls `listener` (on the monitor's thread) after each change of the mount table;
    /// returns the number that ``remove(_:)`` takes.
    ///
    /// The listener runs on the monitor's thread, without its lock held; it should return
    /// quickly (a watcher's only pokes its loop).
    public func add(_ listener: @escaping @Sendable () -> Void) -> Int {
        let (number, start) = state.withLock { state in
            defer { state.next += 1; state.started = true }
            state.listeners[state.next] = listener
            return (state.next, !state.started)
        }
        if start {
            let thread = Thread { [self] in watch() }
            thread.name = "searchlight-mounts"
            thread.start()
        }
        return number
    }

    /// Stops calling the listener that ``add(_:)`` numbered `number`; the polling thread goes on.
    public func remove(_ number: Int) {
        state.withLock { _ = $0.listeners.removeValue(forKey: number) }
    }

    /// Polls the mount table for as long as the process lives.
    private func watch() {
        guard let descriptor = try? SystemCall.open(Array("/proc/self/mountinfo".utf8), .readOnly) else { return }
        // Read once: the kernel reports a change since the last read.
        _ = try? SystemCall.readBytes(descriptor, limit: 16 << 20, at: 0)
        while true {
            // A bounded wait: a change is seen at once, and the thread never blocks for good.
            let events = (try? SystemCall.poll(descriptor, for: Int16(POLLPRI), milliseconds: 1000)) ?? 0
            guard events & Int16(POLLPRI | POLLERR) != 0 else { continue }
            _ = try? SystemCall.readBytes(descriptor, limit: 16 << 20, at: 0)
            let listeners = state.withLock { state in
                state.generation += 1
                return Array(state.listeners.values)
            }
            for listener in listeners { listener() }
        }
    }
}
