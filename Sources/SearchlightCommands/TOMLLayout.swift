/// Where each table header and key of a TOML text is written, for the messages about them:
/// TOMLKit gives the position of a syntax error only (toml++'s nodes know theirs, TOMLKit's
/// API leaves them out).
///
/// The text has been parsed already, so the scan reads valid TOML: it skips comments and
/// strings of every kind (multi-line ones too), follows values over several lines (arrays,
/// inline tables), and reads bare, quoted and dotted keys (`"server".port`, `a . b`).
///
/// ```swift
/// let layout = TOMLLayout(text: "[[roots]]\npath = \"/a\"\n\n[[roots]]\ndomain = \"b\"\n")
/// layout.line(of: ["roots", "domain"], element: 1)  // 5
/// layout.line(of: ["roots", "path"], element: 1)    // 4: the header of the second [[roots]]
/// ```
struct TOMLLayout {
    /// A table header or a key, as written.
    struct Entry: Equatable {
        /// The full path of the table or key: `["server", "port"]` for `port` under `[server]`,
        /// and for `server.port` at the top level.
        var path: [String]
        /// The element (0-based) of the array of tables the entry is in (`[[roots]]`); `nil`
        /// outside one.
        var element: Int?
        /// 1-based.
        var line: Int
    }

    /// Every header and key, in the order of the text.
    private(set) var entries: [Entry] = []

    init(text: String) {
        var scanner = Scanner(bytes: Array(text.utf8))
        var table: [String] = []
        var element: Int?
        var elementCounts: [[String]: Int] = [:]
        while scanner.skipBlank() {
            let line = scanner.line
            if scanner.current == UInt8(ascii: "[") {
                scanner.advance()
                let isArray = scanner.current == UInt8(ascii: "[")
                if isArray { scanner.advance() }
                table = scanner.key()
                if isArray {
                    elementCounts[table, default: -1] += 1
                    element = elementCounts[table]
                } else {
                    // `[roots.options]` is in the last `[[roots]]`.
                    element = elementCounts.first { table.starts(with: $0.key) }?.value
                }
                entries.append(Entry(path: table, element: element, line: line))
                scanner.skipLine()
            } else {
                let key = scanner.key()
                entries.append(Entry(path: table + key, element: element, line: line))
                scanner.skipValue()
            }
        }
    }

    /// The line of `path` (in the `element`th of its array of tables, when given), else of the
    /// longest start of it that is written: a key set in an inline table has the line of the
    /// table's key, a key missing from a table the line of the table's header. `nil` when
    /// nothing of it is written.
    func line(of path: [String], element: Int? = nil) -> Int? {
        var path = path
        while !path.isEmpty {
            let found = entries.first { entry in entry.path == path && (element == nil || entry.element == element) }
            if let found { return found.line }
            path.removeLast()
        }
        return nil
    }
}

extension TOMLLayout {
    /// Reads a TOML text byte by byte, counting lines.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0
        /// 1-based.
        var line = 1

        var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func advance() {
            if bytes[position] == UInt8(ascii: "\n") { line += 1 }
            position += 1
        }

        /// Skips blank lines, spaces and comments; `false` at the end of the text.
        mutating func skipBlank() -> Bool {
            while let byte = current {
                switch byte {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"): advance()
                case UInt8(ascii: "#"): skipLine()
                default: return true
                }
            }
            return false
        }

        mutating func skipSpaces() {
            while current == UInt8(ascii: " ") || current == UInt8(ascii: "\t") { advance() }
        }

        /// Skips to the end of the line (its line feed stays).
        mutating func skipLine() {
            while let byte = current, byte != UInt8(ascii: "\n") { advance() }
        }

        /// A key's parts, `a."b c".d` → `["a", "b c", "d"]`; stops after the key (at `=` or `]`).
        mutating func key() -> [String] {
            var parts: [String] = []
            while true {
                skipSpaces()
                if current == UInt8(ascii: "\"") || current == UInt8(ascii: "'") {
                    parts.append(quoted())
                } else {
                    let start = position
                    while let byte = current, Self.isBare(byte) { advance() }
                    parts.append(String(decoding: bytes[start..<position], as: UTF8.self))
                }
                skipSpaces()
                guard current == UInt8(ascii: ".") else { return parts }
                advance()
            }
        }

        /// A one-line string (`"…"` with escapes, `'…'` without), its escaped quotes and
        /// backslashes undone: enough to compare a quoted key.
        private mutating func quoted() -> String {
            let delimiter = bytes[position]
            advance()
            var value: [UInt8] = []
            while let byte = current, byte != delimiter, byte != UInt8(ascii: "\n") {
                if byte == UInt8(ascii: "\\") && delimiter == UInt8(ascii: "\""), position + 1 < bytes.count {
                    advance()
                }
                value.append(bytes[position])
                advance()
            }
            if current == delimiter { advance() }
            return String(decoding: value, as: UTF8.self)
        }

        /// Skips a value to the end of its line, through strings, arrays and inline tables
        /// that span lines, and a comment after it.
        mutating func skipValue() {
            var depth = 0
            while let byte = current {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "'"): skipString()
                case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1; advance()
                case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1; advance()
                case UInt8(ascii: "#"): skipLine()
                case UInt8(ascii: "\n") where depth <= 0: return
                default: advance()
                }
            }
        }

        /// Skips a string of any kind, `"""…"""` and `'''…'''` over several lines too.
        private mutating func skipString() {
            let delimiter = bytes[position]
            let isMultiline = position + 2 < bytes.count && bytes[position + 1] == delimiter && bytes[position + 2] == delimiter
            if !isMultiline {
                _ = quoted()
                return
            }
            for _ in 0..<3 { advance() }
            var closing = 0
            while let byte = current, closing < 3 {
                if byte == UInt8(ascii: "\\") && delimiter == UInt8(ascii: "\"") {
                    advance()
                    if current != nil { advance() }
                    closing = 0
                    continue
                }
                closing = byte == delimiter ? closing + 1 : 0
                advance()
            }
            // Up to two quotes more may end the string's text (`""""` is one quote and the end).
            while current == delimiter { advance() }
        }

        /// The letters of a bare key.
        private static func isBare(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
            default: false
            }
        }
    }
}
