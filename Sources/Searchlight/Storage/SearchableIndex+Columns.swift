import GRDB
import GRDBSQLite

extension SearchableIndex {
    /// The UTF-8 bytes of a text column of the current row, empty when `NULL`.
    ///
    /// The bytes belong to SQLite: they stay valid only until the statement steps again or is
    /// reset, so copy them (``string(_:_:)``) before that. No copy is made here, which is what a
    /// scan of many rows wants.
    package static func text(_ statement: SQLiteStatement, _ column: Int32) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: sqlite3_column_text(statement, column), count: Int(sqlite3_column_bytes(statement, column)))
    }

    /// A text column of the current row as a string, empty when `NULL`.
    ///
    /// Invalid UTF-8 (which SQLite may hold) is repaired with U+FFFD.
    package static func string(_ statement: SQLiteStatement, _ column: Int32) -> String {
        String(decoding: text(statement, column), as: UTF8.self)
    }

    /// A text column of the current row as a string, `nil` when `NULL`.
    static func optionalText(_ statement: SQLiteStatement, _ column: Int32) -> String? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : string(statement, column)
    }

    /// The bytes of a blob column of the current row, empty when `NULL`.
    ///
    /// Valid only until the statement steps again, as ``text(_:_:)``'s.
    static func blob(_ statement: SQLiteStatement, _ column: Int32) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: sqlite3_column_blob(statement, column)?.assumingMemoryBound(to: UInt8.self),
                            count: Int(sqlite3_column_bytes(statement, column)))
    }
}
