import Foundation
import GRDB
import SearchlightTestSupport
import Testing
@testable import Searchlight

/// `tellingWords` stops counting the holders of a text's words once no later word can reach
/// the best `limit`, and keeps the counts while the index does not change; its answer must be
/// the one of counting them all, each time.
@Suite("Keywords: the bounded ranking", .ownThread)
struct KeywordRankerBoundTests {
    private func item(_ id: String, text: String) -> SearchableItem {
        var attributes = AttributeSet(contentType: "text/plain")
        attributes.displayName = id
        attributes.textContent = text
        return SearchableItem(uniqueIdentifier: ItemIdentifier(id), domainIdentifier: "docs", attributeSet: attributes,
                              identifierIsPath: true)
    }

    /// Words drawn from a small vocabulary, the first ones far more often (as in prose), from
    /// a fixed seed: every count and holder count ties somewhere.
    private func text(seed: inout UInt64, words: Int, vocabulary: [String]) -> String {
        (0..<words).map { _ in
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let draw = Double(seed >> 11) / Double(1 << 53)
            return vocabulary[Int(draw * draw * draw * Double(vocabulary.count))]
        }.joined(separator: " ")
    }

    /// The ranking counted in full: every one of the 40 most frequent words scored, then sorted.
    private func exhaustive(_ text: String, limit: Int, documentCount: Double, database: any DatabaseReader) throws -> [String] {
        let counts = KeywordRanker.wordCounts(in: text)
        let frequent = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(40)
        let scored = try database.read { db in
            try frequent.map { word, count -> (String, Double) in
                let holders = Double(try Int.fetchOne(db, sql: "SELECT doc FROM item_content_vocab WHERE term = ?",
                                                      arguments: [word]) ?? 0)
                return (word, Double(count) * log((documentCount + 1) / (holders + 1)) + Double(count) * 1e-6)
            }
        }
        return scored.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.prefix(limit).map(\.0)
    }

    @Test func answersAsTheFullCount() throws {
        let index = try SearchableIndex(path: TestScratch.path("keywords"))
        // Letters only (a digit beside letters splits a word): "wabx", "wbbx"…
        func word(_ number: Int) -> String {
            "w" + String(UnicodeScalar(97 + number % 26)!) + String(UnicodeScalar(97 + number / 26)!) + "x"
        }
        let vocabulary = (0..<120).map(word)
        // Words no indexed text holds: a first scan's ranker scores these above all others.
        let unseen = (120..<140).map(word)
        var seed: UInt64 = 24
        // A ranker made while the index was empty (a first scan's), and one made once it holds texts.
        let early = try index.keywordRanker()
        try index.indexItems((0..<60).map { item("doc\($0).txt", text: text(seed: &seed, words: 20 + $0 * 7, vocabulary: vocabulary)) })
        let late = try index.keywordRanker()
        var compared = 0
        for number in 0..<30 {
            let sample = text(seed: &seed, words: 5 + number * 13,
                              vocabulary: number.isMultiple(of: 2) ? unseen + vocabulary : vocabulary + unseen)
            for limit in [1, 3, KeywordRanker.tellingCount, 40] {
                #expect(try early.tellingWords(in: sample, limit: limit)
                        == exhaustive(sample, limit: limit, documentCount: 0, database: index.database))
                #expect(try late.tellingWords(in: sample, limit: limit)
                        == exhaustive(sample, limit: limit, documentCount: 60, database: index.database))
                compared += 1
            }
        }
        #expect(compared == 120)
        // Holder counts are kept while the index stays as it is; a write must not leave the
        // rankers with the old ones: more texts with the vocabulary's words, then rank again.
        let before = (0..<10).map { _ in text(seed: &seed, words: 200, vocabulary: vocabulary) }
        for sample in before { _ = try late.tellingWords(in: sample, limit: KeywordRanker.tellingCount) }
        try index.indexItems((60..<90).map { item("doc\($0).txt", text: text(seed: &seed, words: 300, vocabulary: vocabulary)) })
        for sample in before {
            #expect(try late.tellingWords(in: sample, limit: KeywordRanker.tellingCount)
                    == exhaustive(sample, limit: KeywordRanker.tellingCount, documentCount: 60, database: index.database))
        }
        try index.deleteItems(withIdentifiers: [ItemIdentifier("doc0.txt"), ItemIdentifier("doc1.txt")], domain: "docs")
        for sample in before {
            #expect(try early.tellingWords(in: sample, limit: 3)
                    == exhaustive(sample, limit: 3, documentCount: 0, database: index.database))
        }
        #expect(try late.tellingWords(in: "", limit: 3).isEmpty)
        #expect(try late.tellingWords(in: text(seed: &seed, words: 50, vocabulary: vocabulary), limit: 0).isEmpty)
    }
}
