/// toml++'s parse errors (which TOMLKit passes on as they are) in plain words:
/// `Error while parsing string: unescaped control characters other than TAB (U+0009) are
/// explicitly prohibited` is `a string is not closed (a " is missing before the end of the line)`.
///
/// toml++ writes `Error while parsing SCOPE: REASON`; the common mistakes are told by the two
/// — a string not closed, `=` or a value missing, a key or table given twice, text without
/// quotes, a table header, list or inline table not closed, a backslash in a `"…"` string, a
/// number starting with 0, a line that is no key, header or comment. Any other message
/// is kept as toml++ wrote it, after `not valid TOML: `.
enum TOMLSyntaxMessage {
    /// `raw` in plain words.
    static func plain(_ raw: String) -> String {
        let prefix = "Error while parsing "
        guard raw.hasPrefix(prefix), let colon = raw.range(of: ": ") else { return "not valid TOML: \(raw)" }
        let scope = String(raw[raw.index(raw.startIndex, offsetBy: prefix.count)..<colon.lowerBound])
        let reason = String(raw[colon.upperBound...])
        return plain(scope: scope, reason: reason) ?? "not valid TOML: \(scope): \(reason)"
    }

    /// The plain words for a scope and reason toml++ gives for a common mistake.
    static func plain(scope: String, reason: String) -> String? {
        let endOfFile = reason.hasPrefix("encountered end-of-file")
        let saw = quoted(after: "saw ", in: reason)
        switch scope {
        case "string", "literal string":
            let quote = scope == "string" ? "\"" : "'"
            if reason.contains("control characters") {
                return "a string is not closed (a \(quote) is missing before the end of the line)"
            }
            if endOfFile { return "a string is not closed (a \(quote) is missing before the end of the file)" }
            if let escape = quoted(after: "unknown escape sequence ", in: reason) {
                return "\(escape) is not an escape in a \"…\" string: write \\\\ for a backslash, "
                    + "or put the text in '…' (a string taken as it is, such as a Windows path)"
            }
        case "table header":
            if reason.hasPrefix("expected ']'") || endOfFile {
                return "a table header is not closed (a ] is missing)"
            }
        case "array":
            if endOfFile || reason.hasPrefix("expected comma") || reason.hasPrefix("expected value or closing") {
                return "a list is not closed or lacks a comma (write [\"a\", \"b\"])"
            }
        case "inline table":
            if endOfFile || reason.hasPrefix("expected comma") || reason.hasPrefix("expected key or closing") {
                return "an inline table is not closed or lacks a comma (write { key = value, other = value } on one line)"
            }
        case "key-value pair":
            if reason.hasPrefix("expected '='") {
                return "= is missing after the key" + (saw.map { " (found \($0))" } ?? "")
            }
            if reason.hasPrefix("expected value") || endOfFile { return "a value is missing after =" }
            if reason.hasPrefix("expected a comment or whitespace") {
                return "only a comment may follow a value on its line" + (saw.map { " (found \($0))" } ?? "")
                    + ": text with spaces needs quotes"
            }
        case "root table":
            if reason.hasPrefix("expected keys, tables") {
                return "a line must be a key = value, a [table] header or a comment" + (saw.map { " (found \($0))" } ?? "")
            }
        case "decimal integer":
            if reason.hasPrefix("leading zeroes") { return "a number cannot start with 0 (write 8, or \"08\" for text)" }
        case "key":
            if reason.hasPrefix("expected bare key"), let saw {
                return "a key cannot start with \(saw): write it with letters, digits, - and _, or in quotes"
            }
        case "value", "boolean":
            if reason.hasPrefix("could not determine value type") || reason.hasPrefix("expected") {
                return "the value is not one TOML knows: text needs quotes (\"…\"), "
                    + "true and false are written in lowercase"
            }
        default:
            break
        }
        if let redefined = redefinition(reason, header: scope == "table header") { return redefined }
        return nil
    }

    /// `cannot redefine existing table 'server'` and its kin: a table (in a `header`) or a key
    /// written twice.
    private static func redefinition(_ reason: String, header: Bool) -> String? {
        guard reason.hasPrefix("cannot redefine existing ") else { return nil }
        let name = quoted(after: " ", in: reason).map { String($0.dropFirst().dropLast()) }
        if header, reason.hasPrefix("cannot redefine existing table"), let name {
            return "the table [\(name)] is written twice: give each table one header, with all its keys below it"
        }
        if reason.hasSuffix("as table") || reason.hasSuffix("as array-of-tables"), let name {
            return "\(name) is a key already: it cannot be a table too"
        }
        return (name.map { "the key \($0)" } ?? "a key") + " is set twice"
    }

    /// The first `'…'` after `marker` in `text`, quotes included: `'8'` in `expected '=', saw '8'`.
    private static func quoted(after marker: String, in text: String) -> String? {
        guard let start = text.range(of: marker + "'")?.upperBound,
              let end = text[start...].firstIndex(of: "'") else { return nil }
        let inner = text[start..<end]
        return inner.isEmpty ? nil : "'\(inner)'"
    }
}
