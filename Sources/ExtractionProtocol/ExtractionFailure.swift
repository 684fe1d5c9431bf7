/// Why a file could not be read, as one clear line with a typed reason: the one vocabulary
/// from the decoder that fails to the JSON that reports it.
///
/// A decoder in the worker throws it, the worker's answer carries its reason as the status
/// byte (``Reason-swift.enum/rawValue``), ``ExtractorPool`` returns it (adding the reasons
/// only the supervisor sees: ``Reason-swift.enum/timedOut``, ``Reason-swift.enum/crashed``,
/// ``Reason-swift.enum/unavailable``), the indexer stores it with the item as
/// `name: message` (``stored``), and `status --failures` and the JSON `failure` field show
/// that text.
///
/// Failures caused by the file are recorded with the item and retried only when the file
/// changes; ``isTransient`` failures come from the machinery, not the file.
public struct ExtractionFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong. The raw value is the status byte on the wire (0 is success); the
    /// ``name`` is what the index stores and the JSON shows.
    public enum Reason: UInt8, Sendable, Hashable, CaseIterable {
        /// No allowed decoder recognises the file as a picture (includes blocked, untrusted formats).
        case notAnImage = 1
        /// The file claims more than a decoder accepts (pixels, inflated bytes, archive
        /// entries): a possible decompression bomb.
        case tooLarge = 2
        /// A decoder recognised the file but could not decode it (corrupt or truncated data).
        case decodeFailed = 3
        /// The file could not be opened or read, or is not a regular file.
        case unreadable = 4
        /// No reader handles this kind of extraction or content: says nothing about the file.
        case unsupported = 5
        /// Anything else inside the worker (an encoder, a converter program that cannot start).
        case internalError = 6
        /// The document or archive is protected by a password.
        case encrypted = 7
        /// The worker did not answer within the deadline and was killed (supervisor only).
        case timedOut = 8
        /// The worker died (a signal, an exit, a broken reply) while on this file (supervisor only).
        case crashed = 9
        /// No worker could be started, or the pool is shut down (supervisor only; never stored).
        case unavailable = 10

        /// The name stored with the item, listed by `status --failures --json` as `kind`.
        /// The five names of older indexes (`unreadable`, `undecodable`, `too-large`,
        /// `timed-out`, `crashed`) keep their meaning.
        public var name: String {
            switch self {
            case .notAnImage: "not-an-image"
            case .tooLarge: "too-large"
            case .decodeFailed: "undecodable"
            case .unreadable: "unreadable"
            case .unsupported: "unsupported"
            case .internalError: "worker-error"
            case .encrypted: "encrypted"
            case .timedOut: "timed-out"
            case .crashed: "crashed"
            case .unavailable: "unavailable"
            }
        }

        /// The reason of a stored ``name``.
        public init?(name: some StringProtocol) {
            guard let reason = Self.allCases.first(where: { $0.name == name }) else { return nil }
            self = reason
        }

        /// How `status` names the reason.
        public var label: String {
            switch self {
            case .notAnImage: "not an image"
            case .tooLarge: "too large"
            case .decodeFailed: "undecodable"
            case .unreadable: "unreadable"
            case .unsupported: "unsupported"
            case .internalError: "worker error"
            case .encrypted: "encrypted"
            case .timedOut: "timed out"
            case .crashed: "crashed a worker"
            case .unavailable: "extractor unavailable"
            }
        }
    }

    /// The kind of failure: whether it is stored with the item or retried, and its name there.
    public var reason: Reason
    /// One line, without the path (the indexer knows it), such as `timed out after 10 s`.
    public var message: String

    /// A failure for `reason`, with a one-line `message` that does not repeat the path.
    ///
    /// ```swift
    /// throw ExtractionFailure(.tooLarge, "archive lists more than 10000 entries")
    /// ```
    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    /// Reads a failure stored as ``stored`` writes it. A text without a known name (written
    /// before names existed, or by another enricher) is ``Reason-swift.enum/decodeFailed``:
    /// the item exists.
    public init(stored: String) {
        if let colon = stored.firstIndex(of: ":"), let reason = Reason(name: stored[..<colon]),
           stored[colon...].hasPrefix(": ") {
            self.init(reason, String(stored[stored.index(colon, offsetBy: 2)...]))
        } else {
            self.init(.decodeFailed, stored)
        }
    }

    /// The text stored with the item: `name: message`.
    public var stored: String { "\(reason.name): \(message)" }

    /// True when the failure says nothing about the file (the pool was shut down or a
    /// worker could not be started): do not record it against the file; try again later.
    public var isTransient: Bool { reason == .unavailable }

    /// Whether the item is in the index despite the failure (without a preview or text):
    /// only an unreadable file could not be indexed at all.
    public var isIndexed: Bool { reason != .unreadable }

    public var description: String { message }
}
