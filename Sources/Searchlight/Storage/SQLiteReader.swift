import GRDB
import GRDBSQLite
import Synchronization

/// A read-only connection to an index on SQLite's C API, without GRDB: what a search reads
/// through when the process starts only to search (issue 35: GRDB's connection set-up is a
/// third of `plocate`'s whole run, Benchmarks/README.md, "The floor under a search").
///
/// It opens the file read-only (in WAL mode a reader never waits for the writer), registers
/// the `searchlight` tokenizer every full-text table names (the same tokenization as GRDB's
/// registration, ``SearchlightTokenizer/tokenize(_:_:folder:emit:)``), keeps its statements
/// prepared (``readStatement(_:)``, read as on GRDB's connections), and reads in transactions
/// of its own, one at a time: its statements are prepared and run inside ``read(_:)``. Errors
/// are GRDB's `DatabaseError`, as everywhere else the index is read. A read-only
/// ``SearchableIndex`` searches through it (``SearchableIndex/readStatements(_:)``).
package final class SQLiteReader: ReadConnection, @unchecked Sendable {
    /// The connection, for SQLite's C API.
    package let connection: OpaquePointer
    /// Held by a read: the connection and ``statements`` are used by one thread at a time.
    private let reading = Mutex(())
    /// Whether the connection is open; held while it is interrupted or closed.
    private let isOpen = Mutex(true)
    /// The statements prepared so far: a search prepares a dozen or two. A list, not a
    /// dictionary: a dictionary's generic metadata is made at every start (Benchmarks/README.md,
    /// "The floor under a search").
    private var statements: [ReadStatement] = []

    /// Opens `path` read-only with `cacheKibibytes` of page cache.
    package init(path: String, cacheKibibytes: Int) throws {
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(opened)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
        }
        connection = opened
        sqlite3_extended_result_codes(connection, 1)
        sqlite3_busy_timeout(connection, 30_000)
        do {
            try execute("PRAGMA cache_size = -\(cacheKibibytes)")
            try registerTokenizer()
        } catch {
            sqlite3_close(connection)
            throw error
        }
    }

    deinit {
        close()
    }

    /// Closes the connection, after the read that runs, if any: reads after this fail. Closing
    /// again does nothing.
    package func close() {
        reading.withLock { _ in
            isOpen.withLock { open in
                guard open else { return }
                for prepared in statements { sqlite3_finalize(prepared.statement) }
                statements = []
                sqlite3_close(connection)
                open = false
            }
        }
    }

    /// Stops the statement that runs, from any thread: its read throws (`SQLITE_INTERRUPT`).
    package func interrupt() {
        isOpen.withLock { open in
            if open { sqlite3_interrupt(connection) }
        }
    }

    /// The statement for `sql`, prepared once and kept.
    package func readStatement(_ sql: String) throws -> ReadStatement {
        if let prepared = statements.first(where: { $0.sql == sql }) { return prepared }
        var statement: SQLiteStatement?
        let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(code, sql) }
        let prepared = ReadStatement(statement: statement, sql: sql)
        statements.append(prepared)
        return prepared
    }

    /// Runs `body` in one read transaction: every statement it runs sees the same index.
    /// Reads from other threads wait for it.
    package func read<T>(_ body: () throws -> T) throws -> T {
        var result: T?
        try reading.withLock { _ in
            guard isOpen.withLock({ $0 }) else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the index is closed")
            }
            try execute("BEGIN")
            do {
                result = try body()
                try execute("COMMIT")
            } catch {
                sqlite3_exec(connection, "ROLLBACK", nil, nil, nil)
                throw error
            }
        }
        return result!
    }

    /// Runs `sql`, which returns no row.
    func execute(_ sql: String) throws {
        let code = sqlite3_exec(connection, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw failure(code, sql) }
    }

    func failure(_ code: CInt, _ sql: String?) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
    }

    // MARK: The tokenizer

    /// One tokenizer instance: FTS5 makes one per table and calls it from one thread at a time.
    private final class Tokenizer {
        var folder = RunFolder()
    }

    /// Registers `searchlight` through FTS5's own API (`fts5_api.xCreateTokenizer`).
    private func registerTokenizer() throws {
        let api = try FTS5API.of(connection)
        var tokenizer = fts5_tokenizer(
            xCreate: { _, _, _, handle in
                handle?.pointee = OpaquePointer(Unmanaged.passRetained(Tokenizer()).toOpaque())
                return SQLITE_OK
            },
            xDelete: { handle in
                guard let handle else { return }
                Unmanaged<Tokenizer>.fromOpaque(UnsafeMutableRawPointer(handle)).release()
            },
            xTokenize: { handle, context, _, text, length, emit in
                guard let handle, let emit else { return SQLITE_ERROR }
                let tokenizer = Unmanaged<Tokenizer>.fromOpaque(UnsafeMutableRawPointer(handle)).takeUnretainedValue()
                return SearchlightTokenizer.tokenize(text, length, folder: &tokenizer.folder) { token, start, end in
                    emit(context, 0, token.baseAddress, CInt(token.count), start, end)
                }
            })
        let code = api.pointee.xCreateTokenizer(UnsafeMutablePointer(mutating: api), SearchlightTokenizer.name, nil, &tokenizer, nil)
        guard code == SQLITE_OK else { throw failure(code, nil) }
    }
}
