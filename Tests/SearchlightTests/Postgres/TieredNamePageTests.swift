import Foundation
import Searchlight
import Synchronization
@testable import SearchlightPostgres
import SearchlightTestSupport
import Testing

/// A first page read from the newest matches and the rows that could rank before them
/// (``TieredNamePage``) is the first page of the full ranking, however short the walk.
@Suite("PostgreSQL pages from the newest matches", .needsPostgres, .ownThread)
struct TieredNamePageTests {
    /// Words that start one another (`al`, `alp`, `alpha`, `alpine`), in every field, some
    /// items holding a phrase, dates that repeat, two domains, an expired item: 240 items.
    static func items() -> [SearchableItem] {
        var random = SeededGenerator(seed: 47)
        let vocabulary = ["alpha", "alpine", "al", "bravo", "brave", "zulu", "zeppelin", "note", "net", "present"]
        func some(_ count: Int) -> [String] { (0..<count).map { _ in vocabulary.randomElement(using: &random)! } }
        return (0..<240).map { number in
            var attributes = AttributeSet(contentType: "text/plain")
            attributes.displayName = (Int.random(in: 0..<4, using: &random) == 0 ? some(1) : ["file"]).joined() + "_\(number).txt"
            attributes.title = Int.random(in: 0..<5, using: &random) == 0 ? some(2).joined(separator: " ") : nil
            attributes.keywords = some(Int.random(in: 0..<3, using: &random))
            attributes.authors = Int.random(in: 0..<8, using: &random) == 0 ? some(1) : []
            attributes.textContent = (some(Int.random(in: 0..<6, using: &random)) + (number % 9 == 0 ? ["net", "present"] : []))
                .joined(separator: " ")
            // A few dates shared by many items: the walk's last date is often shared.
            attributes.contentModificationDate = Date(timeIntervalSince1970: Double(Int.random(in: 0..<60, using: &random)))
            return SearchableItem(uniqueIdentifier: ItemIdentifier("\(number % 3 == 0 ? "photos" : "docs")/item-\(number).txt"),
                                  domainIdentifier: number % 3 == 0 ? "photos" : "docs", attributeSet: attributes,
                                  expirationDate: number == 17 ? Date(timeIntervalSince1970: 1) : nil, identifierIsPath: true)
        }
    }

