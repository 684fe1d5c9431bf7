import Searchlight

/// A configuration file that cannot be used: where, which key, and why. Printed as one line,
/// `FILE:LINE: KEY: message`; the command exits 64.
struct ConfigurationError: ReportableError {
    /// The file.
    var path: String
    /// The line of the key (or of the syntax error), 1-based, when known.
    var line: Int?
    /// The key, dotted (`roots[2].path`, `server.port`), when the error is about one.
    var key: String?
    var message: String

    /// A usage error.
    var exitStatus: Int32 { 64 }
    var httpStatus: Int { 400 }

    var description: String {
        var text = path
        if let line { text += ":\(line)" }
        text += ": "
        if let key { text += "\(key): " }
        return text + message
    }
}
