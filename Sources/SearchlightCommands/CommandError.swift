import Searchlight

/// Why a command cannot do what was asked, shaped as every subsystem's error is
/// (Docs/Architecture.md#errors): a ``code`` and a ``message``, printed as one line. A command
/// that does not exist or settings the server refuses are usage errors (exit status 64); a
/// file it cannot open for the user is a failure (exit status 1). A mistake in the
/// configuration file is a ``ConfigurationError``; the errors of the layers beneath reach the
/// user as they are (``CommandFailure``).
public struct CommandError: ReportableError {
    /// What kind of failure this is.
    public enum Code: Hashable, Sendable {
        /// What was asked cannot be done as asked: exit status 64, HTTP 400.
        case usage
        /// A failure the user can fix outside the command: exit status 1, HTTP 500.
        case failure
    }

    /// The kind of failure.
    public var code: Code
    /// What went wrong, for people.
    public var message: String

    /// Creates an error of kind `code`, saying `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
    /// 64 for a usage error, 1 for a failure.
    public var exitStatus: Int32 { code == .usage ? 64 : 1 }
    /// 400 for a usage error, 500 for a failure.
    public var httpStatus: Int { code == .usage ? 400 : 500 }

    /// What was asked cannot be done as asked (exit status 64).
    public static func usage(_ message: String) -> CommandError {
        CommandError(.usage, message)
    }

    /// A failure the user can fix outside the command (exit status 1).
    public static func failure(_ message: String) -> CommandError {
        CommandError(.failure, message)
    }
}
