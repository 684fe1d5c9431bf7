import SystemPackage

/// Why the embedding model could not be loaded, shaped as every subsystem's error is
/// (Docs/Architecture.md#errors): a ``code``, a ``message``, the ``path`` and the `errno`
/// (``cause``) when a system call failed, kept typed.
///
/// Prints one line: the path, then what is wrong with it, e.g.
/// `/usr/share/searchlight/models/multilingual-e5-small/model.bin: the file ends at byte 4096, inside its tensor 'l3.q.w'`.
public struct EmbeddingError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Hashable {
        /// No model folder, or no `model.bin` in it.
        case missing
        /// The file exists but could not be opened or mapped; the system's error is the ``cause``.
        case unreadable
        /// The file is not a model of the known format (wrong magic number or shape).
        case notAModel
        /// The file is a model of a format version this code does not read.
        case unsupportedVersion
        /// The file ends before the data its header describes, or describes data outside itself.
        case truncated
    }

    /// The kind of failure.
    public var code: Code
    /// A sentence saying what is wrong, without the path and the cause.
    public var message: String
    /// The file or folder concerned.
    public var path: FilePath
    /// The system call's error, captured right after it, when one failed.
    public var cause: Errno?

    /// Creates an error of kind `code`, saying `message` about the file at `path`, caused by `cause`.
    public init(_ code: Code, _ message: String, path: FilePath, cause: Errno? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.cause = cause
    }

    /// `path: message`, then the `errno` after a colon.
    public var description: String { "\(path): \(message)" + (cause.map { ": \($0)" } ?? "") }
}
