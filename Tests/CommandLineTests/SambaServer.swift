import Foundation
import Glibc
import SearchlightTestSupport
import Testing

/// A real `smbd` (Debian's `samba`) of the test's own: a private configuration whose state,
/// locks, caches, password database and sockets all live in a temporary folder, listening on
/// port 445 of a loopback address of its own (127.x.y.z; Samba 4.17's clients, `mdsearch`
/// among them, only ever connect to port 445 or 139), with one share whose Spotlight searches
/// go to an Elasticsearch endpoint.
///
/// `smbd` starts `samba-dcerpcd` and its `rpcd_mdssvc` worker on demand; ``stop()`` ends
/// them too, found by the private configuration's path on their command lines.
final class SambaServer {
    let work = TemporaryTree("samba")
    /// The loopback address smbd listens on.
    let address: String
    var configuration: String { work.path + "/smb.conf" }
    private var smbd: ChildProcess?

    /// Whether this machine has what the test needs: root (smbd changes to each person),
    /// `smbd`, `smbpasswd`, `mdsearch` and `useradd`.
    static var isAvailable: Bool { unavailableReason == nil }

    static var unavailableReason: String? {
        if getuid() != 0 { return "smbd runs as root to act as each person (CI runs the tests as root)" }
        for program in ["/usr/sbin/smbd", "/usr/bin/smbpasswd", "/usr/bin/mdsearch", "/usr/sbin/useradd"]
        where access(program, X_OK) != 0 {
            return "\(program) is missing: .ci/install-dependencies installs samba and smbclient"
        }
        return nil
    }

    /// Writes the configuration: share `share` over `path`, Spotlight answered by the
    /// Elasticsearch endpoint at 127.0.0.1:`elasticsearchPort`.
    init(share: String, path: String, elasticsearchPort: Int) {
        var generator = SystemRandomNumberGenerator()
        address = "127.\(UInt8.random(in: 1...254, using: &generator)).\(UInt8.random(in: 1...254, using: &generator))"
            + ".\(UInt8.random(in: 1...254, using: &generator))"
        let folders = ["private", "lock", "state", "cache", "pid", "ncalrpc", "log"]
        for folder in folders { work.mkdirs(folder) }
        let base = work.path
        let text = """
            [global]
              netbios name = SLTEST
              workgroup = WORKGROUP
              server role = standalone server
              interfaces = \(address)/8
              bind interfaces only = yes
              smb ports = 445
              disable netbios = yes
              private dir = \(base)/private
              lock directory = \(base)/lock
              state directory = \(base)/state
              cache directory = \(base)/cache
              pid directory = \(base)/pid
              ncalrpc dir = \(base)/ncalrpc
              log file = \(base)/log/log.%m
              passdb backend = tdbsam:\(base)/private/passdb.tdb
              load printers = no
              printcap name = /dev/null
              disable spoolss = yes
              spotlight backend = elasticsearch
              elasticsearch:address = 127.0.0.1
              elasticsearch:port = \(elasticsearchPort)
            [\(share)]
              path = \(path)
              spotlight = yes
              read only = yes

            """
        work.write("smb.conf", text)
    }

    /// Makes `name` a Unix user, unless it is one; returns whether it was made here.
    static func makeUnixUser(_ name: String) throws -> Bool {
        guard getpwnam(name) == nil else { return false }
        let made = try ChildProcess.run(["/usr/sbin/useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", name])
        try #require(made.status == 0, "useradd \(name): \(String(decoding: made.stderr, as: UTF8.self))")
        return true
    }

    /// Makes the Unix user `name` a Samba user of this server with `password`.
    func addUser(_ name: String, password: String) throws {
        let added = try ChildProcess.run(["/usr/bin/smbpasswd", "-c", configuration, "-a", "-s", name],
                                         input: Array("\(password)\n\(password)\n".utf8))
        try #require(added.status == 0, "smbpasswd -a \(name): \(String(decoding: added.stderr, as: UTF8.self))")
    }

    /// Starts smbd in the foreground and waits until it accepts connections on its address.
    /// In a process group of its own: on its way out smbd signals its whole group (`kill(0,
    /// SIGTERM)`), which with `--no-process-group` would be the test's.
    func start() throws {
        let process = try ChildProcess(["/usr/sbin/smbd", "-s", configuration, "--foreground",
                                        "--debug-stdout", "--debuglevel=1"],
                                       stdout: .file(work.path + "/log/smbd.out"), stderr: .file(work.path + "/log/smbd.err"))
        smbd = process
        let listening = waitUntil(timeout: 60, every: .milliseconds(20)) { !process.isRunning || Self.accepts(address, port: 445) }
        try #require(listening && process.isRunning,
                     "smbd did not listen on \(address):445: \(log("smbd.out").suffix(2000))")
    }

    /// What smbd wrote to `name` in its log folder.
    func log(_ name: String) -> String {
        (try? String(contentsOfFile: work.path + "/log/" + name, encoding: .utf8)) ?? ""
    }

    /// Asks `query` on `share` as `user` with Samba's own Spotlight client: the paths found
    /// (relative to the share, sorted), or `nil` when the search failed.
    func mdsearch(_ query: String, share: String, user: String, password: String) throws -> [String]? {
        let result = try ChildProcess.run(["/usr/bin/mdsearch", "-s", configuration, "-U", "\(user)%\(password)",
                                           address, share, query])
        guard result.status == 0 else { return nil }
        return String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init).sorted()
    }

    /// Stops smbd and the RPC daemons it started for this configuration.
    func stop() {
        guard let smbd else { return }
        smbd.terminate()
        smbd.waitUntilExit(timeout: 60)
        for pid in Self.processes(mentioning: configuration) { kill(pid, SIGTERM) }
        waitUntil(timeout: 30) { Self.processes(mentioning: configuration).isEmpty }
        for pid in Self.processes(mentioning: configuration) { kill(pid, SIGKILL) }
        self.smbd = nil
    }

    deinit { stop() }

    /// Whether a TCP connection to `address`:`port` succeeds.
    static func accepts(_ address: String, port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = in_port_t(UInt16(port).bigEndian)
        socketAddress.sin_addr.s_addr = inet_addr(address)
        return withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// The processes whose command line holds `text` (samba-dcerpcd and rpcd_* get the
    /// configuration file as `--configfile=PATH`).
    static func processes(mentioning text: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let pid = pid_t(entry), pid != getpid() else { return nil }
            // /proc files say they are empty: read until read(2) says the end.
            let descriptor = open("/proc/\(entry)/cmdline", O_RDONLY)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while case let count = buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }), count > 0 {
                bytes += buffer[0..<count]
            }
            let line = String(decoding: bytes.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
            return line.contains(text) ? pid : nil
        }
    }
}
