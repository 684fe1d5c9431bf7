import SystemPackage

/// Why the worker cannot go on, shaped as every subsystem's error is
/// (Docs/Architecture.md#errors): a ``code``, a ``message`` naming the call or the argument,
/// and the `errno` (``cause``) captured right after the failing call. Prints as one line:
/// `setrlimit(RLIMIT_AS, 1024): Invalid argument`.
///
/// A file it cannot read is no such error: that is the request's ``ExtractionFailure``.
struct WorkerError: Error, CustomStringConvertible {
    /// What kind of failure this is.
    enum Code: Hashable {
        /// An argument the worker does not accept: exit status 64.
        case usage
        /// A system call failed: exit status 1.
        case systemCall
    }

    /// The kind of failure.
    var code: Code
    /// The call (`read`, `setrlimit(RLIMIT_AS, 1024)`), or what is wrong with the arguments.
    var message: String
    /// The system call's error, captured right after it; `nil` for a usage error.
    var cause: Errno?

    /// A failed system call, `operation`, which set `errno`.
    init(_ operation: String, errno: Errno) {
        code = .systemCall
        message = operation
        cause = errno
    }

    private init(usage message: String) {
        code = .usage
        self.message = message
    }

    /// An argument the worker does not accept.
    static func usage(_ message: String) -> WorkerError { WorkerError(usage: message) }

    /// 64 for a usage error, 1 for a failed system call.
    var exitStatus: Int32 { code == .usage ? 64 : 1 }

    /// The message, then the `errno` after a colon.
    var description: String { cause.map { "\(message): \($0)" } ?? message }
}
