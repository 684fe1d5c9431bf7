import NIOCore
import SystemCalls

/// Which addresses count as this machine's own: the server listens on them without a token,
/// and only their peers may open files on the desktop.
public enum ServerAddress {
    /// Whether `host` (a name or a literal address) is a loopback address: `localhost`,
    /// 127.0.0.0/8 or `::1`.
    public static func isLoopback(_ host: String) -> Bool { SystemCall.isLoopbackHost(host) }

    /// Whether a peer's socket address is a loopback address (an IPv4-mapped 127.x included).
    public static func isLoopback(_ address: SocketAddress) -> Bool {
        guard let ip = address.ipAddress else { return false }
        if ip.hasPrefix("::ffff:") { return isLoopback(String(ip.dropFirst(7))) }
        return isLoopback(ip)
    }

    /// The host part of a `Host` header (`name`, `name:port`, `[v6]:port`).
    static func hostPart(ofHeader header: String) -> String {
        if header.hasPrefix("["), let end = header.firstIndex(of: "]") {
            return String(header[header.startIndex...end])
        }
        return String(header.split(separator: ":", maxSplits: 1).first ?? "")
    }
}
