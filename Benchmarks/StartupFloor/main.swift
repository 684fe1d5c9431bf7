import Foundation
import GRDB
import Searchlight

/// The floor under a search's start-up (issue 35, item 2): what a static Swift program linking
/// `searchlight`'s libraries costs before it searches anything, in the steps a search takes.
///
///     startup-floor exit                 starts and exits
///     startup-floor sqlite INDEX         opens INDEX read-only through SQLite's C API (`SQLiteReader`:
///                                        the tokenizer registered) and reads the schema check's two
///                                        statements in one transaction
///     startup-floor grdb INDEX           the same through GRDB, configured as a read-only
///                                        `SearchableIndex` configures the connection it opens
///                                        at the first read that needs it
///     startup-floor searchable INDEX     opens INDEX as `searchlight search` does (`SearchableIndex`,
///                                        read-only: its `SQLiteReader` and the schema check)
///
/// Benchmarks/run.sh times each against `plocate` beside `searchlight search`.
enum StartupFloor {
    /// The statements `SearchableIndex`'s read-only open runs (its schema check).
    static let tables = "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('item', 'grdb_migrations')"
    static let migrations = "SELECT identifier FROM grdb_migrations"

    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard let step = arguments.first, step == "exit" || arguments.count == 2 else { usage() }
        let path = arguments.last!
        let read: Int
        switch step {
        case "exit": read = 0
        case "sqlite": read = try sqlite(path)
        case "grdb": read = try grdb(path)
        case "searchable":
            _ = try SearchableIndex(path: path, readOnly: true)
            read = 1
        default: usage()
        }
        // Nothing read means the index is not what the benchmark made: a floor of nothing.
        if step != "exit" && read == 0 { fail("\(path): no table read") }
    }

    static func usage() -> Never {
        fail("usage: startup-floor exit | sqlite INDEX | grdb INDEX | searchable INDEX", status: 64)
    }

    static func fail(_ message: String, status: Int32 = 1) -> Never {
        FileHandle.standardError.write(Data("startup-floor: \(message)\n".utf8))
        exit(status)
    }

    static func sqlite(_ path: String) throws -> Int {
        let reader = try SQLiteReader(path: path, cacheKibibytes: SearchableIndex.readerCacheKibibytes)
        return try reader.read {
            var rows = 0
            for sql in [tables, migrations] {
                try reader.readStatement(sql).forEachRow { _ in rows += 1; return true }
            }
            return rows
        }
    }

    static func grdb(_ path: String) throws -> Int {
        let queue = try DatabaseQueue(path: path, configuration: SearchableIndex.configuration(readOnly: true))
        return try queue.read { db in
            try String.fetchAll(db, sql: tables).count + String.fetchAll(db, sql: migrations).count
        }
    }
}

do {
    try StartupFloor.main()
} catch {
    StartupFloor.fail("\(error)")
}
