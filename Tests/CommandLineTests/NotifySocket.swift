import Foundation
import Glibc

/// A real Unix datagram socket standing where systemd's `$NOTIFY_SOCKET` would be.
final class NotifySocket {
    let path: String
    private let descriptor: Int32

    init(path: String) {
        self.path = path
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        precondition(descriptor >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        precondition(bound == 0, "bind failed: \(errno)")
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    /// The next message, waiting at most `timeout` seconds.
    func receive(timeout: Int32 = 30_000) -> String? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, timeout) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
    }

    /// Messages until one contains `text`, or nil after the timeout.
    func receive(containing text: String) -> [String]? {
        var messages: [String] = []
        while let message = receive() {
            messages.append(message)
            if message.contains(text) { return messages }
        }
        return nil
    }
}