    @Test func aPageFromTheNewestMatchesIsTheStartOfTheFullRanking() async throws {
        let (index, url) = try await PostgresTestDatabase.makeIndex()
        defer { index.close() }
        // No statistics until the test asks for them: autovacuum's `ANALYZE`, at a time of its
        // own, would change which way some pages take (``TieredNamePage/fieldShare(_:_:)``).
        let database = String(url.split(separator: "/").last!.split(separator: "?").first!)
        _ = try await PostgresCluster.shared().psql("ALTER TABLE item SET (autovacuum_enabled = false)", database: database)
        try await index.indexItems(Self.items())
        var read = 0, leftToTheRanking = 0
        for words in [["a"], ["al"], ["alp"], ["alpha"], ["alpine"], ["b"], ["brav"], ["z"], ["zep"], ["n"], ["ne"], ["note"],
                      ["alpha", "z"], ["al", "bravo"], ["net", "present"], ["net", "pre"], ["zulu", "a"], ["n", "p", "a"],
                      // Compounds: a name typed as written, and its start.
                      ["file_1"], ["file_12"], ["alpha_2"], ["file_2", "al"], ["file1"]] {
            for includingText in [true, false] {
                for domain in [nil, "docs"] as [String?] {
                    let all = try await index.referencesRankedBySets(words: words, domain: domain, includingText: includingText)
                    // Few matches, each ranked on its row, rank as the sets rank them.
                    #expect(try await index.referencesRankedRowByRow(words: words, domain: domain, limit: nil,
                                                                     includingText: includingText) == all)
                    for limit in [1, 3, 10] {
                        for (walking, ranking) in [(4, 1000), (30, 1000), (120, 1000), (2000, 1000), (30, 6), (2000, 6)] {
                            guard let page = try await index.referencesRankedRowByRow(words: words, domain: domain, limit: limit,
                                                                                      includingText: includingText, walking: walking,
                                                                                      ranking: ranking, few: 0) else {
                                // A walk of every item meets every match: only fewer than a page leave it.
                                #expect(walking < 240 || ranking < 240 || all.count < limit, "\(words) \(domain ?? "-") \(limit)")
                                leftToTheRanking += 1
                                continue
                            }
                            read += 1
                            #expect(page == Array(all.prefix(limit)), "\(words) text: \(includingText) \(domain ?? "-") \(limit) \(walking) \(ranking)")
                        }
                    }
                }
            }
        }
        // Most pages are read from the walk; short walks leave some to the full ranking.
        #expect(read > leftToTheRanking, "\(read) read, \(leftToTheRanking) left to the full ranking")
        #expect(leftToTheRanking > 0)
        // With the statistics that tell a word's share of the fields when the walk's shares
        // cannot (as autovacuum's `ANALYZE` keeps them), the pages are still the ranking's.
        _ = try await PostgresCluster.shared().psql("ANALYZE item", database: database)
        // The handle read the table's size before (-1, never analyzed) and keeps it a minute.
        index.plannedItems.withLock { $0 = nil }
        let askedBefore = index.fieldSharesAsked.load(ordering: .relaxed)
        for words in [["a"], ["al"], ["alpha"], ["z"], ["n"], ["note"], ["alpha", "z"], ["al", "bravo"], ["net", "pre"],
                      ["zulu", "a"], ["n", "p", "a"], ["file_1"], ["file_2", "al"]] {
            for includingText in [true, false] {
                let all = try await index.referencesRankedBySets(words: words, domain: nil, includingText: includingText)
                for limit in [1, 3, 10] {
                    for (walking, ranking) in [(30, 1000), (120, 1000), (2000, 1000), (30, 6), (2000, 6)] {
                        guard let page = try await index.referencesRankedRowByRow(words: words, domain: nil, limit: limit,
                                                                                  includingText: includingText, walking: walking,
                                                                                  ranking: ranking, few: 0) else { continue }
                        #expect(page == Array(all.prefix(limit)), "analyzed: \(words) text: \(includingText) \(limit) \(walking) \(ranking)")
                    }
                }
            }
        }
        // Some of those pages asked the statistics.
        #expect(index.fieldSharesAsked.load(ordering: .relaxed) > askedBefore)
    }

    /// A count of several words read as the intersection of each word's rows (texts in TOAST)
    /// counts what one pass over every word counts, and what the search lists.
    @Test func aCountByIntersectionCountsWhatTheSearchFinds() async throws {
        let (index, _) = try await PostgresTestDatabase.makeIndex()
        defer { index.close() }
        try await index.indexItems(Self.items())
        for words in [["alpha", "z"], ["al", "bravo"], ["net", "present"], ["net", "pre"], ["zulu", "a"], ["n", "p", "a"],
                      ["file_2", "al"], ["b", "z"]] {
            for includingText in [true, false] {
                for domain in [nil, "docs"] as [String?] {
                    let listed = try await index.referencesRankedBySets(words: words, domain: domain, includingText: includingText)
                    let oneByOne = try await index.countAsTyped(words: words, domain: domain, includingText: includingText,
                                                                intersecting: false)
                    let intersected = try await index.countAsTyped(words: words, domain: domain, includingText: includingText,
                                                                   intersecting: true)
                    #expect(intersected == oneByOne && oneByOne == listed.count, "\(words) \(includingText) \(domain ?? "-")")
                }
            }
        }
    }

    /// The ranking by sets reads its page from the rows with every word whole when they fill
    /// it (the whole tier), else, for one word, from those where it starts a word of a field:
    /// that page is the start of the full ranking, and a page neither tier fills is the full
    /// ranking's own.
    @Test func aPageOfATierIsTheStartOfTheFullRanking() async throws {
        let (index, _) = try await PostgresTestDatabase.makeIndex()
        defer { index.close() }
        // Three old texts holding `bra` whole, which the names and keywords (`bravo`, `brave`)
        // hold as a prefix: those texts rank first, before the second tier's rows.
        let whole = (0..<3).map { number in
            var attributes = AttributeSet(contentType: "text/plain")
            attributes.displayName = "other_\(number).txt"
            attributes.textContent = "a bra of lace"
            attributes.contentModificationDate = Date(timeIntervalSince1970: 0)
            return SearchableItem(uniqueIdentifier: ItemIdentifier("docs/other-\(number).txt"), domainIdentifier: "docs",
                                  attributeSet: attributes, identifierIsPath: true)
        }
        try await index.indexItems(Self.items() + whole)
        // How many pages each tier read (2: the ranking of every match), with texts.
        var pagesByTier: [Int: Int] = [:]
        for words in [["a"], ["al"], ["alpha"], ["b"], ["brav"], ["bra"], ["n"], ["ne"], ["net"], ["z"], ["alpha", "z"],
                      ["al", "bravo"], ["net", "present"], ["net", "pre"], ["zulu", "a"], ["n", "p", "a"], ["file_1"],
                      ["file_2", "al"], ["pre"], ["p"], ["present", "n"], ["zul", "zep"]] {
            for includingText in [true, false] {
                for domain in [nil, "docs"] as [String?] {
                    let all = try await index.referencesRankedBySets(words: words, domain: domain, includingText: includingText)
                    for limit in [1, 3, 10, 40, 300] {
                        let page = try await index.referencesRankedBySets(words: words, domain: domain, limit: limit,
                                                                          includingText: includingText)
                        #expect(page == Array(all.prefix(limit)), "\(words) text: \(includingText) \(domain ?? "-") \(limit)")
                        let tiers = try await index.tiersRankedBySets(words: words, domain: domain, limit: limit, includingText: includingText)
                        // A page is read by one part of the statement.
                        #expect(tiers.count == page.count && Set(tiers).count <= 1, "\(words) \(limit): \(tiers)")
                        if includingText, let tier = tiers.first { pagesByTier[tier, default: 0] += 1 }
                    }
                }
            }
        }
        // Every tier read some pages: whole words, a word starting one in a field, every match.
        #expect(pagesByTier.keys.sorted() == [0, 1, 2], "\(pagesByTier)")
        // `--explain` says so.
        let plan = PostgresIndex.searchPlan(words: ["a"], includingText: true).joined(separator: "\n")
        #expect(plan.contains("from the rows with every word whole, then from those where it starts a word of a field"), "\(plan)")
    }
}

