import Foundation
import GRDB
import GRDBSQLite
import SearchlightTestSupport
import Testing
@testable import Searchlight

/// The read-only connection on SQLite's C API (``SQLiteReader``) registers the tokenizer itself:
/// a query's words must be split and folded exactly as GRDB's connections do, in every script.
@Suite("A reader on SQLite's C API", .ownThread)
struct SQLiteReaderTests {
    private static let texts = [
        "Ο ενάρετος άνθρωπος ζει ήσυχα στην Αθήνα", "대한민국의 수도는 서울입니다", "ภาษาไทยเป็นภาษาที่สวยงาม",
        "हिन्दी भारत की राजभाषा है", "Новогодняя ёлка стоит в зале", "Die Straße führt über die Brücke nach Köln",
        "Zażółć gęślą jaźń", "اللُّغَةُ العَرَبِيَّةُ جميلة", "ごはんを食べました",
    ]

    private static let unspaced: Set = ["ภาษาไทยเป็นภาษาที่สวยงาม", "ごはんを食べました"]

    private static func index() throws -> (SearchableIndex, String) {
        let path = TestScratch.path("reader")
        let index = try SearchableIndex(path: path)
        try index.indexItems(texts.enumerated().map { number, text in
            var attributes = AttributeSet(contentType: "text/plain")
            attributes.displayName = "\(text).txt"
            attributes.textContent = text
            return SearchableItem(uniqueIdentifier: ItemIdentifier("doc-\(number).txt"), domainIdentifier: "docs",
                                  attributeSet: attributes)
        })
        return (index, path)
    }

    @Test func itsTokenizerMatchesWhatGRDBsConnectionsMatch() throws {
        let (index, path) = try Self.index()
        let reader = try SQLiteReader(path: path, cacheKibibytes: 1024)
        var compared = 0
        for text in Self.texts {
            for word in text.split(separator: " ").map(String.init) {
                // As typed: the tokenizer folds the query's words (case, marks) as it folded the text's.
                for typed in [word, word.uppercased(), word + "*"] {
                    for (table, column) in [("item_words", "name"), ("item_content", "text")] {
                        let sql = "SELECT rowid FROM \(table) WHERE \(table) MATCH ? ORDER BY rowid"
                        let expression = "\(column) : \"\(typed.replacingOccurrences(of: "*", with: ""))\"" + (typed.hasSuffix("*") ? "*" : "")
                        let viaGRDB = try index.read { db in try Int64.fetchAll(db, sql: sql, arguments: [expression]) }
                        let viaReader = try reader.read {
                            var ids: [Int64] = []
                            try reader.readStatement(sql).forEachRow(.text(expression)) { ids.append(sqlite3_column_int64($0, 0)); return true }
                            return ids
                        }
                        #expect(viaReader == viaGRDB, "\(table) \(typed)")
                        // A run of unspaced letters (Thai, kana) is many words of the text, not one.
                        #expect(!viaGRDB.isEmpty || Self.unspaced.contains(text), "\(table) \(typed)")
                        compared += 1
                    }
                }
            }
        }
        #expect(compared > 150)
    }

    @Test func aMissingFileOrOneThatIsNoDatabaseIsAnError() throws {
        let missing = TestScratch.path("missing")
        #expect(throws: DatabaseError.self) { try SQLiteReader(path: missing, cacheKibibytes: 1024) }
        #expect(!FileManager.default.fileExists(atPath: missing), "a read-only open creates nothing")
        let garbage = TestScratch.path("garbage")
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: garbage))
        #expect(throws: DatabaseError.self) { try SQLiteReader(path: garbage, cacheKibibytes: 1024) }
    }

    @Test func aFailedReadRollsBackAndTheNextOneWorks() throws {
        let (_, path) = try Self.index()
        let reader = try SQLiteReader(path: path, cacheKibibytes: 1024)
        #expect(throws: DatabaseError.self) { try reader.read { _ = try reader.readStatement("SELECT nothing FROM nowhere") } }
        let count = try reader.read {
            try reader.readStatement("SELECT count(*) FROM item").firstRow { sqlite3_column_int64($0, 0) }
        }
        #expect(count == Int64(Self.texts.count))
    }
}
