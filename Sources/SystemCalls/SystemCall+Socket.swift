#if canImport(Glibc)
import Glibc
#endif
internal import CShimFileSystem
import SystemPackage

extension SystemCall {
    /// Whether `host` (a name or an address, an IPv6 one with or without its brackets) stays on
    /// this machine: `localhost`, an address of `127.0.0.0/8`, or `::1`. A rule, no look-up:
    /// another name that resolves to a loopback address is not recognized.
    ///
    /// Only the full dotted form of an IPv4 address counts (`127.1` does not), and of IPv6 only
    /// `::1` and its long form (not `::ffff:127.0.0.1`). Both the server's addresses and the
    /// PostgreSQL index's use this one rule.
    ///
    /// ```swift
    /// SystemCall.isLoopbackHost("[::1]")       // true
    /// SystemCall.isLoopbackHost("127.0.0.53")  // true
    /// SystemCall.isLoopbackHost("0.0.0.0")     // false: every address, not only this machine's
    /// ```
    public static func isLoopbackHost(_ host: String) -> Bool {
        var host = host.lowercased()
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// Sends `message` as one datagram to the Unix socket at `path` ("@name" for the abstract
    /// namespace), without blocking: `EAGAIN` (or `ENOBUFS`) when the receiver's queue is
    /// full. The corresponding C functions are `socket(2)` and `sendto(2)` with `MSG_DONTWAIT`.
    ///
    /// A socket is made and closed for each datagram: cheap enough for systemd's notifications,
    /// a handful per minute.
    ///
    /// - Throws: `ENAMETOOLONG` for a path longer than a socket address holds, else the
    ///   `Errno` of `socket` or `sendto` (`ECONNREFUSED` or `ENOENT` when nobody listens).
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

    /// Whether something on this machine accepts TCP connections on `port` of 127.0.0.1 (the
    /// connection is closed at once). The corresponding C functions are `socket(2)` and `connect(2)`.
    public static func acceptsLoopbackConnections(port: Int) -> Bool {
        (try? connectToLoopback(port: port)) != nil
    }

    /// Opens a TCP connection to `port` of 127.0.0.1 and closes it at once: why that failed,
    /// if it did. The corresponding C functions are `socket(2)` and `connect(2)`.
    ///
    /// Blocks until the connection is made or refused, which on loopback is at once.
    public static func connectToLoopback(port: Int) throws(Errno) {
        let socket = try checked { Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(clamping: port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        _ = try checked {
            withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    /// Sends what `bytes` holds on the connected socket `socket` without waiting (`EAGAIN`
    /// when its buffer is full) and without `SIGPIPE` (`EPIPE` instead): how many bytes went.
    /// The corresponding C function is `send(2)` with `MSG_DONTWAIT | MSG_NOSIGNAL`.
    public static func send(_ socket: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try retryingOnInterrupt { Glibc.send(socket, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
    }

    /// Receives up to `buffer.count` bytes from the socket `socket` without waiting (`EAGAIN`
    /// when none are there): how many, 0 when the other end closed.
    /// The corresponding C function is `recv(2)` with `MSG_DONTWAIT`.
    public static func receive(_ socket: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retryingOnInterrupt { recv(socket, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT)) }
    }

    /// Closes the sending direction of `socket`: the other end reads the end of the stream.
    /// The corresponding C function is `shutdown(2)` with `SHUT_WR`.
    public static func shutdownSending(_ socket: Int32) {
        _ = Glibc.shutdown(socket, Int32(SHUT_WR))
    }

    /// Sends what `bytes` holds on the connected Unix socket `socket` as ``send(_:_:)`` does,
    /// with the open descriptor `passed` attached (`SCM_RIGHTS`): the receiver gets a
    /// descriptor of its own for the same open file, and needs no right to open it by name.
    /// The corresponding C function is `sendmsg(2)`.
    public static func send(_ socket: Int32, _ bytes: UnsafeRawBufferPointer, passing passed: Int32) throws(Errno) -> Int {
        try retryingOnInterrupt { cfs_send_with_descriptor(socket, bytes.baseAddress, bytes.count, passed) }
    }

    /// Receives up to `buffer.count` bytes from the socket `socket`, waiting for them, and the
    /// descriptor that came with them (`SCM_RIGHTS`, close-on-exec), if any: how many bytes (0
    /// when the other end closed). The corresponding C function is `recvmsg(2)`.
    public static func receiveWithDescriptor(
        _ socket: Int32, into buffer: UnsafeMutableRawBufferPointer
    ) throws(Errno) -> (count: Int, descriptor: Int32?) {
        var passed: Int32 = -1
        let count = try retryingOnInterrupt { cfs_receive_with_descriptor(socket, buffer.baseAddress, buffer.count, &passed) }
        return (count, passed >= 0 ? passed : nil)
    }
}
