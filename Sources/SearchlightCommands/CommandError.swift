import Searchlight

/// Why a command cannot do what was asked, as one line: a command that does not exist or
/// settings the server refuses — usage errors, exit status 64 — or a file it cannot open for
/// the user (exit status 1). A mistake in the configuration file is a ``ConfigurationError``.
public struct CommandError: ReportableError {
    public var description: String
    public var exitStatus: Int32
    public var httpStatus: Int { exitStatus == 64 ? 400 : 500 }

    /// What was asked cannot be done as asked (exit status 64).
    public static func usage(_ message: String) -> CommandError {
        CommandError(description: message, exitStatus: 64)
    }

    /// A failure the user can fix outside the command (exit status 1).
    public static func failure(_ message: String) -> CommandError {
        CommandError(description: message, exitStatus: 1)
    }
}
