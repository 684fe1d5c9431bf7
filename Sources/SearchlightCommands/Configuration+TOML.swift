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

    /// Reads the configuration file at `path`; a missing file gives the defaults unless
    /// `required` (a file named with `--config` or `$SEARCHLIGHT_CONFIG` must exist).
    static func load(path: String, required: Bool, home: String) throws(CommandError) -> Configuration {
        guard let data = FileManager.default.contents(atPath: path) else {
            if !required && !FileManager.default.fileExists(atPath: path) { return Configuration() }
            throw CommandError.configuration(path: path, message: "cannot read the configuration file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CommandError.configuration(path: path, message: "the configuration file is not UTF-8")
        }
        return try Configuration(text: text, file: path, home: home)
    }

    /// Parses a configuration file's text; `file` names it in errors and origins, `home`
    /// expands `~`.
    init(text: String, file: String, home: String) throws(CommandError) {
        self.init()
        self.file = file
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw CommandError.configuration(path: file, line: error.source.begin.line, message: error.description)
        } catch {
            throw CommandError.configuration(path: file, message: "\(error)")
        }
        var reader = TOMLReader(file: file, text: text, home: home)
        try reader.read(table, into: &self)
    }
}

/// Reads the tables of a parsed configuration file into a ``Configuration``, checking every
/// key and type. TOMLKit gives no positions for values: the line of a key is found in the
/// text (``line(of:in:index:)``).
struct TOMLReader {
    let file: String
    let lines: [Substring]
    let home: String

    init(file: String, text: String, home: String) {
        self.file = file
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        self.home = home
    }

    mutating func read(_ table: TOMLTable, into configuration: inout Configuration) throws(CommandError) {
        for key in table.keys {
            let value = table[key]!
            switch key {
            case "priority":
                let name = try string(value, key: key, table: nil)
                guard let priority = Configuration.Priority(rawValue: name) else {
                    throw error(key: key, table: nil, "expected \"idle\" or \"normal\", not \(name.debugDescription)")
                }
                configuration.priority = setting(priority, key, nil)
            case "index":
                let location = try string(value, key: key, table: nil)
                let expanded = location.hasPrefix("~/") ? home + location.dropFirst() : location
                guard expanded.hasPrefix("/") || expanded.hasPrefix("postgres://") || expanded.hasPrefix("postgresql://") else {
                    throw error(key: key, table: nil, "expected an absolute path, ~/…, or a postgres:// URL, not \(location.debugDescription)")
                }
                configuration.index = setting(Optional(expanded), key, nil)
            case "roots":
                guard let array = value.array else { throw error(key: key, table: nil, "expected [[roots]] tables") }
                for (position, element) in array.enumerated() {
                    guard let root = element.table else {
                        throw error(key: key, table: nil, "expected [[roots]] tables")
                    }
                    configuration.roots.append(try readRoot(root, index: position))
                }
                try checkDuplicateRoots(configuration.roots)
            case "exclusions":
                try forEach(in: value, table: key) { key, value, table throws(CommandError) in
                    switch key {
                    case "patterns": configuration.exclusions = setting(try strings(value, key: key, table: table), key, table)
                    case "hidden": configuration.includeHidden = try boolSetting(value, key, table)
                    case "defaults": configuration.defaultExclusions = try boolSetting(value, key, table)
                    default: throw unknown(key, table: table)
                    }
                }
            case "extraction":
                try forEach(in: value, table: key) { key, value, table throws(CommandError) in
                    switch key {
                    case "thumbnails": configuration.thumbnails = try boolSetting(value, key, table)
                    case "content": configuration.content = try boolSetting(value, key, table)
                    case "text-limit": configuration.textLimit = try intSetting(value, key, table, in: 0...Int(Int32.max))
                    case "decoder-deadline": configuration.decoderDeadline = try intSetting(value, key, table, in: 1...3600)
                    case "ocr": configuration.ocr = try boolSetting(value, key, table)
                    case "ocr-languages":
                        let languages = try strings(value, key: key, table: table)
                        if let bad = languages.first(where: { !Configuration.isLanguageName($0) }) ?? (languages.isEmpty ? "" : nil) {
                            throw error(key: key, table: table, "\(bad.debugDescription) is not a Tesseract language such as \"eng\"")
                        }
                        configuration.ocrLanguages = setting(languages, key, table)
                    case "ocr-page-limit": configuration.ocrPageLimit = try intSetting(value, key, table, in: 1...10_000)
                    case "ocr-page-deadline": configuration.ocrPageDeadline = try intSetting(value, key, table, in: 1...3600)
                    default: throw unknown(key, table: table)
                    }
                }
            case "watch":
                try forEach(in: value, table: key) { key, value, table throws(CommandError) in
                    switch key {
                    case "self-check-interval":
                        configuration.selfCheckInterval = try intSetting(value, key, table, in: 0...Int(Int32.max))
                    case "rescan-interval": configuration.rescanInterval = try intSetting(value, key, table, in: 1...Int(Int32.max))
                    case "backoff": configuration.backoff = try boolSetting(value, key, table)
                    default: throw unknown(key, table: table)
                    }
                }
            case "server":
                try forEach(in: value, table: key) { key, value, table throws(CommandError) in
                    switch key {
                    case "host": configuration.server.host = setting(try string(value, key: key, table: table), key, table)
                    case "port": configuration.server.port = try intSetting(value, key, table, in: 1...65535)
                    case "token":
                        let token = try string(value, key: key, table: table)
                        configuration.server.token = setting(token.isEmpty ? nil : token, key, table)
                    default: throw unknown(key, table: table)
                    }
                }
            default:
                throw unknown(key, table: nil)
            }
        }
    }

