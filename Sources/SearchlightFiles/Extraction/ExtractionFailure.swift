/// Why a file could not be extracted (no thumbnail, no text), as one clear line.
///
/// Failures caused by the file (``Reason-swift.enum/notAnImage``, ``Reason-swift.enum/timedOut``,
/// ``Reason-swift.enum/crashed``...) should be recorded with the item and retried only
/// when the file changes. ``isTransient`` failures come from the machinery, not the file.
public struct ExtractionFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// No allowed decoder recognises the file (includes blocked, untrusted formats).
        case notAnImage
        /// The image claims more pixels than the limit: a possible decompression bomb.
        case tooLarge
        /// A decoder recognised the file but could not decode it (corrupt or truncated data).
        case decodeFailed
        /// The worker could not open the file, or it is not a regular file.
        case unreadable
        /// The worker does not support the requested kind of extraction.
        case unsupported
        /// The worker did not answer within the deadline and was killed.
        case timedOut
        /// The worker died (a signal, an exit, a broken reply) while on this file.
        case crashed
        /// No worker could be started, or the pool is shut down.
        case unavailable
        /// Anything else inside the worker, such as an encoder failure.
        case internalError
    }

    public var reason: Reason
    /// One line, for `show` and `status`, such as `timed out after 10 s`.
    public var message: String

    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    /// True when the failure says nothing about the file (the pool was shut down or a
    /// worker could not be started): do not record it against the file; try again later.
    public var isTransient: Bool { reason == .unavailable }

    public var description: String { message }
}
