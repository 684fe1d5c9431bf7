/// A malformed or unexpected message on the extractor channel, shaped as every subsystem's
/// error is (Docs/Architecture.md#errors): a ``code`` and a ``message`` saying what was wrong
/// with the bytes. Nothing beneath fails (the bytes were read): there is no cause. Prints as
/// one line: `extractor protocol error: truncated payload`.
public struct ExtractionProtocolError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        /// A frame or a field ends before what its length or type says.
        public static let truncated = Code(name: "truncated")
        /// A frame longer than ``ExtractionFrame/maximumPayloadSize``.
        public static let tooLarge = Code(name: "too large")
        /// A message of another version of the protocol.
        public static let unknownVersion = Code(name: "unknown version")
        /// A value the protocol does not have (an unknown status, kind or tag; trailing bytes).
        public static let malformed = Code(name: "malformed")
        /// The code's name.
        public var description: String { name }
    }

    /// The kind of failure.
    public var code: Code
    /// What was wrong with the bytes, for people.
    public var message: String

    /// Creates an error of kind `code`, saying `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `extractor protocol error: ` and the message.
    public var description: String { "extractor protocol error: \(message)" }
}
