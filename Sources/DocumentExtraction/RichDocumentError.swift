import ExtractionProtocol

/// Why a document's contents could not be read, as one clear line with a typed cause.
///
/// Each ``Code`` maps to the wire's ``ExtractionFailureCode`` (``failureCode``), so the
/// indexer records the failure against the file and indexes it by name only.
public struct RichDocumentError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: Sendable, Hashable {
        /// The document is protected by a password: indexed by name only, quietly.
        case encrypted
        /// The document's parts are larger than allowed, or an archive inflates too much
        /// (a zip bomb), or has too many entries.
        case tooLarge
        /// A decoder recognised the format but the file is corrupt or truncated.
        case decodeFailed
        /// The file could not be read.
        case unreadable
        /// No extractor of this module reads this content type.
        case unsupported
        /// A converter program could not be started or failed for its own reasons.
        case internalError
    }

    public var code: Code
    /// One line, without the path (the indexer knows it).
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The code that travels on the wire.
    public var failureCode: ExtractionFailureCode {
        switch code {
        case .encrypted, .decodeFailed: .decodeFailed
        case .tooLarge: .tooLarge
        case .unreadable: .unreadable
        case .unsupported: .unsupported
        case .internalError: .internalError
        }
    }

    /// `encrypted` failures say so in their message (the wire has no code of its own for them).
    public var description: String { message }
}
