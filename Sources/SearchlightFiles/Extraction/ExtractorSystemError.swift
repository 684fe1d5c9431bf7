import SystemPackage

/// A system call that failed while supervising extraction workers.
public struct ExtractorSystemError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The call, such as `posix_spawn` or `socketpair`.
    public var operation: String
    /// The error number captured right after the call.
    public var errno: Errno
    /// The file concerned, if any (the extractor executable).
    public var path: FilePath?

    public init(_ operation: String, errno: Errno, path: FilePath? = nil) {
        self.operation = operation
        self.errno = errno
        self.path = path
    }

    public var description: String {
        if let path { return "\(operation) \(path): \(errno)" }
        return "\(operation): \(errno)"
    }
}