    private func readRoot(_ table: TOMLTable, index: Int) throws(CommandError) -> Configuration.Root {
        let name = "roots"
        guard let pathValue = table["path"] else {
            throw CommandError.configuration(path: file, line: line(of: nil, in: name, index: index),
                                     key: "roots[\(index + 1)].path", message: "every [[roots]] needs a path")
        }
        var root = Configuration.Root(path: "", origin: origin(key: "path", table: name, index: index))
        for key in table.keys {
            let value = table[key]!
            switch key {
            case "path":
                let path = try string(pathValue, key: key, table: name, index: index)
                root.path = try expand(path, key: key, index: index)
            case "domain":
                let domain = try string(value, key: key, table: name, index: index)
                if domain.isEmpty { throw error(key: key, table: name, index: index, "a domain cannot be empty") }
                root.domain = domain
            case "exclusions":
                root.exclusions = try strings(value, key: key, table: name, index: index)
            default:
                throw unknown(key, table: name, index: index)
            }
        }
        return root
    }

    /// `~` and `~/…` become the home folder; other paths must be absolute.
    private func expand(_ path: String, key: String, index: Int) throws(CommandError) -> String {
        if path == "~" { return home }
        if path.hasPrefix("~/") { return home + path.dropFirst() }
        guard path.hasPrefix("/") else {
            throw error(key: key, table: "roots", index: index, "a root must be an absolute path or start with ~/ (got \(path.debugDescription))")
        }
        return path
    }

    private func checkDuplicateRoots(_ roots: [Configuration.Root]) throws(CommandError) {
        var domains: Set<String> = []
        for (position, root) in roots.enumerated() {
            let domain = root.domain ?? root.path
            if !domains.insert(domain).inserted {
                throw error(key: root.domain == nil ? "path" : "domain", table: "roots", index: position,
                            "two roots share the domain \(domain.debugDescription)")
            }
        }
    }

    // MARK: - Typed values

    /// Calls `body` with each key and value of the table `[table]`.
    private func forEach(in value: TOMLValueConvertible, table: String,
                         _ body: (String, TOMLValueConvertible, String) throws(CommandError) -> Void) throws(CommandError) {
        guard let section = value.table else { throw error(key: table, table: nil, "expected a [\(table)] table") }
        for key in section.keys { try body(key, section[key]!, table) }
    }

    private func boolSetting(_ value: TOMLValueConvertible, _ key: String, _ table: String) throws(CommandError) -> Configuration.Setting<Bool> {
        setting(try bool(value, key: key, table: table), key, table)
    }

