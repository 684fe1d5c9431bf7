import Glibc
import SearchlightCommands

/// "More results": the search page of `searchlight serve` at `http://127.0.0.1:PORT/?q=…`,
/// opened with the desktop's browser; when no server answers there, `searchlight-serve serve`
/// (next to this executable) is started in the background on the index, in a session of its
/// own so that it outlives this process.
struct PageLauncher {
    let location: String
    let port: Int
    /// `searchlight-serve`.
    let serveExecutable: String
    /// How long a starting server may take to answer.
    static let startDeadline: Duration = .seconds(15)

    func open(terms: [String]) throws(DesktopError) {
        if !answers() {
            guard start() else { throw .failed("cannot run \(serveExecutable)") }
            let clock = ContinuousClock()
            let deadline = clock.now + Self.startDeadline
            while !answers() {
                guard clock.now < deadline else {
                    throw .failed("searchlight serve did not answer on port \(port) within \(Self.startDeadline)")
                }
                usleep(50_000)
            }
        }
        do {
            try FileOpener.open(url: url(terms: terms))
        } catch {
            throw .failed(error.description)
        }
    }

    /// The page's address for the terms, joined by spaces and percent-encoded.
    func url(terms: [String]) -> String {
        let encoded = FileURI.percentEncoded(terms.joined(separator: " ").utf8, keeping: FileURI.isUnreserved)
        return "http://127.0.0.1:\(port)/?q=\(encoded)"
    }

    /// Whether something accepts connections on the port. The corresponding C function is `connect(2)`.
    func answers() -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// glibc's `POSIX_SPAWN_SETSID`, which its `spawn.h` declares only under `_GNU_SOURCE`.
    private static let spawnNewSession: Int16 = 0x80

    /// Starts the server, its output to /dev/null, in a new session. The corresponding C
    /// function is `posix_spawn(3)` with `POSIX_SPAWN_SETSID`.
    private func start() -> Bool {
        let arguments = [serveExecutable, "serve", "--port", String(port), "--index", location]
        let copies = arguments.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var argv: [UnsafeMutablePointer<CChar>?] = copies + [nil]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Self.spawnNewSession)
        var pid: pid_t = 0
        return posix_spawn(&pid, serveExecutable, &actions, &attributes, &argv, environ) == 0
    }
}