/// Words of many scripts ranked row by row rank as the sets rank them: Han and kana (tested on
/// the text as written), Hangul, Greek with and without its marks, Arabic, Cyrillic.
@Suite("PostgreSQL row by row in every script", .needsPostgres, .ownThread)
struct RowByRowScriptsTests {
    @Test func everyScriptRanksRowByRowAsBySets() async throws {
        let (index, _) = try await PostgresTestDatabase.makeIndex()
        defer { index.close() }
        let texts = ["東京の会議の報告書", "서울입니다 회의록", "Καλημέρα κόσμε, ημερολόγιο", "مرحبا بالعالم تقرير", "Привет мир отчёт",
                     "東京タワーの写真", "서울 사진", "καλημερα αναφορά", "отчёт о встрече", "report of the meeting"]
        var items: [SearchableItem] = []
        for (number, text) in texts.enumerated() {
            var attributes = AttributeSet(contentType: "text/plain")
            attributes.displayName = (number % 2 == 0 ? text.split(separator: " ").first.map(String.init) ?? "note" : "note") + "_\(number).txt"
            attributes.textContent = text
            attributes.contentModificationDate = Date(timeIntervalSince1970: Double(number % 4))
            items.append(SearchableItem(uniqueIdentifier: ItemIdentifier("notes/\(number).txt"), domainIdentifier: "notes",
                                        attributeSet: attributes, identifierIsPath: true))
        }
        try await index.indexItems(items)
        var found = 0
        for words in [["東京"], ["東"], ["会議"], ["서울"], ["서"], ["회의"], ["καλημέρα"], ["καλημερα"], ["καλ"], ["مرحبا"], ["мир"],
                      ["отчёт"], ["отч"], ["report"], ["note"], ["note", "東京"], ["η"]] {
            for includingText in [true, false] {
                let all = try await index.referencesRankedBySets(words: words, domain: nil, includingText: includingText)
                if includingText, !all.isEmpty { found += 1 }
                #expect(try await index.referencesRankedRowByRow(words: words, domain: nil, limit: nil, includingText: includingText) == all,
                        "\(words) \(includingText)")
                for limit in [1, 2] {
                    let page = try await index.referencesRankedRowByRow(words: words, domain: nil, limit: limit, includingText: includingText)
                    #expect(page == Array(all.prefix(limit)), "\(words) \(includingText) \(limit)")
                }
            }
        }
        // Every word finds something in the texts.
        #expect(found == 17)
        // Scalars from anywhere, marks, joiners and query syntax: no query fails, and each
        // ranks row by row as by sets.
        var random = SeededRandom(seed: 47)
        for round in 0..<200 {
            let text = round.isMultiple(of: 3) ? random.sequenceString() : random.unicodeString(length: 1 + random.next(8))
            let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
            do {
                let all = try await index.referencesRankedBySets(words: words, domain: nil, includingText: true)
                #expect(try await index.referencesRankedRowByRow(words: words, domain: nil, limit: nil, includingText: true) ?? all == all)
                let page = try await index.referencesRankedRowByRow(words: words, domain: nil, limit: 3, includingText: true)
                #expect(page ?? Array(all.prefix(3)) == Array(all.prefix(3)))
            } catch let error as SearchlightError where error.code == .invalidQuery {
                // Words with no letter or digit are refused, as the other backend refuses them.
            } catch {
                Issue.record("\(text.unicodeScalars.map { String($0.value, radix: 16) }): \(error)")
            }
        }
    }
}

