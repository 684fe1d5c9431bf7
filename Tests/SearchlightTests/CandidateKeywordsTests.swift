import Foundation
import GRDB
import GRDBSQLite
import SearchlightTestSupport
import Testing
@testable import Searchlight

/// Name search puts a candidate's keywords together in Swift (``CandidateKeywords``): they
/// must be, byte for byte, what ``SearchableIndex/rankedKeywordsSQL`` gives, which the
/// full-text index and content search use.
@Suite("Candidate keywords", .ownThread)
struct CandidateKeywordsTests {
    private func item(_ name: String, _ describing: [String], description: String, tags: [String] = [],
                      comment: String? = nil, whereFroms: [String] = []) -> SearchableItem {
        var attributes = AttributeSet(contentType: "application/gzip")
        attributes.displayName = name
        attributes.contentDescription = description
        attributes.keywords = AttributeSet.nameKeywords(of: name) + describing
        attributes.userTags = tags
        attributes.comment = comment
        attributes.whereFroms = whereFroms
        return SearchableItem(uniqueIdentifier: ItemIdentifier("docs/\(name)"), domainIdentifier: "files",
                              attributeSet: attributes, identifierIsPath: true)
    }

    private var items: [SearchableItem] {
        let full = ["gzip", "archive", "compressed", "max", "compression"]
        return [
            item("long.gz", full, description: "gzip compressed data"),
            item("one two three four five six seven eight.gz", Array(full.prefix(2)), description: "gzip compressed data"),
            item("one two three four five six seven eight nine ten.gz", [], description: "gzip compressed data"),
            item("tagged.gz", full, description: "gzip compressed data", tags: ["Work", "Zürich"]),
            item("commented.gz", Array(full.prefix(3)), description: "gzip compressed data", comment: "budget 2024 draft"),
            item("fetched.gz", ["alpha"], description: "other", whereFroms: ["https://example.org/a", "https://example.org"]),
            item("all.gz", ["alpha", "béta"], description: "other", tags: ["x"], comment: "", whereFroms: ["u"]),
            item("bare.gz", [], description: "nothing"),
        ]
    }

    @Test func keywordsAreWhatSQLGives() throws {
        let fixture = try TemporaryIndex()
        try fixture.index.indexItems(items)
        let compared = try fixture.index.read { db in
            let statement = try db.makeStatement(sql: """
                SELECT item.identifier, item.kindId, item.derived, item.userTags, item.comment, item.whereFroms,
                    \(SearchableIndex.rankedKeywordsSQL)
                FROM item JOIN content_kind ON content_kind.id = item.kindId
                """)
            let rows = try Row.fetchCursor(statement)
            let columns = statement.sqliteStatement
            var keywords = try CandidateKeywords(in: db)
            var compared = 0
            while let row = try rows.next() {
                let expected = Array((row[6] as String? ?? "").utf8)
                let hasUserAttributes = (3...5).contains { !row.hasNull(atIndex: $0) }
                let (bytes, kind) = try #require(try keywords.withKeywords(columns, kind: 1, derived: 2, user: [3, 4, 5]) {
                    (Array($0), $1)
                })
                let identifier: Data = row[0]
                let name = String(decoding: identifier, as: UTF8.self)
                #expect(bytes == expected, "\(name)")
                #expect((kind == nil) == hasUserAttributes, "\(name)")
                compared += 1
            }
            return compared
        }
        #expect(compared == items.count)
    }

    @Test func searchRanksTheSameAsRankingOnWords() throws {
        let fixture = try TemporaryIndex()
        try fixture.index.indexItems(items)
        for words in [["gzip"], ["compress"], ["work"], ["zurich"], ["budget"], ["example"], ["alpha"], ["beta"], ["one", "gz"]] {
            let tokens = try SearchableIndex.nameQueryTokens(words)
            let (onBytes, split) = try fixture.index.read { db in
                (try SearchableIndex.nameCandidates(tokens, domain: nil, wholeInName: [], in: db).sorted(),
                 try SearchableIndex.nameCandidates(tokens, domain: nil, wholeInName: [], rankingOnBytes: false, in: db).sorted())
            }
            #expect(!onBytes.isEmpty, "\(words)")
            #expect(onBytes.map(\.identifier) == split.map(\.identifier), "\(words)")
            #expect(onBytes.map(\.fieldRank) == split.map(\.fieldRank), "\(words)")
            #expect(onBytes.map(\.prefixOnlyCount) == split.map(\.prefixOnlyCount), "\(words)")
        }
        // A tag ranks as a keyword: before a folder-name match, after a name match.
        #expect(try fixture.index.search(words: ["work"]).map(\.item.attributeSet.displayName) == ["tagged.gz"])
    }
}
