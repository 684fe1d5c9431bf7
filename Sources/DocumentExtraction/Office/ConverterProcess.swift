#if canImport(Glibc)
import Glibc
#endif
import ExtractionProtocol
import SystemCalls
import SystemPackage

/// Runs a converter program (Debian's `catdoc`, `xls2csv`, `catppt`) on a file and collects
/// what it prints, within a deadline and an output cap: the program is killed when either is
/// exceeded, so a converter stuck on a hostile file cannot outlive the worker's own deadline.
struct ConverterProcess {
    /// Programs are looked up in these folders only, not in `PATH`.
    static let searchFolders = ["/usr/bin", "/usr/local/bin", "/bin"]

    var program: String
    var arguments: [String]
    /// At most this long, then SIGKILL.
    var deadline: Duration
    /// At most this many bytes of standard output are kept; more stops the program.
    var outputLimit: Int
    /// A descriptor the program gets as its descriptor 3 (``inheritedPath``), such as the
    /// document the worker opened with `O_CLOEXEC`.
    var inheritedDescriptor: Int32?

    /// The name under which the program finds ``inheritedDescriptor``.
    static let inheritedPath = "/proc/self/fd/3"

    struct Output {
        var bytes: [UInt8]
        /// The program printed more than the limit and was stopped.
        var isTruncated: Bool
    }

    /// Finds `name` in ``searchFolders``.
    static func locate(_ name: String) -> String? {
        searchFolders.map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }

    /// Starts the program with `/dev/null` as input and error output, and reads its output.
    /// The corresponding C functions are `posix_spawn(3)`, `poll(2)` and `waitpid(2)`.
    func run() throws(ExtractionFailure) -> Output {
        guard let path = Self.locate(program) else {
            throw ExtractionFailure(.internalError, "\(program) is not installed")
        }
        var pipeEnds: [Int32] = [-1, -1]
        do {
            _ = try SystemCall.checked { pipe(&pipeEnds) }
        } catch {
            throw ExtractionFailure(.internalError, "pipe: \(error)")
        }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        // The worker's other descriptors (its request channel) must not leak into the child.
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        defer { close(readEnd) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        if let inheritedDescriptor {
            // dup2 gives the copy no close-on-exec flag (glibc clears it when the numbers match).
            posix_spawn_file_actions_adddup2(&actions, inheritedDescriptor, 3)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group, so that a kill reaches whatever it starts.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        close(writeEnd)
        guard status == 0 else {
            throw ExtractionFailure(.internalError, "cannot start \(program): \(Errno(rawValue: status))")
        }

        var output: [UInt8] = []
        var truncated = false
        var timedOut = false
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: deadline)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        reading: while true {
            let remaining = clock.now.duration(to: end)
            guard remaining > .zero else {
                timedOut = true
                break
            }
            let milliseconds = Int32(clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            guard let ready = try? SystemCall.poll(readEnd, for: Int16(POLLIN), milliseconds: milliseconds) else { break }
            if ready == 0 { continue }
            guard let count = try? SystemCall.retryingOnInterrupt({
                buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            }) else { break }
            if count == 0 { break reading }
            let room = outputLimit - output.count
            output.append(contentsOf: buffer[..<min(count, room)])
            if count > room {
                truncated = true
                break
            }
        }
        if timedOut || truncated { kill(-pid, SIGKILL) }
        var exitStatus: Int32 = 0
        _ = try? SystemCall.retryingOnInterrupt { waitpid(pid, &exitStatus, 0) }
        if timedOut {
            throw ExtractionFailure(.decodeFailed, "\(program) did not finish within \(deadline)")
        }
        // A program stopped because its output was long enough has done its job.
        if !truncated, !(exitStatus & 0x7F == 0 && (exitStatus >> 8) & 0xFF == 0) {
            throw ExtractionFailure(.decodeFailed, "\(program) could not read the file (exit status \((exitStatus >> 8) & 0xFF))")
        }
        return Output(bytes: output, isTruncated: truncated)
    }
}
