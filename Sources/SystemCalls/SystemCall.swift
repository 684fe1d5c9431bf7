#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// The one place where a system call's failure becomes an `Errno`, and where `EINTR` is retried
/// (as swift-system's `valueOrErrno(retryOnInterrupt:)` does for its own calls).
///
/// ```swift
/// let count = try SystemCall.retryingOnInterrupt { read(descriptor, buffer, size) }
/// ```
public enum SystemCall {
    /// Runs `call`, a C function that returns a negative value and sets `errno` on failure,
    /// again while it fails with `EINTR`. Returns what it returned, or throws the `errno`
    /// captured right after the failing call (never later, when another call may have
    /// changed it).
    @inlinable
    public static func retryingOnInterrupt<T: FixedWidthInteger & SignedInteger>(
        _ call: () -> T
    ) throws(Errno) -> T {
        while true {
            let result = call()
            if result >= 0 { return result }
            let code = Errno(rawValue: errno)
            if code != .interrupted { throw code }
        }
    }

    /// Runs `call` once: what it returned, or the `errno` captured right after it failed.
    @inlinable
    public static func checked<T: FixedWidthInteger & SignedInteger>(_ call: () -> T) throws(Errno) -> T {
        let result = call()
        if result >= 0 { return result }
        throw Errno(rawValue: errno)
    }

    /// Waits up to `milliseconds` for `events` on `descriptor` (`poll(2)`). Returns the events
    /// that occurred: none when the time ran out or a signal interrupted the wait (the caller
    /// asks again with the time it has left).
    @inlinable
    public static func poll(_ descriptor: Int32, for events: Int16, milliseconds: Int32) throws(Errno) -> Int16 {
        var entry = pollfd(fd: descriptor, events: events, revents: 0)
        do {
            return try checked { Glibc.poll(&entry, 1, milliseconds) } == 0 ? 0 : entry.revents
        } catch where error == .interrupted {
            return 0
        }
    }

    /// ``poll(_:for:milliseconds:)``'s events: data to read (or end of file).
    public static let readable = Int16(POLLIN)
    /// ``poll(_:for:milliseconds:)``'s events: room to write.
    public static let writable = Int16(POLLOUT)

    /// The `errno` the last call set, as an `Errno`: for the few calls whose failure is not a
    /// negative result (`opendir`, `readdir`, `realpath`). Read it right after the call.
    @inlinable
    public static var lastError: Errno { Errno(rawValue: errno) }
}

extension SystemCall {
    /// Replaces this process with the program at `path`, given `arguments` (the first is its
    /// name); returns only when that fails, with why. The corresponding C function is `execv(3)`.
    public static func replaceProcess(with path: String, arguments: [[UInt8]]) -> Errno {
        withCStrings(arguments) { argv in
            execv(path, mutableStrings(argv))
            return lastError
        }
    }

    /// The arguments of this process as the kernel gave them: `CommandLine.arguments` has
    /// replaced bytes that are not UTF-8, and a file name need not be UTF-8.
    public static var rawArguments: [[UInt8]] {
        (0..<Int(CommandLine.argc)).map { position in
            CommandLine.unsafeArgv[position].map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? []
        }
    }

    /// A C string array as `execv(3)` and `posix_spawn(3)` declare it (`char *const argv[]`,
    /// which they do not write to).
    static func mutableStrings(_ strings: UnsafeBufferPointer<UnsafePointer<CChar>?>) -> UnsafePointer<UnsafeMutablePointer<CChar>?> {
        UnsafeRawPointer(strings.baseAddress!).assumingMemoryBound(to: UnsafeMutablePointer<CChar>?.self)
    }

    /// Runs `arguments` (the program found through `PATH`), with standard input and output
    /// on `/dev/null` when `quiet`, and waits for it on the calling thread: its exit status
    /// (128 + the signal's number when a signal ended it), or `nil` when it cannot be
    /// started. The corresponding C functions are `posix_spawnp(3)` and `waitpid(2)`.
    ///
    /// Foundation's `Process` is not used: it learns of a child's exit from a SIGCHLD handler
    /// run on a dispatch queue, which a busy machine's few threads may never reach.
    public static func spawnAndWait(_ arguments: [[UInt8]], quiet: Bool = false) -> Int32? {
        guard let program = arguments.first else { return nil }
        var options = SpawnOptions()
        options.searchesPath = true
        if quiet { (options.standardInput, options.standardOutput, options.standardError) = (.null, .null, .null) }
        guard let process = try? spawn(String(decoding: program, as: UTF8.self), arguments: arguments, options: options),
              let status = try? waitForExit(of: process) else { return nil }
        return status.shellStatus
    }
}
