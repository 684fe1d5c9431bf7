import SystemPackage

/// Why the worker cannot go on, as one line: an argument it does not accept (exit status 64),
/// or a system call that failed, with the errno captured right after it (exit status 1).
/// A file it cannot read is no such error: that is the request's ``ExtractionFailure``.
struct WorkerError: Error, CustomStringConvertible {
    /// The call (`read`, `setrlimit(RLIMIT_AS, 1024)`), or what is wrong with the arguments.
    var message: String
    /// The system call's error; nil for a usage error.
    var errno: Errno?

    /// A failed system call.
    init(_ operation: String, errno: Errno) {
        message = operation
        self.errno = errno
    }

    private init(usage message: String) {
        self.message = message
    }

    /// An argument the worker does not accept.
    static func usage(_ message: String) -> WorkerError { WorkerError(usage: message) }

    /// 64 for a usage error, 1 for a failed system call.
    var exitStatus: Int32 { errno == nil ? 64 : 1 }

    var description: String { errno.map { "\(message): \($0)" } ?? message }
}
