import Foundation
import GRDB
import SearchlightTestSupport
import Testing
@testable import Searchlight

/// The first page of a limited name search when the best rank has too few items
/// (``SearchableIndex/pageAfterBestTier``) or when a word is one letter (the date walk tried
/// first), against the full ranking.
@Suite("Name search: the page after the best rank", .ownThread)
struct NameSearchNextTierTests {
    static let vocabulary = ["report", "review", "recipe", "budget", "Zürich", "résumé", "canon", "plan"]

    /// A seeded random index like the benchmark's: names of one to three words, a year in
    /// half of them, then a number; folders `word/word-N/100` (so `2` is a whole word of the
    /// folders of items 200–299 only); titles and keywords now and then; dates with ties, some
    /// missing; two domains; some items expired.
    func randomIndex(seed: UInt64, count: Int) throws -> TemporaryIndex {
        let fixture = try TemporaryIndex()
        var random = NameSearchPageTests.Generator(state: seed)
        func word() -> String { Self.vocabulary[random.next(Self.vocabulary.count)] }
        var items: [SearchableItem] = []
        for number in 0..<count {
            var name = (0..<(1 + random.next(3))).map { _ in word() }.joined(separator: random.next(2) == 0 ? " " : "_")
            if random.next(2) == 0 { name += " \(2015 + random.next(11))" }
            name += " \(number).txt"
            items.append(note("\(word())/\(word())-\(number / 100)/\(name)", domain: random.next(4) == 0 ? "mail" : "notes",
                              title: random.next(6) == 0 ? word() + " 2" : nil,
                              keywords: random.next(5) == 0 ? [word()] : [],
                              modified: random.next(10) == 0 ? 0 : Double(1 + random.next(400)),
                              expires: random.next(20) == 0 ? Date(timeIntervalSinceNow: -10) : nil))
        }
        try fixture.index.indexItems(items)
        return fixture
    }

    static let queries: [[String]] = [["budget", "2"], ["budget", "20"], ["budget", "201"], ["re", "2"], ["report", "2"],
                                      ["résumé", "2"], ["zurich", "2019"], ["canon", "plan"], ["r"], ["z"], ["c", "2"],
                                      ["report", "r"], ["2"], ["plan", "budget", "2"], ["b"]]

    @Test(arguments: [1, 2] as [UInt64])
    func theFirstPageIsThatOfTheFullRanking(seed: UInt64) throws {
        let fixture = try randomIndex(seed: seed, count: 4000)
        var pagesAfterBestRank = 0
        var walked = 0
        for words in Self.queries {
            let tokens = try SearchableIndex.nameQueryTokens(words)
            for domain in [nil, "notes", "mail", "none"] as [String?] {
                let full = try fixture.index.searchIdentifiers(words: words, domain: domain)
                for limit in [1, 7, 30, 60, 200] {
                    let expected = Array(full.prefix(limit))
                    #expect(try fixture.index.searchIdentifiers(words: words, domain: domain, limit: limit) == expected,
                            "\(words) in \(domain ?? "all") first \(limit)")
                    let page = try fixture.index.read { db in
                        try SearchableIndex.pageAfterBestTier(tokens, domain: domain, limit: limit, in: db)
                    }
                    guard let page else { continue }
                    // Also when the best rank alone would fill the page: the ranks after it follow.
                    #expect(page.map(\.identifier) == expected, "\(words) in \(domain ?? "all") first \(limit), after the best rank")
                    pagesAfterBestRank += 1
                    let inName = try fixture.index.read { db in
                        try Int.fetchOne(db, sql: "SELECT count(*) FROM item_words WHERE item_words MATCH ?",
                                         arguments: [BestNameTier(prefixes: tokens).expression]) ?? 0
                    }
                    if inName >= PageStrategy.sampleSize { walked += 1 }
                }
            }
        }
        // Both ways of finding the next rank served pages: ranking the few, walking the many.
        #expect(pagesAfterBestRank > 40)
        #expect(walked > 5)
    }

    @Test func oneLetterPrefixesWalkTheDateIndexFirst() throws {
        let fixture = try randomIndex(seed: 3, count: 3000)
        for words in [["r"], ["z"], ["b"], ["x"], ["c", "2"], ["budget", "p"]] {
            let full = try fixture.index.searchIdentifiers(words: words)
            for limit in [1, 30, 60] {
                #expect(try fixture.index.searchIdentifiers(words: words, limit: limit) == Array(full.prefix(limit)),
                        "\(words) first \(limit)")
            }
        }
    }
}