/// How many rows the page's superset would read, told by the first walk
/// (``TieredNamePage/betterConditions(_:than:among:items:reading:textTierIsScored:estimates:)``): more
/// than a longer walk would visit, and the longer walk is taken (`.many`).
@Suite("PostgreSQL pages: the superset's rows told by the walk", .ownThread)
struct TieredNameSupersetTests {
    /// A first walk of the 2 000 newest of half a million notes for `oscar hotel` (page of 50): 250
    /// matches kept, each word among keywords (field 2) in a few, both in the text in the rest;
    /// `met`, what it counted among all its matches.
    static func walked(oscarAmongKeywords: Int, hotelAmongKeywords: Int, met: TieredNamePage.Met?) -> [TieredNamePage.Walked] {
        func row(_ oscar: Int, _ hotel: Int, _ number: Int) -> TieredNamePage.Walked {
            .init(date: Double(10_000 - number), rank: .init(prefixOnly: 0, fields: oscar + hotel), fields: [oscar, hotel],
                  visited: 2000, met: met)
        }
        let kept = (0..<oscarAmongKeywords).map { row(2, 4, $0) } + (0..<hotelAmongKeywords).map { row(4, 2, 100 + $0) }
        return kept + (kept.count..<250).map { row(4, 4, 200 + $0) }
    }

    static func isMany(_ better: TieredNamePage.Better<[String]>) -> Bool {
        if case .many = better { return true }
        return false
    }