    private func intSetting(_ value: TOMLValueConvertible, _ key: String, _ table: String,
                            in range: ClosedRange<Int>) throws(CommandError) -> Configuration.Setting<Int> {
        setting(try int(value, key: key, table: table, in: range), key, table)
    }

    private func string(_ value: TOMLValueConvertible, key: String, table: String?, index: Int? = nil) throws(CommandError) -> String {
        guard let string = value.string else { throw mistyped(value, "a string", key: key, table: table, index: index) }
        return string
    }

    private func bool(_ value: TOMLValueConvertible, key: String, table: String?) throws(CommandError) -> Bool {
        guard let bool = value.bool else { throw mistyped(value, "true or false", key: key, table: table) }
        return bool
    }

    private func int(_ value: TOMLValueConvertible, key: String, table: String?, in range: ClosedRange<Int>) throws(CommandError) -> Int {
        guard let int = value.int else { throw mistyped(value, "an integer", key: key, table: table) }
        guard range.contains(int) else {
            throw error(key: key, table: table, "\(int) is out of range (\(range.lowerBound)...\(range.upperBound))")
        }
        return int
    }

    private func strings(_ value: TOMLValueConvertible, key: String, table: String?, index: Int? = nil) throws(CommandError) -> [String] {
        guard let array = value.array else { throw mistyped(value, "an array of strings", key: key, table: table, index: index) }
        var strings: [String] = []
        for element in array {
            guard let string = element.string else {
                throw mistyped(element, "an array of strings", key: key, table: table, index: index)
            }
            strings.append(string)
        }
        return strings
    }

    // MARK: - Positions and errors

    private func setting<Value>(_ value: Value, _ key: String, _ table: String?) -> Configuration.Setting<Value> {
        Configuration.Setting(value, origin: origin(key: key, table: table))
    }

    private func origin(key: String, table: String?, index: Int? = nil) -> Configuration.Origin {
        .file(path: file, line: line(of: key, in: table, index: index) ?? 0)
    }

    private func mistyped(_ value: TOMLValueConvertible, _ expected: String, key: String, table: String?,
                          index: Int? = nil) -> CommandError {
        error(key: key, table: table, index: index, "expected \(expected), not a \(value.type)")
    }

    private func unknown(_ key: String, table: String?, index: Int? = nil) -> CommandError {
        error(key: key, table: table, index: index, "unknown key")
    }

    private func error(key: String, table: String?, index: Int? = nil, _ message: String) -> CommandError {
        let dotted: String
        switch (table, index) {
        case (nil, _): dotted = key
        case (let table?, let index?): dotted = "\(table)[\(index + 1)].\(key)"
        case (let table?, nil): dotted = "\(table).\(key)"
        }
        return CommandError.configuration(path: file, line: line(of: key, in: table, index: index), key: dotted, message: message)
    }

    /// The 1-based line where `key` is set in the table `table` (the top level when `nil`;
    /// the `index`th of an array of tables), or of the table's header when `key` is `nil`.
    /// Handles the usual layout (`[table]`, `[[array]]`, `key = value`, dotted keys at the
    /// top level); `nil` when the key is written some other way.
    func line(of key: String?, in table: String?, index: Int?) -> Int? {
        var current: String? = nil
        var currentIndex: Int? = nil
        var arrayCounts: [String: Int] = [:]
        for (number, raw) in lines.enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[[") {
                let name = Self.headerName(line.dropFirst(2))
                current = name
                currentIndex = arrayCounts[name, default: -1] + 1
                arrayCounts[name] = currentIndex
                if key == nil, name == table, currentIndex == index { return number + 1 }
                continue
            }
            if line.hasPrefix("[") {
                current = Self.headerName(line.dropFirst())
                currentIndex = nil
                if key == nil, current == table { return number + 1 }
                continue
            }
            guard let key, let equals = line.firstIndex(of: "=") else { continue }
            let written = line[..<equals].trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\"", with: "")
            if current == table && currentIndex == index && written == key { return number + 1 }
            if current == nil, let table, index == nil, written == "\(table).\(key)" { return number + 1 }
        }
        return nil
    }

    private static func headerName(_ rest: Substring) -> String {
        String(rest.prefix { $0 != "]" }).trimmingCharacters(in: .whitespaces)
    }
}
