import Foundation
@testable import Searchlight
@testable import SearchlightPostgres
import SearchlightTestSupport
import Testing

/// The items of ``QueryFixture`` in a PostgreSQL database, built once per test process.
final class PostgresQueryFixture: Sendable {
    static let shared = Task { try await PostgresQueryFixture() }

    let index: PostgresIndex

    private init() async throws {
        let sqlite = QueryFixture.shared
        index = try await PostgresIndex(url: try await PostgresTestDatabase.makeURL(),
                                        operationTimeout: PostgresTestDatabase.operationTimeout, environment: [:])
        try await index.indexItems(sqlite.items.keys.sorted().map { sqlite.items[$0]! })
    }

    /// The sorted keys of the items `query` returns from PostgreSQL.
    func keys(_ query: String) async throws -> [String] {
        try await index.query(QueryExpression(parsing: query), now: QueryFixture.now, calendar: QueryFixture.calendar)
            .map(QueryFixture.shared.key(of:)).sorted()
    }
}

@Suite("PostgreSQL query compiler", .needsPostgres)
struct PostgresQueryTests {
    @Test("The SQLite query table gives the same answers on PostgreSQL", arguments: QueryCompilerTests.cases)
    func sameAnswersAsSQLite(_ queryCase: QueryCase) async throws {
        let fixture = try await PostgresQueryFixture.shared.value
        let keys = try await fixture.keys(queryCase.query)
        let expression = try QueryExpression(parsing: queryCase.query)
        let count = try await fixture.index.countQuery(expression, now: QueryFixture.now, calendar: QueryFixture.calendar)
        let lite = try QueryFixture.shared.keys(queryCase.query)
        #expect(keys == queryCase.expected)
        #expect(keys == lite)
        #expect(count == queryCase.expected.count)
    }

    @Test func resultsComeMostRecentlyModifiedFirst() async throws {
        let fixture = try await PostgresQueryFixture.shared.value
        let sqlite = QueryFixture.shared
        let items = try await fixture.index.query("size > 0")
        #expect(items.map(sqlite.key(of:)) == (try sqlite.index.query("size > 0")).map(sqlite.key(of:)))
        #expect(try await fixture.index.query("size > 0", limit: 2).map(sqlite.key(of:)) == ["H", "M"])
        #expect(try await fixture.index.query(#"displayName == "*""#, domain: "photos").map(sqlite.key(of:)) == ["E", "D"])
        // Items read back equal those of the SQLite index, attribute for attribute.
        // (Query results of the SQLite index no longer carry their text, which `item` reads.)
        for (postgres, lite) in zip(items, try sqlite.index.query("size > 0")) {
            var withoutText = postgres.item
            withoutText.attributeSet.textContent = nil
            #expect(withoutText == lite.item)
        }
    }

    @Test func nameSearchAgreesWithTheSQLiteIndex() async throws {
        let fixture = try await PostgresQueryFixture.shared.value
        let sqlite = QueryFixture.shared
        for words in [["report"], ["quart"], ["canon"], ["东京"], ["rep", "draft"], ["cafe"], ["2024"], ["word"],
                      ["html"], ["parser"], ["résumé"], ["reports"], ["2025", "img"], ["menu", "le"]] {
            let postgres = try await fixture.index.searchIdentifiers(words: words, domain: nil, limit: nil, includingText: false)
            let lite = try sqlite.index.searchIdentifiers(words: words, scope: .names)
            #expect(postgres == lite, "\(words)")
        }
    }

    /// A first page read from the best tier alone (every word whole in the name), or from the
    /// names that start a word with each word when none is whole anywhere, is the first page
    /// of the full ranking, for any limit, domain and scope.
    @Test func aLimitedSearchIsTheStartOfTheFullRanking() async throws {
        let fixture = try await PostgresQueryFixture.shared.value
        for words in [["report"], ["quarterly"], ["canon"], ["2024"], ["img"], ["report", "2024"], ["menu"], ["résumé"],
                      ["rep"], ["quart"], ["qua", "rep"], ["im"], ["r"], ["res"], ["men"], ["2"]] {
            for domain in [nil, "docs", "photos"] as [String?] {
                for includingText in [true, false] {
                    let all = try await fixture.index.referencesRankedBySets(words: words, domain: domain, includingText: includingText)
                        .map(\.identifier)
                    #expect(try await fixture.index.referencesRankedRowByRow(words: words, domain: domain, limit: nil,
                                                                             includingText: includingText)?.map(\.identifier) == all)
                    for limit in 1...4 {
                        let page = try await fixture.index.searchIdentifiers(words: words, domain: domain, limit: limit,
                                                                             includingText: includingText)
                        #expect(page == Array(all.prefix(limit)), "\(words) \(domain ?? "-") \(limit)")
                        let rowByRow = try await fixture.index.referencesRankedRowByRow(words: words, domain: domain, limit: limit,
                                                                                        includingText: includingText)
                        #expect(rowByRow?.map(\.identifier) == Array(all.prefix(limit)), "\(words) \(domain ?? "-") \(limit)")
                        let items = try await fixture.index.search(words: words, domain: domain, limit: limit,
                                                                   includingText: includingText)
                        #expect(items.map(\.item.uniqueIdentifier) == page, "\(words) \(domain ?? "-") \(limit)")
                    }
                }
            }
        }
    }

    @Test func longQueriesRun() async throws {
        let fixture = try await PostgresQueryFixture.shared.value
        let sizes = (0..<1000).map { _ in "size==10" }.joined(separator: "||")
        #expect(try await fixture.keys(sizes) == ["J"])
        let names = (0..<250).map { "!(displayName == \"x\($0)*\"cd)" }.joined(separator: " && ")
        #expect(try await fixture.index.countQuery(QueryExpression(parsing: names)) == 17)
    }

    @Test func everyUserValueIsABoundParameter() async throws {
        let fixture = try await PostgresQueryFixture.shared.value
        let explanation = try await fixture.index.explainQuery(
            #"title == "x'; DROP TABLE item; --"cd || size > 123456 || contentType == 'zz/top' || path == "a'b*""#)
        let sql = explanation.split(separator: "\n")[0]
        #expect(!sql.contains("DROP"))
        #expect(!sql.contains("123456"))
        #expect(!sql.contains("zz/top"))
        #expect(explanation.contains("DROP TABLE"))
        #expect(explanation.contains("-- plan:"))
        #expect(try await fixture.index.itemCount() == 17)
    }

    @Test func selectiveQueriesUseIndexes() async throws {
        let fixture = try await PostgresQueryFixture.shared.value
        for query in [#"displayName == "*report*"c"#, #"displayName == "*report*"cd"#, #"displayName == "quart"cdw"#, #"contentTypeTree == "image""#,
                      #"keywords == "report"cdw"#, #"textContent == "quarterly numb"cdw"#] {
            // A tiny table is scanned whatever its indexes: make scans look expensive.
            let explanation = try await fixture.index.explainQuery(query, domain: nil, limit: nil, forcingIndexes: true)
            #expect(explanation.contains("Bitmap Index Scan"), "\(query): \(explanation)")
        }
    }
}
