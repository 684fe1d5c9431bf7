import Foundation
import TOMLKit

extension Configuration {
    /// The file `searchlight` reads: `$XDG_CONFIG_HOME/searchlight/config.toml`, else
    /// `~/.config/searchlight/config.toml`.
    static func defaultPath(environment: [String: String]) -> String {
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return configHome + "/searchlight/config.toml"
    }

    /// The file a command reads — `explicit` (`--config`), else `$SEARCHLIGHT_CONFIG`, else
    /// ``defaultPath(environment:)`` — and whether it must exist (it was named).
    static func file(explicit: String?, environment: [String: String]) -> (path: String, required: Bool) {
        if let explicit { return (explicit, true) }
        if let path = environment["SEARCHLIGHT_CONFIG"], !path.isEmpty { return (path, true) }
        return (defaultPath(environment: environment), false)
    }

    /// Reads the file a command reads (``file(explicit:environment:)``), `~` its `$HOME`.
    static func load(explicit: String?, environment: [String: String]) -> Configuration {
        let (path, required) = file(explicit: explicit, environment: environment)
        return load(path: path, required: required, home: environment["HOME"] ?? NSHomeDirectory())
    }

    /// Reads the configuration file at `path`, with its mistakes (``problems``); a missing file
    /// gives the defaults unless `required` (a file named with `--config` or
    /// `$SEARCHLIGHT_CONFIG` must exist).
    static func load(path: String, required: Bool, home: String) -> Configuration {
        guard let data = FileManager.default.contents(atPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            if !required && !exists { return Configuration() }
            return Configuration(unreadable: path, exists ? "cannot read the configuration file"
                                    : "cannot read the configuration file: there is no such file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return Configuration(unreadable: path, "cannot read the configuration file: it is not UTF-8")
        }
        return Configuration(text: text, file: path, home: home)
    }

    /// The defaults, and a file that cannot be read.
    private init(unreadable file: String, _ message: String) {
        self.init()
        self.file = file
        problems = [ConfigurationError(code: .unreadable, file: file, message: message)]
    }

    /// Parses a configuration file's text; `file` names it in messages and origins, `home`
    /// expands `~`. A mistake leaves its setting at the default and is kept in ``problems``;
    /// a syntax error leaves every setting at the default.
    init(text: String, file: String, home: String) {
        self.init()
        self.file = file
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            problems = [ConfigurationError(code: .syntax, file: file, line: error.source.begin.line,
                                           column: error.source.begin.column, message: TOMLSyntaxMessage.plain(error.description))]
            return
        } catch {
            problems = [ConfigurationError(code: .syntax, file: file, message: "not valid TOML: \(error)")]
            return
        }
        problems = TOMLReader(file: file, text: text, home: home).read(table, into: &self)
    }
}
