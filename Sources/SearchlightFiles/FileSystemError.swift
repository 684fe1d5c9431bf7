import Searchlight
import SystemCalls
import SystemPackage

/// The folder indexer's error: a call on a file or folder, inotify, libmagic or a watch that
/// failed. One type for the whole of SearchlightFiles, shaped as every subsystem's error is
/// (Docs/Architecture.md#errors): a ``code`` to branch on, a ``message`` for people that names
/// the call and the path, the ``path`` itself, and the `errno` (``cause``) captured right
/// after the failing call, kept typed. Prints as one line:
///
/// ```
/// open "Documents/private": Permission denied
/// inotify_add_watch failed for /home/ann/Documents/big: No space left on device (the inotify watch limit is reached: raise the sysctl fs.inotify.max_user_watches)
/// ```
///
/// A failure the user did not cause: exit status 1, HTTP 500 (``ReportableError``'s defaults).
public struct FileSystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        /// A system call on a file, a folder or a process failed (`open`, `statx`, `readdir`,
        /// `posix_spawn`…): the message names it, the cause is its `errno`.
        public static let systemCall = Code(name: "system call failed")
        /// libmagic could not be loaded, or could not identify a file: the message is libmagic's.
        public static let inspection = Code(name: "inspection failed")
        /// The code's name, as a log line may print it.
        public var description: String { name }
    }

    /// The kind of failure.
    public var code: Code
    /// What failed, for people: the call, the path, what was being done (without the cause).
    public var message: String
    /// The path involved, as raw bytes relative to the root (or absolute), when there is one.
    public var path: ItemIdentifier?
    /// The `errno` the call set, captured right after it; `nil` when no system call failed.
    public var cause: Errno?

    /// Creates an error of kind `code`, saying `message`, about `path`, caused by `cause`.
    ///
    /// ```swift
    /// throw FileSystemError(.inspection, "cannot load the libmagic database")
    /// ```
    public init(_ code: Code, _ message: String, path: ItemIdentifier? = nil, cause: Errno? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.cause = cause
    }

    /// A failed system call: `operation` (`open`, `statx`) on `path`, which set `errno`.
    /// Prints `open "Documents/a": Permission denied`.
    public init(_ operation: String, path: ItemIdentifier? = nil, errno: Errno) {
        let message = path.map { "\(operation) \($0.lossyString.debugDescription)" } ?? operation
        self.init(.systemCall, message, path: path, cause: errno)
    }

    /// Whether the path is gone, or a folder on the way is not a folder (any more): `ENOENT`,
    /// `ENOTDIR`.
    public var isNoSuchFile: Bool { cause == .noSuchFileOrDirectory || cause == .notDirectory }

    /// Whether permission to read the file or folder was denied (`EACCES`).
    public var isPermissionDenied: Bool { cause == .permissionDenied }

    /// One line: the message, then the `errno` after a colon, then advice in parentheses when
    /// the cause is a limit the user can raise.
    public var description: String {
        var line = message
        if let cause { line += ": \(cause)" }
        if let advice { line += " (\(advice))" }
        return line
    }
}

extension FileSystemError: ReportableError {}

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
