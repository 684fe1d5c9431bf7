import Searchlight

/// Why a command cannot do what was asked, as one line: a configuration file it cannot use
/// (`FILE:LINE: KEY: message`) or settings the server refuses — usage errors, exit status 64 —
/// or a file it cannot open for the user (exit status 1).
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

    /// A configuration file that cannot be used: the file, the line of the key (or of the
    /// syntax error, 1-based) when known, the key dotted (`roots[2].path`, `server.port`)
    /// when the error is about one, and why.
    static func configuration(path: String, line: Int? = nil, key: String? = nil, message: String) -> CommandError {
        var text = path
        if let line { text += ":\(line)" }
        text += ": "
        if let key { text += "\(key): " }
        return usage(text + message)
    }
}
