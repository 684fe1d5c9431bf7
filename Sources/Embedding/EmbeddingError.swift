import SystemPackage

/// Why the embedding model could not be loaded.
///
/// Prints one line: the path, then what is wrong with it, e.g.
/// `/usr/share/searchlight/models/multilingual-e5-small/model.bin: the file ends at byte 4096, inside its tensor 'l3.q.w'`.
public struct EmbeddingError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Hashable {
        /// No model folder, or no `model.bin` in it.
        case missing
        /// The file exists but could not be opened or mapped; the system's error is kept.
        case unreadable(Errno)
        /// The file is not a model of the known format (wrong magic number or shape).
        case notAModel
        /// The file is a model of a format version this code does not read.
        case unsupportedVersion(UInt32)
        /// The file ends before the data its header describes, or describes data outside itself.
        case truncated
    }

    public var code: Code
    /// A sentence saying what is wrong, without the path.
    public var message: String
    /// The file or folder concerned.
    public var path: FilePath

    public init(_ code: Code, _ message: String, path: FilePath) {
        self.code = code
        self.message = message
        self.path = path
    }

    public var description: String { "\(path): \(message)" }
}
