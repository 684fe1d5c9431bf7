import GRDB
import GRDBSQLite

/// FTS5's own API on a connection (`fts5_api`), through which the `searchlight` tokenizer and
/// the ``PhraseColumns`` function are registered: `SELECT fts5(?)` hands its pointer to a
/// bound pointer of the type `fts5_api_ptr`.
enum FTS5API {
    /// The API of `connection`.
    /// - Throws: `DatabaseError` when the statement fails or FTS5 is not compiled in.
    static func of(_ connection: OpaquePointer) throws -> UnsafePointer<fts5_api> {
        let sql = "SELECT fts5(?)"
        var statement: SQLiteStatement?
        let code = sqlite3_prepare_v2(connection, sql, -1, &statement, nil)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
        }
        defer { sqlite3_finalize(statement) }
        var api: UnsafePointer<fts5_api>?
        let type: StaticString = "fts5_api_ptr"
        type.utf8Start.withMemoryRebound(to: CChar.self, capacity: type.utf8CodeUnitCount) { name in
            _ = sqlite3_bind_pointer(statement, 1, &api, name, nil)
        }
        sqlite3_step(statement)
        guard let api else { throw DatabaseError(resultCode: .SQLITE_ERROR, message: "FTS5 is not available", sql: sql) }
        return api
    }
}
