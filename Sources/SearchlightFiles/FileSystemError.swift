import Glibc
import Searchlight

/// A failed file-system call: which call, on which path, and the errno it set. Prints as one line.
public struct FileSystemError: Error, Sendable, CustomStringConvertible {
    /// The system call or operation, such as `open` or `statx`.
    public var operation: String
    /// The path involved, as raw bytes relative to the root (or absolute), when there is one.
    public var path: ItemIdentifier?
    /// The errno the call set.
    public var errno: Int32

    public init(_ operation: String, path: ItemIdentifier? = nil, errno: Int32) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// The system's text for ``errno``.
    public var reason: String { String(cString: strerror(errno)) }

    public var description: String {
        if let path { return "\(operation) \(path.lossyString.debugDescription): \(reason)" }
        return "\(operation): \(reason)"
    }
}

/// Calls `body` again while it fails with EINTR; returns its result, or throws with the errno
/// captured right after the failing call.
@inline(__always)
func retryingOnInterrupt<T: BinaryInteger>(
    _ operation: String, path: ItemIdentifier? = nil, _ body: () -> T
) throws(FileSystemError) -> T {
    while true {
        let result = body()
        if result >= 0 { return result }
        let code = Glibc.errno
        if code != EINTR { throw FileSystemError(operation, path: path, errno: code) }
    }
}
