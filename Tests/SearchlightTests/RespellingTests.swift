import Foundation
import SearchlightTestSupport
import Testing
@testable import Searchlight

/// Corrections that help (issue 48): words that find nothing together are tried corrected even
/// when each occurs somewhere alone, and the likely word wins among candidates.
@Suite("Respelled searches", .ownThread)
struct RespellingTests {
    /// The items of `texts` (identifier, text) in `domain`, written into `index`.
    static func write(_ texts: [(String, String)], domain: String = "docs", into index: any IndexWriter) throws {
        var batch = IndexBatch()
        for (id, text) in texts {
            var attributes = AttributeSet(contentType: "text/plain")
            attributes.displayName = id
            attributes.textContent = text
            batch.upsert(SearchableItem(uniqueIdentifier: ItemIdentifier(id), domainIdentifier: domain,
                                        attributeSet: attributes))
        }
        try index.apply(batch)
    }

    /// What a typed search finds, and the words it searched instead.
    static func found(_ text: String, domain: String? = nil, in index: any IndexWriter) throws -> (ids: [String], spelling: [String]?) {
        let results = try index.searchResults(SearchWords(parsing: text), domain: domain, limit: nil)
        return (results.map(\.item.item.uniqueIdentifier.lossyString), results.first?.spelling)
    }

    /// Two words that find nothing together, each of which some item holds alone (a typo in
    /// another document), in Latin, Greek and Cyrillic letters: every word is tried corrected,
    /// the typed spelling first. The typed spelling stays a candidate: where a document holds
    /// the words with that typo, it is the one found.
    @Test(arguments: IndexBackend.available) func wordsThatFindNothingTogetherAreCorrectedEachOne(_ backend: IndexBackend) async throws {
        let index = try await TypoSearchTests.store(backend)
        try Self.write([("report.txt", "The quarterly report for the board"),
                        ("draft.txt", "a reprot with a typo in it"),
                        ("greek.txt", "Η ετήσια έκθεση του συλλόγου"),
                        ("greek-draft.txt", "πρόχειρη εκθσεη"),
                        ("russian.txt", "Годовой отчёт компании"),
                        ("russian-draft.txt", "черновик отчте")], into: index)
        try Self.write([("typo.txt", "our quarterly reprot, typed in haste")], domain: "other", into: index)
        #expect(try Self.found("quartely reprot", domain: "docs", in: index) == (["report.txt"], ["quarterly", "report"]))
        #expect(try Self.found("ετσηια εκθσεη", domain: "docs", in: index) == (["greek.txt"], ["ετησια", "εκθεση"]))
        #expect(try Self.found("годовй отчте", domain: "docs", in: index) == (["russian.txt"], ["годовои", "отчет"]))
        // Where a document holds the typo beside the other word, the typed spelling wins.
        #expect(try Self.found("quartely reprot", domain: "other", in: index) == (["typo.txt"], ["quarterly", "reprot"]))
        #expect(try Self.found("quartely reprot", in: index) == (["typo.txt"], ["quarterly", "reprot"]))
        // Every word correct, each in some item, none together; nothing near finds more: nothing.
        #expect(try Self.found("board typo", in: index) == ([], nil))
        #expect(try Self.found("xyzzyq report", in: index) == ([], nil))
        let counted = try index.countMatches(SearchWords(parsing: "quartely reprot"), domain: "docs")
        #expect(counted == 1)
    }

    /// Of `nikn`, `nikon` (a letter left out) and `niko` (one replaced) are both one edit away:
    /// the word more items hold wins; as many, the longer.
    @Test(arguments: IndexBackend.available) func theLikelyWordWins(_ backend: IndexBackend) async throws {
        let index = try await TypoSearchTests.store(backend)
        try Self.write([("a.txt", "a nikon camera"), ("b.txt", "the nikon lens"), ("c.txt", "niko the cat"),
                        ("d.txt", "the quarters of the year"), ("e.txt", "quarters again"), ("f.txt", "quarterly")],
                       into: index)
        let nikon = try Self.found("nikn", in: index)
        #expect(Set(nikon.ids) == ["a.txt", "b.txt"] && nikon.spelling == ["nikon"])
        // Fewer edits before more items: `quarterly` is one edit from `quartely`, `quarters` two.
        #expect(try Self.found("quartely", in: index) == (["f.txt"], ["quarterly"]))
        // A swap is one edit.
        #expect(try Self.found("nkion", in: index).spelling == ["nikon"])
    }

