import PostgresNIO
import Searchlight

/// SQL text with its parameters, built piece by piece: every value a user gave is a bound
/// parameter (`$1`, `$2`…), never part of the text.
public struct SQLStatement: Sendable, CustomStringConvertible {
    /// A bound value.
    public enum Value: Sendable, Hashable, CustomStringConvertible {
        /// Bound as `text`.
        case text(String)
        /// Bound as `bytea`.
        case bytes([UInt8])
        /// Bound as `float8`.
        case double(Double)
        /// Bound as `int8`.
        case integer(Int)
        /// Bound as `text[]`.
        case textArray([String])

        public var description: String {
            switch self {
            case .text(let text): "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
            case .bytes(let bytes): "'\\x" + Hexadecimal.lowercase(bytes) + "'"
            case .double(let number): "\(number)"
            case .integer(let number): "\(number)"
            case .textArray(let texts): "{" + texts.map { "\"\($0)\"" }.joined(separator: ",") + "}"
            }
        }
    }

    /// The SQL, with `$n` placeholders.
    public var sql: String
    /// The values of the placeholders, in order.
    public private(set) var values: [Value] = []
    /// Whether it is planned with sequential scans off (`enable_seqscan`, for this transaction,
    /// when no row security applies to the reader: `PostgresIndex.reading`): it
    /// reads sets of rows through indexes that the planner would rather read by testing every
    /// row, not knowing that a test reads a large value out of TOAST (``RankedNameSearch``).
    var readsIndexes = false

    /// A statement that starts with `sql` (parameters are added as it is built).
    public init(_ sql: String = "") { self.sql = sql }

    /// Adds `value` as the next parameter and returns its placeholder, with a cast so that
    /// PostgreSQL never has to guess its type.
    mutating func bind(_ value: Value) -> String {
        values.append(value)
        let cast = switch value {
        case .text: "text"
        case .bytes: "bytea"
        case .double: "float8"
        case .integer: "int8"
        case .textArray: "text[]"
        }
        return "$\(values.count)::\(cast)"
    }

    mutating func bind(_ text: String) -> String { bind(.text(text)) }

    /// The statement as postgres-nio runs it.
    var query: PostgresQuery {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .text(let text): bindings.append(text)
            case .bytes(let bytes): bindings.append(ByteBuffer(bytes: bytes))
            case .double(let number): bindings.append(number)
            case .integer(let number): bindings.append(number)
            case .textArray(let texts): bindings.append(texts)
            }
        }
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }

    /// The SQL then one comment line per parameter, for people (`query --explain`).
    public var description: String {
        ([sql] + values.enumerated().map { "-- $\($0.offset + 1) = \($0.element)" }).joined(separator: "\n")
    }
}
