import SystemPackage

/// Why a watch stopped. Prints as one line.
public struct WatchError: Error, Sendable, CustomStringConvertible {
    /// What happened.
    public enum Reason: Sendable, Equatable {
        /// The root was deleted, moved away or unmounted.
        case rootGone(root: String)
        /// Another watch of the domain runs (it holds the domain's ``WatchLock``).
        case alreadyWatched(domain: String)
        /// The lock file cannot be opened or locked.
        case lock(path: String, errno: Errno)
    }

    /// What happened.
    public var reason: Reason

    public init(_ reason: Reason) { self.reason = reason }

    /// The root was deleted, moved away or unmounted.
    static func rootGone(_ root: String) -> WatchError { WatchError(.rootGone(root: root)) }

    /// Another watch of the domain runs (it holds the domain's ``WatchLock``).
    static func alreadyWatched(_ domain: String) -> WatchError { WatchError(.alreadyWatched(domain: domain)) }

    /// The lock file cannot be opened or locked.
    static func lock(_ path: String, errno: Errno) -> WatchError { WatchError(.lock(path: path, errno: errno)) }

    public var description: String {
        switch reason {
        case .rootGone(let root):
            "the watched folder \(root) was deleted or moved away; the index is left as it was, "
                + "so a restart on its new place reconciles it"
        case .alreadyWatched(let domain):
            "another `watch` of \(domain) is running (it holds its lock)"
        case .lock(let path, let errno):
            "cannot lock \(path): \(errno)"
        }
    }
}
