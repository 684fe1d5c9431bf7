import GRDB
import GRDBSQLite
import Testing
@testable import Searchlight

/// The look-ups a search makes per candidate run GRDB's statements through SQLite's C API
/// (``GRDB/Statement/firstRow(_:read:)``): same answers as GRDB's own fetch, errors as
/// GRDB's, and the statement still GRDB's to run afterwards.
@Suite("Look-ups through the C API")
struct StatementLookupTests {
    private func database() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE kind (id INTEGER PRIMARY KEY, name TEXT, keywords TEXT)")
            try db.execute(sql: "INSERT INTO kind VALUES (1, 'pdf', 'pdf document'), (2, 'zéro', NULL), (3, CAST(x'610062' AS TEXT), 'x')")
        }
        return queue
    }

    @Test func bindsIntegersAndTextInOrder() throws {
        try database().read { db in
            let byID = try db.cachedStatement(sql: "SELECT name, keywords FROM kind WHERE id = ?")
            #expect(try byID.firstRow(.integer(1)) { SearchableIndex.optionalText($0, 1) } == .some("pdf document"))
            // A NULL column and a missing row are told apart.
            #expect(try byID.firstRow(.integer(2)) { SearchableIndex.optionalText($0, 1) } == .some(nil))
            #expect(try byID.firstRow(.integer(9)) { SearchableIndex.optionalText($0, 1) } == nil)
            let byName = try db.cachedStatement(sql: "SELECT id FROM kind WHERE name = ? AND id > ?")
            #expect(try byName.firstRow(.text("zéro"), .integer(0)) { sqlite3_column_int64($0, 0) } == 2)
            // Text is bound with its length: a NUL inside it is part of it.
            #expect(try byName.firstRow(.text("a\u{0}b"), .integer(0)) { sqlite3_column_int64($0, 0) } == 3)
            #expect(try byName.firstRow(.text("a"), .integer(0)) { sqlite3_column_int64($0, 0) } == nil)
        }
    }

    @Test func theStatementStaysGRDBs() throws {
        try database().read { db in
            let byID = try db.cachedStatement(sql: "SELECT name FROM kind WHERE id = ?")
            _ = try byID.firstRow(.integer(1)) { _ in }
            #expect(try String.fetchOne(byID, arguments: [2]) == "zéro")
            #expect(try byID.firstRow(.integer(1)) { SearchableIndex.optionalText($0, 0) } == .some("pdf"))
            #expect(try String.fetchAll(byID, arguments: [1]) == ["pdf"])
        }
    }

    @Test func aFailingStepThrowsGRDBsError() throws {
        try database().read { db in
            // A run-time error (not a compile-time one): the step fails, not the statement.
            let failing = try db.cachedStatement(sql: "SELECT json_extract(?, '$')")
            #expect(throws: DatabaseError.self) { try failing.firstRow(.text("{not json")) { _ in } }
            // The statement is reset after the failure and runs again.
            #expect(try failing.firstRow(.text("[1]")) { SearchableIndex.optionalText($0, 0) } == .some("[1]"))
        }
    }
}
