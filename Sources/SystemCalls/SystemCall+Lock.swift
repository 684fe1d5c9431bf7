#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

extension SystemCall {
    /// What ``lock(_:_:)`` takes.
    public enum LockKind: Sendable {
        /// One holder at a time (`LOCK_EX`).
        case exclusive
        /// Any number of holders, but no exclusive one (`LOCK_SH`).
        case shared
    }

    /// Takes the advisory lock of the open file `descriptor` without waiting: `false` when
    /// another open file description holds a lock that conflicts (`EWOULDBLOCK`). The kernel
    /// drops the lock when the last descriptor of the description is closed, however the
    /// process ends. The corresponding C function is `flock(2)` with `LOCK_NB`.
    public static func lock(_ descriptor: Int32, _ kind: LockKind) throws(Errno) -> Bool {
        let operation = (kind == .exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB
        do {
            _ = try retryingOnInterrupt { flock(descriptor, operation) }
            return true
        } catch where error == .wouldBlock {
            return false
        }
    }

    /// Releases the lock ``lock(_:_:)`` took. The corresponding C function is `flock(2)` with `LOCK_UN`.
    public static func unlock(_ descriptor: Int32) {
        _ = try? retryingOnInterrupt { flock(descriptor, LOCK_UN) }
    }
}
