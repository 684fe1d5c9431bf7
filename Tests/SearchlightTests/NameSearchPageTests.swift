import Foundation
import GRDB
import SearchlightTestSupport
import Testing
@testable import Searchlight

/// The first page of a limited name search, by every strategy, against the full ranking.
@Suite("Name search: the first page", .ownThread)
struct NameSearchPageTests {
    /// A deterministic generator, so that a failure can be replayed.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static let vocabulary = ["report", "reports", "Report", "quarterly", "Zürich", "zurich", "résumé", "отчёт",
                             "会议", "plan", "planning", "2019", "canon", "budget", "BudgetPlan", "xylophone"]

    /// A seeded random index: names, titles, keywords and folders from a small vocabulary, dates
    /// with many ties (and some missing), two domains, some expired items.
    func randomIndex(seed: UInt64, count: Int = 700) throws -> TemporaryIndex {
        let fixture = try TemporaryIndex()
        var random = Generator(state: seed)
        func words(_ most: Int) -> String {
            (0..<(1 + random.next(most))).map { _ in Self.vocabulary[random.next(Self.vocabulary.count)] }
                .joined(separator: random.next(2) == 0 ? " " : "_")
        }
        var items: [SearchableItem] = []
        for number in 0..<count {
            let folder = words(2)
            let name = words(3) + " \(number).txt"
            items.append(note("\(folder)/\(name)", domain: random.next(4) == 0 ? "mail" : "notes",
                              title: random.next(3) == 0 ? words(3) : nil,
                              keywords: random.next(3) == 0 ? [words(1)] : [],
                              modified: random.next(8) == 0 ? 0 : Double(1 + random.next(60)),
                              expires: random.next(15) == 0 ? Date(timeIntervalSinceNow: -10) : nil))
        }
        try fixture.index.indexItems(items)
        return fixture
    }

    static let queries: [[String]] = [["report"], ["rep"], ["zurich"], ["resume"], ["plan"], ["quarterly", "rep"],
                                      ["canon", "budget"], ["budget", "plan"], ["2019"], ["xylophone", "re"], ["会议"]]
    static let strategies: [PageStrategy] = [.sortMembers, .walkCheckingMembers, .walkReadingNames(budget: .max),
                                             .walkReadingNames(budget: 5)]

    @Test(arguments: [1, 2, 3] as [UInt64])
    func everyStrategyGivesTheFirstResultsOfTheFullRanking(seed: UInt64) throws {
        let fixture = try randomIndex(seed: seed)
        var pagesFound = 0
        for words in Self.queries {
            let tokens = SearchableIndex.nameQueryTokens(words)
            for domain in [nil, "notes", "mail", "none"] as [String?] {
                let full = try fixture.index.searchIdentifiers(words: words, domain: domain)
                for limit in [1, 7, 30] {
                    let expected = Array(full.prefix(limit))
                    #expect(try fixture.index.searchIdentifiers(words: words, domain: domain, limit: limit) == expected,
                            "\(words) in \(domain ?? "all") first \(limit)")
                    for strategy in Self.strategies {
                        let page = try fixture.index.read { db in
                            try SearchableIndex.bestMatchesByDate(tokens, domain: domain, limit: limit, in: db,
                                                                  strategy: strategy)
                        }
                        // No page means the best rank alone does not fill it: the full ranking serves.
                        guard let page else { continue }
                        pagesFound += 1
                        #expect(page.map(\.identifier) == expected,
                                "\(words) in \(domain ?? "all") first \(limit) by \(strategy)")
                    }
                }
            }
        }
        #expect(pagesFound > 100)
    }

    @Test func aWordNoItemHasWholeRanksBestAsAPrefixOfANameWord() throws {
        let fixture = try randomIndex(seed: 4)
        let tier = try fixture.index.read { try BestNameTier(["quarterly", "rep"], in: $0) }
        #expect(tier.wholeTokens == ["quarterly"])
        #expect(tier.prefixTokens == ["rep"])
        #expect(tier.expression == #"name : ("quarterly" AND "rep"*)"#)
    }

    @Test func namesAreCheckedOnTheirBytesLikeTheirWords() throws {
        let fixture = try randomIndex(seed: 5, count: 10)
        let tier = try fixture.index.read { try BestNameTier(["zurich", "rep"], in: $0) }
        var folds = NameFolds()
        for (name, admitted) in [("Zürich Report.txt", true), ("ZURICHReport", true), ("zurichrep", false),
                                 ("Report zurich2019", true), ("Reports", false), (nil, false),
                                 ("ZU\u{308}RICH-répertoire", true), ("Zürichsee reply", false), ("Zürich reply", true), ("Zü rich rep", false),
                                 ("отчёт rep", false)] as [(String?, Bool)] {
            let bytes = Array((name ?? "").utf8)
            #expect(bytes.withUnsafeBufferPointer { tier.admits(nameBytes: $0, folds: &folds) } == admitted, "\(name ?? "nil")")
        }
    }

    @Test func theStrategyFollowsHowManyItemsHaveTheBestRank() throws {
        let fixture = try TemporaryIndex()
        try fixture.index.indexItems((0..<3000).map { note("f/item \($0).txt", modified: Double($0)) })
        try fixture.index.read { db in
            #expect(try PageStrategy(sample: Array(1...500), limit: 100, in: db) == .sortMembers)
            // Every item a member: walking and reading names finds the page at once.
            if case .walkReadingNames = try PageStrategy(sample: Array(1...1024), limit: 100, in: db) {} else {
                Issue.record("a dense match should walk the date index reading names")
            }
        }
    }

    @Test func countsAreThoseOfTheFullSearch() throws {
        let mixed = try randomIndex(seed: 6, count: 300)
        let plain = try TemporaryIndex()
        try plain.index.indexItems((0..<50).map { note("f/Report \($0).txt", modified: Double($0)) })
        for (fixture, domains) in [(mixed, [nil, "notes", "mail", "none"]), (plain, [nil, "notes", "mail"])] as [(TemporaryIndex, [String?])] {
            for words in Self.queries + [["f"]] {
                for domain in domains {
                    #expect(try fixture.index.countMatches(words: words, domain: domain)
                            == fixture.index.searchIdentifiers(words: words, domain: domain).count,
                            "\(words) in \(domain ?? "all")")
                }
            }
        }
    }

    @Test(arguments: [1, 2, 5] as [UInt64])
    func rankingOnBytesRanksLikeSplittingIntoWords(seed: UInt64) throws {
        let fixture = try randomIndex(seed: seed)
        var rankedOnBytes = 0
        for words in Self.queries + [["budget", "planning"], ["rep", "2019"], ["canon", "re", "plan"]] {
            let tokens = SearchableIndex.nameQueryTokens(words)
            for domain in [nil, "notes"] as [String?] {
                let (bytes, split, wholeInName) = try fixture.index.read { db in
                    // Ranked with compact keys against `sorted()`.
                    let onBytes = try SearchableIndex.nameCandidates(tokens, domain: domain, wholeInName: [], in: db)
                    return (onBytes.ranked(),
                            try SearchableIndex.nameCandidates(tokens, domain: domain, wholeInName: [],
                                                               rankingOnBytes: false, in: db).sorted(),
                            try SearchableIndex.nameCandidates(tokens, domain: domain, in: db).ranked())
                }
                #expect(bytes.map(\.identifier) == split.map(\.identifier), "\(words) in \(domain ?? "all")")
                #expect(bytes.map(\.fieldRank) == split.map(\.fieldRank), "\(words) in \(domain ?? "all")")
                #expect(bytes.map(\.prefixOnlyCount) == split.map(\.prefixOnlyCount), "\(words) in \(domain ?? "all")")
                #expect(wholeInName.map(\.identifier) == split.map(\.identifier), "\(words) in \(domain ?? "all")")
                rankedOnBytes += bytes.count
            }
        }
        #expect(rankedOnBytes > 1000)
    }
}