    @Test func candidatesAreRankedByEditsThenHoldersThenLength() {
        func ranked(_ found: [(String, Int)], _ typed: String) -> [String] {
            SpellingNeighbors.ranked(found.map { (word: $0.0, holders: $0.1) }, for: typed).map(\.word)
        }
        #expect(ranked([("niko", 1), ("nikon", 1)], "nikn") == ["nikon", "niko"])
        #expect(ranked([("niko", 3), ("nikon", 2)], "nikn") == ["niko", "nikon"])
        #expect(ranked([("quarters", 50), ("quarterly", 1)], "quartely") == ["quarterly", "quarters"])
        #expect(ranked([("report", 1), ("repo", 1), ("reports", 9)], "reprot") == ["report"])
        #expect(ranked([("αθηνα", 2), ("αθηνά", 1)], "αθνα").first == "αθηνα")
        #expect(SpellingNeighbors.ranked([(word: "москва", holders: 1)], for: "мсоква").map(\.edits) == [1])
    }

    /// The order of the tries: the words no indexed word starts with corrected first, then the
    /// others too (their typed spelling first); fewest edits in all first; each respelling once.
    @Test func respellingsAreTriedBestFirstInTwoRounds() {
        typealias Spelling = Respellings.Spelling
        var respellings = Respellings(words: ["Quartely", "reprot", "Q3"])
        #expect(respellings.words == ["quartely", "reprot", "q", "3"])
        let first = respellings.wordsToSpell()
        #expect(first?.words == ["quartely", "reprot", "q", "3"] && first?.correctingIndexed == false)
        respellings.add([[Spelling(word: "quarterly", edits: 1), Spelling(word: "quarters", edits: 2)],
                         [Spelling(word: "reprot", edits: 0)], [Spelling(word: "q", edits: 0)], [Spelling(word: "3", edits: 0)]])
        let firstTries = respellings.next()
        #expect(firstTries == [["quarterly", "reprot", "q", "3"], ["quarters", "reprot", "q", "3"]])
        // Only `reprot` is asked again: the corrected word has no typed spelling, the short ones none to try.
        let second = respellings.wordsToSpell()
        #expect(second?.words == ["reprot"] && second?.correctingIndexed == true)
        respellings.add([[Spelling(word: "reprot", edits: 0), Spelling(word: "report", edits: 1),
                          Spelling(word: "repro", edits: 1)]])
        let secondTries = respellings.next(limit: 3)
        #expect(secondTries == [["quarterly", "report", "q", "3"], ["quarterly", "repro", "q", "3"], ["quarters", "report", "q", "3"]])
        let lastTries = respellings.next(limit: 3)
        #expect(lastTries == [["quarters", "repro", "q", "3"]])
        let third = respellings.wordsToSpell()
        #expect(third == nil)

        // A word that nothing indexed is near: no respelling can find anything.
        var hopeless = Respellings(words: ["xyzzyq", "report"])
        _ = hopeless.wordsToSpell()
        hopeless.add([[], [Spelling(word: "report", edits: 0)]])
        let none = hopeless.next()
        #expect(none.isEmpty)
        let again = hopeless.wordsToSpell()
        #expect(again == nil)
    }

    /// A search the words as typed answer is never respelled; search words are never respelled.
    @Test(arguments: IndexBackend.available) func correctSearchesAndSearchWordsAreLeftAlone(_ backend: IndexBackend) async throws {
        let index = try await TypoSearchTests.store(backend)
        try Self.write([("report.txt", "The quarterly report for the board"), ("draft.txt", "a reprot with a typo")],
                       into: index)
        #expect(try Self.found("reprot", in: index) == (["draft.txt"], nil))
        #expect(try Self.found("quarterly report", in: index) == (["report.txt"], nil))
        #expect(try Self.found("quart rep", in: index) == (["report.txt"], nil))
        #expect(try index.spellingCorrection(words: ["quarterly", "reprot"]) == nil)
        let search = try SearchWords(parsing: "quartely reprot kind:pdf")
        let respelled = try index.firstRespelling(of: search) { $0 }
        #expect(respelled?.search.words == ["quarterly", "reprot"])
        #expect(respelled?.search.filters == search.filters)
        #expect(try Self.found("quartely reprot kind:pdf", in: index) == ([], nil))
        #expect(try Self.found("kind:pdf", in: index) == ([], nil))
    }
}
