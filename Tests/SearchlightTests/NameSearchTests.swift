import Foundation
import SearchlightTestSupport
import Testing
@testable import Searchlight

@Suite("Name-word search", .ownThread)
struct NameSearchTests {
    func ids(_ items: [IndexedItem]) -> [String] { items.map { $0.item.uniqueIdentifier.lossyString } }

    func fixture() throws -> TemporaryIndex {
        let fixture = try TemporaryIndex()
        try fixture.index.indexItems([
            note("Quarterly Report 2024.pdf", modified: 10),
            note("reports/summary.txt", modified: 20),
            note("Résumé.pdf", modified: 5),
            note("testWORD_various-2024.docx", modified: 1),
            note("notes/rep.txt", modified: 2),
            note("misc/thing.txt", title: "Report on things", modified: 3),
            note("misc/tagged.txt", keywords: ["report"], modified: 4),
            note("会议记录.md", modified: 6),
            note("other-domain.txt", domain: "mail", name: "quarterly.txt", modified: 7),
        ])
        return fixture
    }

    /// A token is always an FTS5 string, whatever it holds: its `"` doubled, never syntax.
    @Test func tokensAreQuotedForFTS5() {
        #expect(SearchableIndex.quoted("plain") == #""plain""#)
        #expect(SearchableIndex.quoted(#"say "hi""#) == #""say ""hi""""#)
        #expect(SearchableIndex.quoted(#"""#) == #""""""#)
        #expect(SearchableIndex.quoted("") == #""""#)
        #expect(SearchableIndex.quoted("résumé 会议 NEAR(a b) *") == #""résumé 会议 NEAR(a b) *""#)
    }

    @Test func everyWordMustMatchAsAPrefix() throws {
        let fixture = try fixture()
        #expect(ids(try fixture.index.search(words: ["quarterly", "rep"])) == ["Quarterly Report 2024.pdf"])
        #expect(ids(try fixture.index.search(words: ["test", "word", "2024"])) == ["testWORD_various-2024.docx"])
        #expect(ids(try fixture.index.search(words: ["testWORD"])) == ["testWORD_various-2024.docx"])
        #expect(try fixture.index.search(words: ["quarterly", "nothing"]).isEmpty)
    }

    @Test func ignoresCaseAndDiacritics() throws {
        let fixture = try fixture()
        #expect(ids(try fixture.index.search(words: ["resume"])) == ["Résumé.pdf"])
        #expect(ids(try fixture.index.search(words: ["RÉSUMÉ"])) == ["Résumé.pdf"])
        #expect(ids(try fixture.index.search(words: ["会议"])) == ["会议记录.md"])
    }

    @Test func ranksWholeWordsThenNamesThenTitlesKeywordsFolders() throws {
        let fixture = try fixture()
        let results = ids(try fixture.index.search(words: ["report"], domain: "notes"))
        // Whole word in the name, then in the title, keywords, folder; then the prefix match "reports/".
        #expect(results == ["Quarterly Report 2024.pdf", "misc/thing.txt", "misc/tagged.txt", "reports/summary.txt"])
        let rep = ids(try fixture.index.search(words: ["rep"], domain: "notes"))
        #expect(rep.first == "notes/rep.txt")
    }

    @Test func filtersByDomainAndLimits() throws {
        let fixture = try fixture()
        #expect(ids(try fixture.index.search(words: ["quarterly"])).count == 2)
        #expect(ids(try fixture.index.search(words: ["quarterly"], domain: "mail")) == ["other-domain.txt"])
        #expect(try fixture.index.search(words: ["quarterly"], limit: 1).count == 1)
        #expect(try fixture.index.countMatches(words: ["quarterly"]) == 2)
    }

    @Test func wordsWithoutLettersOrDigitsFindNothing() throws {
        let fixture = try fixture()
        #expect(try fixture.index.search(words: ["--", "*"]).isEmpty)
        #expect(try fixture.index.countMatches(words: ["\u{301}", "\u{200D}"]) == 0)
        // FTS5 syntax in words is taken literally, never as query syntax.
        #expect(try fixture.index.search(words: ["NOT", "\"", "OR"]).isEmpty)
    }

    @Test func theFirstResultsOfALimitedSearchAreThoseOfTheFullRanking() throws {
        let fixture = try TemporaryIndex()
        var items: [SearchableItem] = []
        for number in 0..<400 {
            // Many ties on date, some items in another domain, some expired, some prefix-only.
            var item = note("folder \(number % 7)/Report \(number).txt", domain: number % 5 == 0 ? "mail" : "notes",
                            modified: Double(1 + (number * 7919) % 37),
                            expires: number % 11 == 0 ? Date(timeIntervalSinceNow: -10) : nil)
            if number % 3 == 0 { item.attributeSet.displayName = "Reports \(number).txt" }
            items.append(item)
        }
        try fixture.index.indexItems(items)
        for domain in [nil, "notes", "mail"] as [String?] {
            let full = ids(try fixture.index.search(words: ["report"], domain: domain))
            for limit in [1, 5, 20, 100] {
                #expect(ids(try fixture.index.search(words: ["report"], domain: domain, limit: limit)) == Array(full.prefix(limit)))
                #expect(try fixture.index.searchIdentifiers(words: ["report"], domain: domain, limit: limit).map(\.lossyString)
                        == Array(full.prefix(limit)))
            }
        }
    }
}
