import Glibc

/// Sends service state to systemd over `$NOTIFY_SOCKET` (`READY=1`, `STATUS=…`, `STOPPING=1`),
/// as `sd_notify(3)` does. Does nothing when the variable is not set.
public struct SystemdNotifier: Sendable {
    let socketPath: [UInt8]?

    /// A notifier for `$NOTIFY_SOCKET`, or a silent one when it is unset.
    public init(environment: [String: String]) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : Array($0.utf8) }
    }

    /// Whether systemd asked for notifications.
    public var isEnabled: Bool { socketPath != nil }

    /// Sends one or more `KEY=value` lines. Failures are ignored: notification is best effort.
    /// The corresponding C functions are `socket(2)` and `sendto(2)`.
    public func notify(_ state: String) {
        guard var path = socketPath else { return }
        // "@name" is a socket in the abstract namespace: a leading NUL.
        if path.first == UInt8(ascii: "@") { path[0] = 0 }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path)
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count)
        let message = Array(state.utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                message.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), socketAddress, length) }
            }
        }
    }
}
