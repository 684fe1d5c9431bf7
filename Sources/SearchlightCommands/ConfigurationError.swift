import Searchlight

/// A mistake in the configuration file, as one line: the file, the line (and the column of a
/// syntax error) and what is wrong, in plain words —
/// `config.toml:3: server.port must be a number from 1 to 65535, found the string "8080"`.
///
/// Each mistake spoils one ``Configuration/Section`` (or the whole file): a command stops
/// only for a mistake in a section it reads (``Configuration/usable(reading:)``), and warns
/// of the others. A usage error: exit status 64, HTTP 400.
struct ConfigurationError: ReportableError, Equatable {
    /// What kind of mistake.
    enum Code: Equatable {
        /// The file named with `--config` or `$SEARCHLIGHT_CONFIG` is missing or unreadable, or
        /// is not UTF-8.
        case unreadable
        /// The text is not TOML (toml++'s parse error, in plain words: ``TOMLSyntaxMessage``).
        case syntax
        /// A table or key the configuration does not have.
        case unknownName
        /// A known key with a value of the wrong type or out of range, or a root without a path.
        case invalidValue
    }

    var code: Code
    /// The configuration file.
    var file: String
    /// 1-based; `nil` when the mistake is not on one line (or its line could not be found).
    var line: Int?
    /// 1-based, for a syntax error.
    var column: Int?
    /// What the mistake spoils: `nil` for the whole file (a syntax error, an unreadable file).
    var section: Configuration.Section?
    /// What is wrong, after the position.
    var message: String

    /// `FILE:LINE:COLUMN: message`, as compilers write it.
    var description: String {
        var position = file
        if let line {
            position += ":\(line)"
            if let column { position += ":\(column)" }
        }
        return position + ": " + message
    }

    var exitStatus: Int32 { 64 }
    var httpStatus: Int { 400 }

    /// `text` in double quotes, escaped as Swift escapes it (`"8080"`, `"a\"b"`, `"x\n"`):
    /// TOMLKit gives `String` a `debugDescription` of its own, without quotes.
    static func quoted(_ text: String) -> String {
        "\"" + text.unicodeScalars.map { $0.escaped(asASCII: false) }.joined() + "\""
    }
}
