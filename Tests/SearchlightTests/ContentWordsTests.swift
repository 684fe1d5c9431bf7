import Testing
@testable import Searchlight

/// The text the full-text index is given, and the word counts of telling words: both read a
/// text's bytes, ASCII by its byte and other scalars by their properties.
@Suite("Content words", .ownThread)
struct ContentWordsTests {
    @Test func asciiTextGetsTheNameSearchPartsAsWritten() {
        #expect(ContentWords.indexed("plain prose only") == "plain prose only")
        #expect(ContentWords.indexed("a testWORD and report2024") == "a testWORD and report2024\ntest WORD report 2024")
    }

    @Test func otherTextGetsItsPartsFolded() {
        // Not ASCII: parts are lowercased, and runs with accented letters are split and folded.
        #expect(ContentWords.indexed("café testWORD") == "café testWORD\ntest word")
        #expect(ContentWords.indexed("« ÀBcDé »") == "« ÀBcDé »\na bc de")
        #expect(ContentWords.indexed("naïve “quotes”") == "naïve “quotes”")
    }

    @Test func hanAndKanaAreWordsOfTheirOwn() {
        #expect(ContentWords.indexed("東京の写真 x") == " 東  京  の  写  真  x")
        #expect(ContentWords.indexed("Photo東京testWORD") == "Photo 東  京 testWORD\ntest word")
    }

    @Test func countsFoldedWordsOfThreeCharactersOrMore() {
        let counts = KeywordRanker.wordCounts(in: "Ünïcode café, CAFÉ and cafe\u{0301}: naïve 2024 12345 ab the x2y")
        #expect(counts == ["unicode": 1, "cafe": 3, "naive": 1, "x2y": 1])
    }

    @Test func countsOnlyTheStartOfALongText() {
        // The first 65 536 characters of a text over 256 KiB: 10 922 × "alpha " and "beta".
        let text = String(repeating: "alpha ", count: 10_922) + "beta" + String(repeating: " omega", count: 50_000)
        #expect(KeywordRanker.countedBytes / 4 == 65_536)
        #expect(KeywordRanker.wordCounts(in: text) == ["alpha": 10_922, "beta": 1])
    }
}
