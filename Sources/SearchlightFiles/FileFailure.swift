/// Why a file's item is incomplete, with a kind: stored with the item as `kind: message`
/// (``stored``), listed by `status --failures`.
///
/// Only ``Kind-swift.enum/unreadable`` means the file could not be indexed at all; with any
/// other kind the item is in the index (by name, type, dates) without a preview or text:
/// the scan counts it as "without a preview" and logs it at debug level, not as a warning.
public struct FileFailure: Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, CaseIterable {
        /// The file could not be opened or read (permissions, I/O error).
        case unreadable
        /// Its type or its contents could not be decoded (corrupt, encrypted, unknown).
        case undecodable
        /// It is larger than a decoder accepts (a possible decompression bomb).
        case tooLarge = "too-large"
        /// Its decoder did not finish within the deadline.
        case timedOut = "timed-out"
        /// It crashed the worker that decoded it.
        case crashed

        /// How `status` names the kind.
        public var label: String {
            switch self {
            case .unreadable: "unreadable"
            case .undecodable: "undecodable"
            case .tooLarge: "too large"
            case .timedOut: "timed out"
            case .crashed: "crashed a worker"
            }
        }
    }

    public var kind: Kind
    /// One line: what failed and why.
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// Reads a stored failure. A text without a kind (written before kinds existed, or by
    /// another enricher) is taken as ``Kind-swift.enum/undecodable``: the item exists.
    public init(stored: String) {
        for kind in Kind.allCases {
            let prefix = kind.rawValue + ": "
            if stored.hasPrefix(prefix) {
                self.init(kind, String(stored.dropFirst(prefix.count)))
                return
            }
        }
        self.init(.undecodable, stored)
    }

    /// The text stored with the item.
    public var stored: String { "\(kind.rawValue): \(message)" }

    /// Whether the item is in the index despite the failure (without a preview or text).
    public var isIndexed: Bool { kind != .unreadable }

    public var description: String { "\(kind.label): \(message)" }
}

extension ExtractionFailure {
    /// The kind of file failure this extraction failure is.
    var fileFailureKind: FileFailure.Kind {
        switch reason {
        case .tooLarge: .tooLarge
        case .timedOut: .timedOut
        case .crashed: .crashed
        case .unreadable: .unreadable
        case .notAnImage, .decodeFailed, .unsupported, .unavailable, .internalError: .undecodable
        }
    }
}
