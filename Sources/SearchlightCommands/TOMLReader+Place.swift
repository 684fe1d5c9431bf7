import TOMLKit

extension TOMLReader {
    /// A key being read: where it is written, for its setting's origin and its mistakes, and
    /// its value's reading as the type the key wants.
    struct Place {
        let reader: TOMLReader
        let section: Configuration.Section
        /// The key's table; `nil` at the top level.
        let table: String?
        /// The element of `[[roots]]` (0-based).
        var index: Int?
        let key: String

        init(reader: TOMLReader, section: Configuration.Section, table: String?, index: Int? = nil, key: String) {
            self.reader = reader
            self.section = section
            self.table = table
            self.index = index
            self.key = key
        }

        /// The key as messages name it: `priority`, `server.port`, `roots[2].path`.
        var dotted: String {
            switch (table, index) {
            case (nil, _): key
            case (let table?, let index?): "\(table)[\(index + 1)].\(key)"
            case (let table?, nil): "\(table).\(key)"
            }
        }

        /// The line of the key, else of its table's header.
        var line: Int? {
            reader.layout.line(of: (table.map { [$0] } ?? []) + [key], element: index)
        }

        var origin: Configuration.Origin { .file(path: reader.file, line: line ?? 0) }

        /// `value`, set here.
        func setting<Value>(_ value: Value) -> Configuration.Setting<Value> {
            Configuration.Setting(value, origin: origin)
        }

        /// A mistake at this key: `message` is the whole sentence after the position.
        func error(_ code: ConfigurationError.Code, _ message: String) -> ConfigurationError {
            ConfigurationError(code: code, file: reader.file, line: line, section: section, message: message)
        }

        /// `server.port must be a number from 1 to 65535, found the string "8080"`.
        func mistyped(_ value: TOMLValueConvertible, expected: String) -> ConfigurationError {
            error(.invalidValue, "\(dotted) must be \(expected), found \(describe(value))")
        }

        // MARK: - Typed values

        func string(_ value: TOMLValueConvertible) throws(ConfigurationError) -> String {
            guard let string = value.string else { throw mistyped(value, expected: "a string") }
            return string
        }

        func bool(_ value: TOMLValueConvertible) throws(ConfigurationError) -> Bool {
            guard let bool = value.bool else { throw mistyped(value, expected: "true or false") }
            return bool
        }

        func int(_ value: TOMLValueConvertible, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
            guard let int = value.int, range.contains(int) else {
                let expected = range.upperBound == Int(Int32.max) ? "a whole number from \(range.lowerBound) up"
                    : "a number from \(range.lowerBound) to \(range.upperBound)"
                throw mistyped(value, expected: expected)
            }
            return int
        }

        func strings(_ value: TOMLValueConvertible) throws(ConfigurationError) -> [String] {
            let expected = "a list of strings"
            guard let array = value.array else { throw mistyped(value, expected: expected) }
            var strings: [String] = []
            for element in array {
                guard let string = element.string else { throw mistyped(element, expected: expected) }
                strings.append(string)
            }
            return strings
        }

        func boolSetting(_ value: TOMLValueConvertible) throws(ConfigurationError) -> Configuration.Setting<Bool> {
            setting(try bool(value))
        }

        func intSetting(_ value: TOMLValueConvertible, in range: ClosedRange<Int>) throws(ConfigurationError) -> Configuration.Setting<Int> {
            setting(try int(value, in: range))
        }

        /// `~` and `~/…` made the home folder's.
        func expandingHome(_ path: String) -> String {
            if path == "~" { return reader.home }
            return path.hasPrefix("~/") ? reader.home + path.dropFirst() : path
        }

        /// A value as a message names what was found: `the string "8080"`, `the number 3`,
        /// `true`, `a list`, `a table`, `[[server]] tables`.
        func describe(_ value: TOMLValueConvertible) -> String {
            switch value.type {
            case .string: "the string \(ConfigurationError.quoted(value.string!))"
            case .int: "the number \(value.int!)"
            case .double: "the number \(value.double!)"
            case .bool: "\(value.bool!)"
            case .array:
                value.array!.isEmpty ? "an empty list"
                    : value.array!.allSatisfy { $0.table != nil } ? "[[\(key)]] tables" : "a list"
            case .table: "a table"
            case .date, .time, .dateTime: "a \(value.type)"
            }
        }
    }
}
