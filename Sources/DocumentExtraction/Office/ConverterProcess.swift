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
        searchFolders.map { "\($0)/\(name)" }.first { SystemCall.isExecutable($0) }
    }

    /// Starts the program with `/dev/null` as input and error output, and reads its output.
    /// The corresponding C functions are `posix_spawn(3)`, `poll(2)` and `waitpid(2)`.
    func run() throws(ExtractionFailure) -> Output {
        guard let path = Self.locate(program) else {
            throw ExtractionFailure(.internalError, "\(program) is not installed")
        }
        // Close-on-exec: the worker's other descriptors (its request channel) must not leak into the child.
        let (readEnd, writeEnd): (Int32, Int32)
        do {
            (readEnd, writeEnd) = try SystemCall.pipe()
        } catch {
            throw ExtractionFailure(.internalError, "pipe: \(error)")
        }
        defer { SystemCall.close(readEnd) }
        var options = SystemCall.SpawnOptions()
        (options.standardInput, options.standardOutput, options.standardError) = (.null, .descriptor(writeEnd), .null)
        if let inheritedDescriptor { options.extraDescriptors = [(inheritedDescriptor, 3)] }
        // Its own process group, so that a kill reaches whatever it starts.
        options.ownProcessGroup = true
        let pid: Int32
        do {
            pid = try SystemCall.spawn(path, arguments: ([path] + arguments).map { Array($0.utf8) }, options: options)
            SystemCall.close(writeEnd)
        } catch {
            SystemCall.close(writeEnd)
            throw ExtractionFailure(.internalError, "cannot start \(program): \(error)")
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
            guard let ready = try? SystemCall.poll(readEnd, for: SystemCall.readable, milliseconds: milliseconds) else { break }
            if ready == 0 { continue }
            guard let count = try? buffer.withUnsafeMutableBytes({ raw in
                Result { () throws(Errno) in try SystemCall.read(readEnd, into: raw) }
            }).get() else { break }
            if count == 0 { break reading }
            let room = outputLimit - output.count
            output.append(contentsOf: buffer[..<min(count, room)])
            if count > room {
                truncated = true
                break
            }
        }
        if timedOut || truncated { try? SystemCall.send(SystemCall.Signal.kill, toGroup: pid) }
        let exitStatus = (try? SystemCall.waitForExit(of: pid)) ?? nil
        if timedOut {
            throw ExtractionFailure(.decodeFailed, "\(program) did not finish within \(deadline)")
        }
        // A program stopped because its output was long enough has done its job.
        if !truncated, exitStatus != .exited(0) {
            throw ExtractionFailure(.decodeFailed, "\(program) could not read the file (\(exitStatus.map(\.description) ?? "status unknown"))")
        }
        return Output(bytes: output, isTruncated: truncated)
    }
}
