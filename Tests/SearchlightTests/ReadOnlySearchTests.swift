import Foundation
import GRDBSQLite
import SearchlightTestSupport
import Testing
@testable import Searchlight

/// A read-only handle searches through its ``SQLiteReader`` (SQLite's C API alone) and opens
/// GRDB's connection only for what still needs it: the answers must be those of a writable
/// handle, which reads through GRDB's pool, word for word.
@Suite("Searches of a read-only handle", .ownThread)
struct ReadOnlySearchTests {
    private static let words = ["harbour", "lantern", "invoice", "quarterly", "report", "garden", "ledger", "report2024",
                                "Ωκεανός", "바다", "ทะเลสาบ", "zebra"]

    /// An index of `count` items named from ``words`` in two domains, some expired, some with
    /// text (when `content`), and the path of its file.
    private static func index(content: Bool, count: Int = 240, seed: UInt64) throws -> (SearchableIndex, String) {
        var random = SeededGenerator(seed: seed)
        let path = TestScratch.path("read-only")
        let index = try SearchableIndex(path: path)
        let now = Date().timeIntervalSince1970
        try index.indexItems((0..<count).map { number in
            let name = (0..<Int.random(in: 1...3, using: &random)).map { _ in words.randomElement(using: &random)! }
            var attributes = AttributeSet(contentType: number % 3 == 0 ? "application/pdf" : "text/plain")
            attributes.displayName = name.joined(separator: number % 2 == 0 ? " " : "_") + ".txt"
            attributes.contentModificationDate = Date(timeIntervalSince1970: now - Double(Int.random(in: 0...1_000_000, using: &random)))
            if content, number % 4 == 0 {
                attributes.textContent = (0..<12).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
            }
            return SearchableItem(uniqueIdentifier: ItemIdentifier("folder \(number % 5)/item-\(number).txt"),
                                  domainIdentifier: number % 7 == 0 ? "other" : "docs", attributeSet: attributes,
                                  expirationDate: number % 11 == 0 ? Date(timeIntervalSince1970: now - 60) : nil)
        })
        return (index, path)
    }

    /// What a search asks: single words, prefixes, pairs, a typo, nothing known.
    private static var queries: [[String]] {
        words.map { [$0] } + words.map { [String($0.prefix(3))] }
            + [["harbour", "lantern"], ["quarterly", "rep"], ["repotr"], ["lantren"], ["zzqx"], ["ledger", "바다"]]
    }

    @Test(arguments: [false, true])
    func itsAnswersAreThoseOfAWritableHandle(content: Bool) throws {
        let (writable, path) = try Self.index(content: content, seed: content ? 7 : 3)
        let readOnly = try SearchableIndex(path: path, readOnly: true)
        for words in Self.queries {
            for limit in [nil, 1, 5, 60] {
                for domain in [nil, "docs", "missing"] {
                    #expect(try readOnly.searchResults(words: words, domain: domain, limit: limit)
                        == writable.searchResults(words: words, domain: domain, limit: limit), "\(words) \(limit as Any) \(domain as Any)")
                    #expect(try readOnly.searchIdentifiers(words: words, domain: domain, limit: limit, scope: .names)
                        == writable.searchIdentifiers(words: words, domain: domain, limit: limit, scope: .names))
                }
            }
            #expect(try readOnly.countMatches(words: words) == writable.countMatches(words: words))
            #expect(try readOnly.countMatches(words: words, domain: "docs", scope: .names)
                == writable.countMatches(words: words, domain: "docs", scope: .names))
            #expect(try readOnly.spellingCorrection(words: words) == writable.spellingCorrection(words: words))
        }
        let identifier = ItemIdentifier("folder 1/item-1.txt")
        #expect(try readOnly.item(identifier, domain: "docs") == writable.item(identifier, domain: "docs"))
        #expect(try readOnly.items(withIdentifier: identifier) == writable.items(withIdentifier: identifier))
        #expect(try readOnly.item(identifier, domain: "other") == nil)
    }

    @Test func theSchemaCheckKnowsEveryMigration() {
        #expect(SearchableIndex.migrations == SearchableIndex.migrator.migrations)
    }

    @Test func nameSearchOpensNoGRDBConnectionAndAQueryOpensOne() throws {
        let (_, path) = try Self.index(content: false, seed: 11)
        let readOnly = try SearchableIndex(path: path, readOnly: true)
        try readOnly.readDomainStates()
        #expect(try !readOnly.search(words: ["harbour"], limit: 20).isEmpty)
        #expect(try readOnly.searchResults(words: ["zzqx"]).isEmpty)
        #expect(try readOnly.spellingCorrection(words: ["lantren"]) == ["lantern"])
        #expect(try readOnly.countMatches(words: ["ledger"]) > 0)
        #expect(try readOnly.item(ItemIdentifier("folder 2/item-2.txt"), domain: "docs") != nil)
        #expect(readOnly.currentConnections.openedDatabase == nil, "a name search set GRDB's connection up")
        #expect(try !readOnly.query(#"kMDItemDisplayName == "*harbour*""#).isEmpty)
        #expect(readOnly.currentConnections.openedDatabase != nil)
    }

    @Test func aContentSearchOpensGRDBsConnectionAtItsFirstUse() throws {
        let (writable, path) = try Self.index(content: true, seed: 13)
        let readOnly = try SearchableIndex(path: path, readOnly: true)
        #expect(readOnly.currentConnections.openedDatabase == nil)
        #expect(try readOnly.searchResults(words: ["garden"], limit: 10) == writable.searchResults(words: ["garden"], limit: 10))
        #expect(readOnly.currentConnections.openedDatabase != nil)
    }

    @Test func interruptStopsTheReadersStatement() throws {
        let (_, path) = try Self.index(content: false, count: 10, seed: 17)
        let readOnly = try SearchableIndex(path: path, readOnly: true)
        #expect(throws: SearchlightError.self) {
            try readOnly.readStatements { db in
                // A statement of a million rows: the first is read, then the handle is interrupted.
                try db.readStatement("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000) SELECT i FROM n")
                    .withRows { rows in
                        _ = try rows.next()
                        readOnly.interrupt()
                        while try rows.next() != nil {}
                    }
            }
        }
        // The next read is not interrupted.
        #expect(try readOnly.countMatches(words: ["harbour"], scope: .names) >= 0)
    }

    @Test func aClosedHandleFailsAndAReopenedOneReadsTheNewFile() throws {
        let (writable, path) = try Self.index(content: false, count: 30, seed: 19)
        let readOnly = try SearchableIndex(path: path, readOnly: true)
        let before = try readOnly.countMatches(words: ["harbour"])
        var attributes = AttributeSet(contentType: "text/plain")
        attributes.displayName = "harbour lights.txt"
        try writable.indexItems([SearchableItem(uniqueIdentifier: ItemIdentifier("harbour lights.txt"), domainIdentifier: "docs",
                                                attributeSet: attributes)])
        // A new read sees what was written since the handle opened (write-ahead log).
        #expect(try readOnly.countMatches(words: ["harbour"]) == before + 1)
        try readOnly.reopen()
        #expect(try readOnly.countMatches(words: ["harbour"]) == before + 1)
        readOnly.close()
        #expect(throws: SearchlightError.self) { try readOnly.search(words: ["harbour"]) }
    }
}
