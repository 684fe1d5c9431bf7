import GRDB
import GRDBSQLite
import Testing
@testable import Searchlight

/// What search reads it reads through SQLite's C API on GRDB's cached statements
/// (``ReadStatement``): same answers as GRDB's own fetches, errors as GRDB's, every statement
/// reset once read (or abandoned), and still GRDB's to run afterwards.
@Suite("Statements read through the C API")
struct ReadStatementTests {
    private func database() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE kind (id INTEGER PRIMARY KEY, name TEXT, keywords TEXT, weight REAL)")
            try db.execute(sql: """
                INSERT INTO kind VALUES (1, 'pdf', 'pdf document', 0.5), (2, 'zéro', NULL, NULL), (3, CAST(x'610062' AS TEXT), 'x', 2)
                """)
        }
        return queue
    }

    @Test func bindsIntegersRealsTextAndNullInOrder() throws {
        try database().read { db in
            let byID = try db.readStatement("SELECT name, keywords FROM kind WHERE id = ?")
            #expect(try byID.firstRow(.integer(1)) { SearchableIndex.optionalText($0, 1) } == .some("pdf document"))
            // A NULL column and a missing row are told apart.
            #expect(try byID.firstRow(.integer(2)) { SearchableIndex.optionalText($0, 1) } == .some(nil))
            #expect(try byID.firstRow(.integer(9)) { SearchableIndex.optionalText($0, 1) } == nil)
            let byName = try db.readStatement("SELECT id FROM kind WHERE name = ? AND id > ?")
            #expect(try byName.firstRow(.text("zéro"), .integer(0)) { sqlite3_column_int64($0, 0) } == 2)
            // Text is bound with its length: a NUL inside it is part of it.
            #expect(try byName.firstRow(.text("a\u{0}b"), .integer(0)) { sqlite3_column_int64($0, 0) } == 3)
            #expect(try byName.firstRow(.text("a"), .integer(0)) { sqlite3_column_int64($0, 0) } == nil)
            let heavier = try db.readStatement("SELECT id FROM kind WHERE weight > ? OR (weight IS ? AND ? IS NULL) ORDER BY id")
            var ids: [Int64] = []
            try heavier.forEachRow(.real(1.5), .null, .text(nil)) { ids.append(sqlite3_column_int64($0, 0)); return true }
            #expect(ids == [2, 3])
        }
    }

    @Test func bindsNamedParametersAndRefusesUnknownOnes() throws {
        try database().read { db in
            let statement = try db.readStatement("SELECT count(*) FROM kind WHERE id >= :low AND (:name IS NULL OR name = :name)")
            var count: Int64 = -1
            try statement.forEachRow(named: ["low": .integer(2), "name": .null]) { count = sqlite3_column_int64($0, 0); return false }
            #expect(count == 2)
            try statement.forEachRow(named: ["low": .integer(1), "name": .text("pdf")]) { count = sqlite3_column_int64($0, 0); return false }
            #expect(count == 1)
            #expect(try statement.firstRow(named: ["low": .integer(3), "name": .null]) { sqlite3_column_int64($0, 0) } == 1)
            #expect(throws: DatabaseError.self) { try statement.forEachRow(named: ["missing": .integer(1)]) { _ in true } }
        }
    }

    @Test func rowsStepOneAtATimeAndAStatementLeftEarlyIsReset() throws {
        try database().read { db in
            let all = try db.readStatement("SELECT id FROM kind ORDER BY id")
            let (first, rest) = try all.withRows { rows -> (Int64?, [Int64]) in
                let first = try rows.next().map { sqlite3_column_int64($0, 0) }
                // Something else read between two rows.
                _ = try db.readStatement("SELECT name FROM kind WHERE id = ?").firstRow(.integer(2)) { _ in }
                var rest: [Int64] = []
                while let row = try rows.next() { rest.append(sqlite3_column_int64(row, 0)) }
                #expect(try rows.next() == nil)
                return (first, rest)
            }
            #expect(first == 1 && rest == [2, 3])
            // Left after one row: reset, so the next read starts from the first row again.
            try all.forEachRow { _ in false }
            #expect(sqlite3_stmt_busy(all.statement) == 0)
            #expect(try all.firstRow { sqlite3_column_int64($0, 0) } == 1)
        }
    }

    @Test func theStatementStaysGRDBs() throws {
        try database().read { db in
            let sql = "SELECT name FROM kind WHERE id = ?"
            _ = try db.readStatement(sql).firstRow(.integer(1)) { _ in }
            #expect(try String.fetchOne(db.cachedStatement(sql: sql), arguments: [2]) == "zéro")
            #expect(try db.readStatement(sql).firstRow(.integer(1)) { SearchableIndex.optionalText($0, 0) } == .some("pdf"))
            #expect(try String.fetchAll(db.cachedStatement(sql: sql), arguments: [1]) == ["pdf"])
        }
    }

    @Test func aFailingStepThrowsGRDBsError() throws {
        try database().read { db in
            // A run-time error (not a compile-time one): the step fails, not the statement.
            let failing = try db.readStatement("SELECT json_extract(?, '$')")
            #expect(throws: DatabaseError.self) { try failing.firstRow(.text("{not json")) { _ in } }
            // The statement is reset after the failure and runs again.
            #expect(try failing.firstRow(.text("[1]")) { SearchableIndex.optionalText($0, 0) } == .some("[1]"))
        }
    }
}
