import Searchlight
import SystemCalls
import SystemPackage

/// A failed file-system call: which call, on which path, and the errno it set. Prints as one line.
public struct FileSystemError: Error, Sendable, CustomStringConvertible {
    /// The system call or operation, such as `open` or `statx`.
    public var operation: String
    /// The path involved, as raw bytes relative to the root (or absolute), when there is one.
    public var path: ItemIdentifier?
    /// The errno the call set, captured right after it.
    public var errno: Errno

    public init(_ operation: String, path: ItemIdentifier? = nil, errno: Errno) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// Whether the path is gone, or a folder on the way is not a folder (any more).
    public var isNoSuchFile: Bool { errno == .noSuchFileOrDirectory || errno == .notDirectory }

    public var description: String {
        if let path { return "\(operation) \(path.lossyString.debugDescription): \(errno)" }
        return "\(operation): \(errno)"
    }
}

extension FileSystemError {
    /// Runs `call`, a ``SystemCall`` wrapper: what it returns, or its `Errno` as the failure
    /// of `operation` on `path` (the context the wrapper does not know).
    @inline(__always)
    static func attributing<T>(
        _ operation: String, path: ItemIdentifier? = nil, _ call: () throws(Errno) -> T
    ) throws(FileSystemError) -> T {
        do {
            return try call()
        } catch {
            throw FileSystemError(operation, path: path, errno: error)
        }
    }
}