    @Test func aWordInAFieldMostlyAmongTheMatchesLeftOutIsCountedAmongThemAll() throws {
        let page = try #require(TieredNamePage(RankedNameSearch(["oscar", "hotel"], includeText: true)))
        let items = 500_000, reading = TieredNamePage.walkOnFrom(limit: 50, items: items)
        // Were 50 of the 422 matches to hold `oscar` among keywords, 22 of them kept (the others,
        // with `hotel` in the text, ranking with those left out), 50 of the 2 000 visited would
        // tell at least 12 500 rows: more than the longer walk costs.
        let counted = TieredNamePage.Met(matches: 422, inFields: [0, 0, 50, 50, 0, 0, 20, 20])
        let all = Self.walked(oscarAmongKeywords: 22, hotelAmongKeywords: 20, met: counted)
        let tier = try #require(TieredNamePage.tier(of: all, limit: 50)).tier
        #expect(tier == .init(prefixOnly: 0, fields: 8))
        var statement = page.search.statement
        #expect(Self.isMany(page.betterConditions(&statement, than: tier, among: all, items: items, reading: reading,
                                                  textTierIsScored: false)))
        // 22 of the 422 matches, as on the notes: between 5 500 (of the visited) and 26 000 (of
        // the matches), the statistics tell.
        let notes = Self.walked(oscarAmongKeywords: 22, hotelAmongKeywords: 20,
                                met: .init(matches: 422, inFields: [0, 0, 22, 22, 0, 0, 20, 20]))
        statement = page.search.statement
        guard case .estimate(let asked) = page.betterConditions(&statement, than: tier, among: notes, items: items,
                                                                reading: reading, textTierIsScored: false) else {
            Issue.record("the statistics were not asked")
            return
        }
        // Each box's rarest word: `oscar` among keywords or better (22), then `hotel` (20).
        #expect(asked.map(\.token) == ["oscar", "hotel"])
        #expect(asked.map(\.rank) == [3, 3])
        let queries = asked.map(\.query)
        // `oscar`'s index gives 27 567 rows: the longer walk.
        statement = page.search.statement
        #expect(Self.isMany(page.betterConditions(&statement, than: tier, among: notes, items: items, reading: reading,
                                                  textTierIsScored: false, estimates: [queries[0]: 27_983, queries[1]: 1_517])))
        // One told, the other not: asked again.
        statement = page.search.statement
        if case .estimate(let again) = page.betterConditions(&statement, than: tier, among: notes, items: items, reading: reading,
                                                             textTierIsScored: false, estimates: [queries[0]: 1_517]) {
            #expect(again.map(\.token) == ["hotel"])
        } else {
            Issue.record("`hotel` was not asked")
        }
        // 1 500 each (as `romeo` of `romeo tango`): the superset is read, one box per word among
        // keywords or better, the other tested on the row.
        statement = page.search.statement
        guard case .these(let conditions) = page.betterConditions(&statement, than: tier, among: notes, items: items, reading: reading,
                                                                  textTierIsScored: false,
                                                                  estimates: [queries[0]: 1_517, queries[1]: 1_517]) else {
            Issue.record("the superset of 1 500 rows was not read")
            return
        }
        #expect(conditions.count == 2)
    }

    /// The shares of the common words of each field, from `ANALYZE`, for a word and a rank.
    @Test(.needsPostgres) func theStatisticsTellAWordsShareOfTheFields() async throws {
        let (index, url) = try await PostgresTestDatabase.makeIndex()
        defer { index.close() }
        let items = TieredNamePageTests.items()
        try await index.indexItems(items)
        let database = String(url.split(separator: "/").last!.split(separator: "?").first!)
        _ = try await PostgresCluster.shared().psql("ANALYZE item", database: database)
        // `zulu` among keywords (rank 2) or better: each field holding a word that starts with
        // it counts once, as the statistics count each tagged word.
        func holds(_ words: [String]?) -> Bool { words?.contains { $0.hasPrefix("zulu") } ?? false }
        let expected = Double(items.count { holds($0.attributeSet.keywords) }
                              + items.count { holds($0.attributeSet.displayName.map { [$0] }) }
                              + items.count { holds($0.attributeSet.title?.split(separator: " ").map(String.init)) }
                              + items.count { holds($0.attributeSet.authors) }) / Double(items.count)
        let share = try #require(try await index.fieldShare(of: "zulu", rank: 2))
        #expect(abs(share - expected) < 0.02, "\(share) \(expected)")
        #expect(try await index.fieldShare(of: "qwertyuiop", rank: 3) == 0)
    }

    @Test func aCompoundWholeInFewMatchesIsReadWhenTheyAreFewOfEveryItem() throws {
        let page = try #require(TieredNamePage(RankedNameSearch(["note_7"], includeText: true)))
        let items = 500_000, reading = TieredNamePage.walkOnFrom(limit: 50, items: items)
        func walked(whole: Int) -> [TieredNamePage.Walked] {
            (0..<250).map { number in
                .init(date: Double(10_000 - number), rank: number < whole ? .init(prefixOnly: 0, fields: 0) : .init(prefixOnly: 1, fields: 5),
                      fields: [0], visited: 2000, met: .init(matches: 309, inFields: [250, 250, 250, 250]))
            }
        }
        // One of the 2 000 visited holds `note_7` whole: 250 of every item, read from the index.
        var statement = page.search.statement
        let one = walked(whole: 1), tier = try #require(TieredNamePage.tier(of: one, limit: 50)).tier
        #expect(!Self.isMany(page.betterConditions(&statement, than: tier, among: one, items: items, reading: reading, textTierIsScored: false)))
        // Thirty: 7 500, more than a longer walk costs.
        statement = page.search.statement
        let thirty = walked(whole: 30)
        #expect(Self.isMany(page.betterConditions(&statement, than: tier, among: thirty, items: items, reading: reading, textTierIsScored: false)))
    }
}
