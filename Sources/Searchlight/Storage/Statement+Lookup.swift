import GRDB
import GRDBSQLite

/// A value bound to a parameter of a look-up (``GRDB/Statement/firstRow(_:read:)``).
enum LookupKey {
    case integer(Int64)
    case text(String)
}

extension Statement {
    /// Runs this statement with `keys` bound to its parameters in order and hands its first row
    /// to `read`, whose columns are read in place through SQLite's C API; `nil` when it has none.
    ///
    /// For the look-ups a search makes for each candidate or kind (hundreds to thousands of
    /// them): GRDB's arguments and rows cost more than the look-up itself (a tenth of
    /// `search readme` on `/usr/share`, Benchmarks/README.md). The statement is reset before
    /// and after; GRDB binds its own arguments again when it runs the statement itself.
    func firstRow<T>(_ keys: LookupKey..., read: (SQLiteStatement) throws -> T) throws -> T? {
        let statement = sqliteStatement
        sqlite3_reset(statement)
        defer { sqlite3_reset(statement) }
        for (offset, key) in keys.enumerated() {
            let position = CInt(offset + 1)
            let code = switch key {
            case .integer(let value):
                sqlite3_bind_int64(statement, position, value)
            case .text(let value):
                sqlite3_bind_text(statement, position, value, CInt(value.utf8.count), Self.transient)
            }
            guard code == SQLITE_OK else { throw failure(code) }
        }
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return try read(statement)
        case SQLITE_DONE: return nil
        case let code: throw failure(code)
        }
    }

    /// SQLite's `SQLITE_TRANSIENT` (a macro Swift does not import): copy the bound text.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private func failure(_ code: CInt) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code),
                      message: String(cString: sqlite3_errmsg(sqlite3_db_handle(sqliteStatement))), sql: sql)
    }
}
