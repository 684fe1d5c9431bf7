import GRDB
import GRDBSQLite

extension SearchableIndex {
    /// The UTF-8 bytes of a text column of the current row, empty when `NULL`.
    package static func text(_ statement: SQLiteStatement, _ column: Int32) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: sqlite3_column_text(statement, column), count: Int(sqlite3_column_bytes(statement, column)))
    }

    /// A text column of the current row as a string, empty when `NULL`.
    package static func string(_ statement: SQLiteStatement, _ column: Int32) -> String {
        String(decoding: text(statement, column), as: UTF8.self)
    }

    /// A text column of the current row as a string, `nil` when `NULL`.
    static func optionalText(_ statement: SQLiteStatement, _ column: Int32) -> String? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : string(statement, column)
    }

    /// The bytes of a blob column of the current row, empty when `NULL`.
    static func blob(_ statement: SQLiteStatement, _ column: Int32) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: sqlite3_column_blob(statement, column)?.assumingMemoryBound(to: UInt8.self),
                            count: Int(sqlite3_column_bytes(statement, column)))
    }
}
