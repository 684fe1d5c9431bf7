import GRDB
import GRDBSQLite

/// A value bound to a parameter of a look-up (``GRDB/Statement/firstRow(_:read:)``).
enum LookupKey {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null

    /// `text`, or `NULL` when `nil`.
    static func text(_ value: String?) -> LookupKey { value.map { .text($0) } ?? .null }
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
        var first: T?
        try forEachRow(Array(keys.enumerated().map { (CInt($0.offset + 1), $0.element) })) { row in
            first = try read(row)
            return false
        }
        return first
    }

    /// Runs this statement with `keys` bound to its parameters in order, handing each row to
    /// `body` (columns read in place) until it returns `false`.
    func forEachRow(_ keys: LookupKey..., body: (SQLiteStatement) throws -> Bool) throws {
        try forEachRow(Array(keys.enumerated().map { (CInt($0.offset + 1), $0.element) }), body: body)
    }

    /// Runs this statement with `keys` bound to its named parameters (`:name`), handing each
    /// row to `body` until it returns `false`.
    func forEachRow(named keys: KeyValuePairs<String, LookupKey>, body: (SQLiteStatement) throws -> Bool) throws {
        let statement = sqliteStatement
        try forEachRow(keys.map { name, key in (sqlite3_bind_parameter_index(statement, ":" + name), key) }, body: body)
    }

    private func forEachRow(_ keys: [(position: CInt, key: LookupKey)], body: (SQLiteStatement) throws -> Bool) throws {
        let statement = sqliteStatement
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        defer { sqlite3_reset(statement) }
        for (position, key) in keys {
            guard position > 0 else { throw DatabaseError(resultCode: .SQLITE_RANGE, message: "no such parameter", sql: sql) }
            let code = switch key {
            case .integer(let value): sqlite3_bind_int64(statement, position, value)
            case .real(let value): sqlite3_bind_double(statement, position, value)
            case .text(let value): sqlite3_bind_text(statement, position, value, CInt(value.utf8.count), Self.transient)
            case .null: sqlite3_bind_null(statement, position)
            }
            guard code == SQLITE_OK else { throw failure(code) }
        }
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: guard try body(statement) else { return }
            case SQLITE_DONE: return
            case let code: throw failure(code)
            }
        }
    }

    /// SQLite's `SQLITE_TRANSIENT` (a macro Swift does not import): copy the bound text.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private func failure(_ code: CInt) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code),
                      message: String(cString: sqlite3_errmsg(sqlite3_db_handle(sqliteStatement))), sql: sql)
    }
}

extension SearchableIndex {
    /// The first column of every row of `sql`, as strings (`NULL` as empty).
    static func strings(in db: Database, _ sql: String) throws -> [String] {
        var strings: [String] = []
        try db.cachedStatement(sql: sql).forEachRow { row in
            strings.append(String(decoding: text(row, 0), as: UTF8.self))
            return true
        }
        return strings
    }
}
