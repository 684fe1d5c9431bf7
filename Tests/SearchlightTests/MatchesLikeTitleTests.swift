import Foundation
import SearchlightTestSupport
import Testing
@testable import Searchlight

/// `SearchResult.matchesLikeTitle` (what keeps a known phrase first in the blend with meaning)
/// on both backends, by one rule: every word whole in the name or the title, or the words
/// adjacent and in order in the text; not words apart, nor a prefix.
@Suite("Results that match as a title does", .ownThread)
struct MatchesLikeTitleTests {
    static func document(_ id: String, title: String? = nil, text: String) -> SearchableItem {
        var attributes = AttributeSet(contentType: "text/plain")
        attributes.displayName = id
        attributes.title = title
        attributes.textContent = text
        attributes.contentModificationDate = Date(timeIntervalSince1970: 1_750_204_800)
        return SearchableItem(uniqueIdentifier: ItemIdentifier(id), domainIdentifier: "docs", attributeSet: attributes,
                              identifierIsPath: true)
    }

    @Test(arguments: IndexBackend.available) func phrasesNamesAndTitlesMatchAsATitle(_ backend: IndexBackend) async throws {
        let index = try await TypoSearchTests.store(backend)
        var batch = IndexBatch()
        for item in [
            Self.document("phrase.txt", text: "then the lighthouse keeper wrote his weekly report by candlelight"),
            Self.document("apart.txt", text: "the keeper of the lighthouse; a report, weekly, he wrote"),
            Self.document("titled.txt", title: "Lighthouse keeper weekly report", text: "nothing of the kind here, words and words"),
            Self.document("greek.txt", text: "ο φύλακας του φάρου έγραψε την εβδομαδιαία αναφορά"),
        ] { batch.upsert(item) }
        try index.apply(batch)
        func flags(_ words: [String]) throws -> [String: Bool] {
            Dictionary(uniqueKeysWithValues: try index.searchResults(words: words, domain: nil, limit: nil, scope: .all)
                .map { ($0.item.item.uniqueIdentifier.lossyString, $0.matchesLikeTitle) })
        }
        #expect(try flags(["lighthouse", "keeper", "wrote", "his"]) == ["phrase.txt": true], "\(backend)")
        let weekly = try flags(["weekly", "report"])
        #expect(weekly == ["phrase.txt": true, "apart.txt": false, "titled.txt": true], "\(backend): \(weekly)")
        // A prefix is not a whole word.
        #expect(try flags(["weekly", "rep"])["phrase.txt"] == false, "\(backend)")
        #expect(try flags(["εβδομαδιαία", "αναφορά"]) == ["greek.txt": true], "\(backend)")
    }
}
