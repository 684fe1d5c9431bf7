import Foundation
import Searchlight

/// Builds one JSON object on one line, keys in the order given.
///
/// Byte strings that are not valid UTF-8 (file names) are written with each invalid byte
/// escaped as the lone surrogate `\udcXX` (Python's `surrogateescape`): valid JSON, distinct
/// from every valid name, and recoverable with `s.encode("utf-8", "surrogateescape")`.
///
/// Why not `JSONEncoder`: every line of `--json` output and every item of the API is built
/// here, field by field, straight into bytes, in the order a reader expects, with `null` for
/// an absent value rather than a missing key, and with names that are not UTF-8 kept
/// distinct. Each `add` appends `"key":value`; keys are written as given, and a key added
/// twice appears twice.
///
/// ```swift
/// var line = JSONLine()
/// line.add("path", bytes: Array("caf\u{E9}".utf8) + [0xFF])
/// line.add("modified", Date(timeIntervalSince1970: 0))
/// line.add("tags", strings: ["work"])
/// // {"path":"café\udcff","modified":"1970-01-01T00:00:00Z","tags":["work"]}
/// ```
///
/// A value type with no validation beyond escaping: it cannot produce invalid JSON from
/// its inputs, but it does not stop a caller from adding the same key twice. Building costs
/// one append per byte written; ``finished`` copies the bytes once more to close the object.
///
/// ## Topics
///
/// ### Building an object
///
/// - ``init()``
/// - ``add(_:bytes:)``
/// - ``add(_:strings:)``
/// - ``add(_:objects:)``
/// - ``add(_:object:)``
/// - ``finished``
public struct JSONLine: Sendable {
    /// The object so far, without its closing brace (``finished`` adds it).
    public private(set) var bytes: [UInt8] = [UInt8(ascii: "{")]
    /// Whether no field was added yet: the next one takes no comma.
    private var isFirst = true

    /// An empty object.
    public init() {}

    /// A string, or `null`.
    ///
    /// ```swift
    /// var line = JSONLine()
    /// line.add("name", "Report.pdf")
    /// line.add("size", 1200)
    /// line.finished  // {"name":"Report.pdf","size":1200}
    /// ```
    public mutating func add(_ key: String, _ value: String?) {
        addKey(key)
        if let value { Self.appendString(value, to: &bytes) } else { append("null") }
    }

    /// A byte string (a file name, a path) as a JSON string, invalid UTF-8 escaped as `\udcXX`.
    public mutating func add(_ key: String, bytes value: [UInt8]) {
        addKey(key)
        Self.appendString(value, to: &bytes)
    }

    /// An integer, or `null`.
    public mutating func add(_ key: String, _ value: Int64?) {
        addKey(key)
        append(value.map(String.init) ?? "null")
    }

    /// An integer, or `null`.
    public mutating func add(_ key: String, _ value: Int?) { add(key, value.map(Int64.init)) }

    /// `true` or `false`.
    public mutating func add(_ key: String, _ value: Bool) {
        addKey(key)
        append(value ? "true" : "false")
    }

    /// A number; `null` when it is not finite (JSON has no infinity or NaN).
    public mutating func add(_ key: String, _ value: Double) {
        addKey(key)
        append(value.isFinite ? String(value) : "null")
    }

    /// A number, or `null` when there is none or it is not finite.
    public mutating func add(_ key: String, _ value: Double?) {
        addKey(key)
        append(value.flatMap { $0.isFinite ? String($0) : nil } ?? "null")
    }

    /// A date as an ISO 8601 string (`2024-05-01T09:30:00Z`), or `null`.
    ///
    /// Whole seconds, in UTC: fractions of a second are dropped by the format.
    public mutating func add(_ key: String, _ value: Date?) {
        add(key, value.map { $0.formatted(.iso8601) })
    }

    /// An array of strings.
    public mutating func add(_ key: String, strings: [String]) {
        addKey(key)
        append("[")
        for (position, string) in strings.enumerated() {
            if position > 0 { append(",") }
            Self.appendString(string, to: &bytes)
        }
        append("]")
    }

    /// An array of objects.
    ///
    /// Each object is closed as it is added; adding to it afterwards changes nothing here.
    public mutating func add(_ key: String, objects: [JSONLine]) {
        addKey(key)
        append("[")
        for (position, object) in objects.enumerated() {
            if position > 0 { append(",") }
            bytes += object.finished
        }
        append("]")
    }

    /// A nested object, or `null`.
    public mutating func add(_ key: String, object: JSONLine?) {
        addKey(key)
        if let object { bytes += object.finished } else { append("null") }
    }

    /// The object, closed.
    ///
    /// The bytes of one line, without a newline: the caller adds one when it writes lines.
    public var finished: [UInt8] {
        var closed = bytes
        closed.append(UInt8(ascii: "}"))
        return closed
    }

    /// Appends `,` when a field came before, then `"key":`.
    private mutating func addKey(_ key: String) {
        if !isFirst { append(",") }
        isFirst = false
        Self.appendString(key, to: &bytes)
        append(":")
    }

    /// Appends `text`'s UTF-8 bytes as they are (punctuation, `null`, numbers).
    private mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// `value` as a JSON string: a byte string that may not be UTF-8 (a file name), each
    /// invalid byte escaped as the lone surrogate `\udcXX`.
    ///
    /// Valid sequences are copied as they are; quotes, backslashes and control characters
    /// are escaped as JSON requires.
    ///
    /// - Parameters:
    ///   - value: The bytes of the string.
    ///   - output: Where the quoted string is appended.
    public static func appendString(_ value: [UInt8], to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var index = 0
        while index < value.count {
            // ASCII, most of what is written, is always a whole sequence of one byte.
            if value[index] < 0x80, value[index] >= 0x20, value[index] != UInt8(ascii: "\""),
               value[index] != UInt8(ascii: "\\"), value[index] != 0x7F {
                output.append(value[index])
                index += 1
                continue
            }
            let length = SurrogateEscape.validSequenceLength(value, at: index)
            if length == 0 {
                output.append(contentsOf: String(format: "\\udc%02x", value[index]).utf8)
                index += 1
                continue
            }
            if length == 1 {
                appendEscaped(value[index], to: &output)
            } else {
                output.append(contentsOf: value[index..<(index + length)])
            }
            index += length
        }
        output.append(UInt8(ascii: "\""))
    }

    /// `value` as a JSON string. A Swift string is valid UTF-8: its bytes need escapes only,
    /// no check, and they are copied in runs between escapes, without an array of their own.
    public static func appendString(_ value: String, to output: inout [UInt8]) {
        var value = value
        value.withUTF8 { utf8 in
            output.append(UInt8(ascii: "\""))
            var start = 0
            for index in utf8.indices where needsEscape(utf8[index]) {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                appendEscaped(utf8[index], to: &output)
                start = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
            output.append(UInt8(ascii: "\""))
        }
    }

    /// Whether a byte of valid UTF-8 is written escaped: quotes, backslashes, controls.
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F
    }

    /// One ASCII byte, escaped when JSON needs it.
    private static func appendEscaped(_ byte: UInt8, to output: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): output.append(contentsOf: "\\\"".utf8)
        case UInt8(ascii: "\\"): output.append(contentsOf: "\\\\".utf8)
        case 0x0A: output.append(contentsOf: "\\n".utf8)
        case 0x0D: output.append(contentsOf: "\\r".utf8)
        case 0x09: output.append(contentsOf: "\\t".utf8)
        case 0..<0x20, 0x7F: output.append(contentsOf: String(format: "\\u%04x", byte).utf8)
        default: output.append(byte)
        }
    }
}
