#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

extension SystemCall {
    /// Sends `message` as one datagram to the Unix socket at `path` ("@name" for the abstract
    /// namespace), without blocking: `EAGAIN` (or `ENOBUFS`) when the receiver's queue is
    /// full. The corresponding C functions are `socket(2)` and `sendto(2)` with `MSG_DONTWAIT`.
    public static func sendDatagram(_ message: some Collection<UInt8>, toUnixSocket path: some Collection<UInt8>) throws(Errno) {
        var path = Array(path)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        guard path.count < MemoryLayout.size(ofValue: address.sun_path) else { throw .fileNameTooLong }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count)
        let socket = try checked { Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        defer { close(socket) }
        let message = Array(message)
        _ = try retryingOnInterrupt {
            withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                    message.withUnsafeBytes {
                        sendto(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT), socketAddress, length)
                    }
                }
            }
        }
    }
}
