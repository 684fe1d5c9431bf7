import GRDB
import GRDBSQLite

/// A value bound to a parameter of a ``ReadStatement``.
package enum LookupKey {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    case null

    /// `text`, or `NULL` when `nil`.
    package static func text(_ value: String?) -> LookupKey { value.map { .text($0) } ?? .null }
}

/// A statement a search reads through SQLite's C API: prepared and kept by its connection,
/// bound, stepped, and its rows' columns read in place (``SearchableIndex/text(_:_:)``…).
///
/// Search reads this way rather than through GRDB's rows and fetch helpers: their generic
/// metadata is built at first use, which every search process pays (a tenth of a search with
/// no hit on `/usr/share`), and a row and its arguments per candidate cost more than the
/// look-up itself (Benchmarks/README.md, "The floor under a search"). The statement is reset
/// before it is bound; GRDB binds its own arguments again whenever it runs the statement.
package struct ReadStatement {
    package let statement: SQLiteStatement
    package let sql: String

    /// The first row, handed to `read`; `nil` when there is none.
    package func firstRow<T>(_ keys: LookupKey..., read: (SQLiteStatement) throws -> T) throws -> T? {
        try withRows(bound: positions(keys)) { rows in try rows.next().map(read) }
    }

    /// The first row, `keys` bound to the named parameters (`:name`), handed to `read`; `nil` when there is none.
    package func firstRow<T>(named keys: KeyValuePairs<String, LookupKey>, read: (SQLiteStatement) throws -> T) throws -> T? {
        try withRows(named: keys) { rows in try rows.next().map(read) }
    }

    /// Each row handed to `body` until it returns `false`.
    package func forEachRow(_ keys: LookupKey..., body: (SQLiteStatement) throws -> Bool) throws {
        try withRows(bound: positions(keys)) { rows in while let row = try rows.next(), try body(row) {} }
    }

    /// Each row, `keys` bound to the named parameters (`:name`), handed to `body` until it returns `false`.
    package func forEachRow(named keys: KeyValuePairs<String, LookupKey>, body: (SQLiteStatement) throws -> Bool) throws {
        try withRows(named: keys) { rows in while let row = try rows.next(), try body(row) {} }
    }

    /// The rows handed to `body` to step one at a time: for a caller that reads some, does
    /// something else, and reads on. The statement is reset when `body` returns.
    package func withRows<T>(_ keys: LookupKey..., body: (inout ReadRows) throws -> T) throws -> T {
        try withRows(bound: positions(keys), body: body)
    }

    /// ``withRows(_:body:)`` with `keys` bound to the named parameters (`:name`).
    package func withRows<T>(named keys: KeyValuePairs<String, LookupKey>, body: (inout ReadRows) throws -> T) throws -> T {
        try withRows(bound: keys.map { name, key in (sqlite3_bind_parameter_index(statement, ":" + name), key) }, body: body)
    }

    private func positions(_ keys: [LookupKey]) -> [(CInt, LookupKey)] {
        keys.enumerated().map { (CInt($0.offset + 1), $0.element) }
    }

    private func withRows<T>(bound keys: [(position: CInt, key: LookupKey)], body: (inout ReadRows) throws -> T) throws -> T {
        sqlite3_reset(statement)
        defer { sqlite3_reset(statement) }
        sqlite3_clear_bindings(statement)
        for (position, key) in keys {
            guard position > 0 else { throw DatabaseError(resultCode: .SQLITE_RANGE, message: "no such parameter", sql: sql) }
            let code = switch key {
            case .integer(let value): sqlite3_bind_int64(statement, position, value)
            case .real(let value): sqlite3_bind_double(statement, position, value)
            case .text(let value): sqlite3_bind_text(statement, position, value, CInt(value.utf8.count), Self.transient)
            case .blob(let bytes): bytes.withUnsafeBytes { sqlite3_bind_blob(statement, position, $0.baseAddress, CInt($0.count), Self.transient) }
            case .null: sqlite3_bind_null(statement, position)
            }
            guard code == SQLITE_OK else { throw failure(code) }
        }
        var rows = ReadRows(statement: self)
        return try body(&rows)
    }

    /// SQLite's `SQLITE_TRANSIENT` (a macro Swift does not import): copy the bound text.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    func failure(_ code: CInt) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code),
                      message: String(cString: sqlite3_errmsg(sqlite3_db_handle(statement))), sql: sql)
    }
}

/// The rows of a bound ``ReadStatement``, stepped one at a time (``ReadStatement/withRows(_:body:)``).
package struct ReadRows {
    let statement: ReadStatement
    private var done = false

    init(statement: ReadStatement) {
        self.statement = statement
    }

    /// The next row, its columns to read before the next call; `nil` after the last.
    package mutating func next() throws -> SQLiteStatement? {
        guard !done else { return nil }
        switch sqlite3_step(statement.statement) {
        case SQLITE_ROW:
            return statement.statement
        case SQLITE_DONE:
            done = true
            return nil
        case let code:
            done = true
            throw statement.failure(code)
        }
    }
}

/// A connection search reads through, one statement at a time (``ReadStatement``): GRDB's
/// `Database` inside a transaction of ``SearchableIndex``, or a read-only handle's
/// ``SQLiteReader``, which opens without GRDB (Benchmarks/README.md, "The floor under a
/// search"). Name search, the spelling pass and the schema check take either, so that a
/// search has one implementation whichever connection runs it.
package protocol ReadConnection: AnyObject {
    /// The statement for `sql`, prepared once per connection and kept.
    func readStatement(_ sql: String) throws -> ReadStatement
}

extension Database: ReadConnection {
    /// GRDB's cached statement for `sql`, to read through SQLite's C API.
    package func readStatement(_ sql: String) throws -> ReadStatement {
        ReadStatement(statement: try cachedStatement(sql: sql).sqliteStatement, sql: sql)
    }
}

extension SearchableIndex {
    /// The first column of every row of `sql`, as strings (`NULL` as empty).
    static func strings(in db: any ReadConnection, _ sql: String) throws -> [String] {
        var strings: [String] = []
        try db.readStatement(sql).forEachRow { row in
            strings.append(string(row, 0))
            return true
        }
        return strings
    }
}
