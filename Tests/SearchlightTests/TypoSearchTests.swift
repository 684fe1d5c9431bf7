import Foundation
import Logging
import SearchlightPostgres
import SearchlightTestSupport
import Testing
@testable import Searchlight

@Suite("Searches with a typo", .ownThread)
struct TypoSearchTests {
    @Test func editDistanceCountsASwapAsOneEdit() {
        func distance(_ a: String, _ b: String) -> Int {
            SpellingNeighbors.distance(Array(a.unicodeScalars), Array(b.unicodeScalars))
        }
        #expect(distance("quarterly", "quartelry") == 1)
        #expect(distance("report", "reprot") == 1)
        #expect(distance("revenue", "revnue") == 1)
        #expect(distance("committee", "comittee") == 1)
        #expect(distance("kitten", "sitting") == 3)
        #expect(distance("", "abc") == 3)
        #expect(SpellingNeighbors.candidates(of: "reprot").contains("report"))
        #expect(SpellingNeighbors.candidates(of: "acommodation").contains("accommodation"))
        // Two edits from 8 letters: a doubled letter typed once and a swap; two doubled letters.
        #expect(SpellingNeighbors.candidates(of: "accomodaiton").contains("accommodation"))
        #expect(SpellingNeighbors.candidates(of: "acomodation").contains("accommodation"))
        #expect(!SpellingNeighbors.candidates(of: "reprot").contains("reporter"))
        #expect(SpellingNeighbors.candidates(of: "ενάρετος".precomposedStringWithCanonicalMapping).isEmpty == false)
        #expect(SpellingNeighbors.candidates(of: "αθνα").contains("αθηνα"))
        // Short words and unspaced scripts are never corrected.
        #expect(SpellingNeighbors.candidates(of: "teh").isEmpty)
        #expect(SpellingNeighbors.candidates(of: "東京都庁").isEmpty)
        #expect(SpellingNeighbors.best(of: [("ten", 3), ("report", 1), ("reports", 9)], for: "reprot") == "report")
    }

    /// Ranking reads the start of long texts without inflating the rest, cut at a character.
    @Test func theStartOfAStoredTextIsReadAlone() {
        let text = String(repeating: "école ", count: 5000)
        let stored = StoredContent.compress(text)
        let start = StoredContent.decompressPrefix(stored, limit: 1000)
        #expect(start.map { text.hasPrefix($0) } == true)
        #expect((start?.utf8.count ?? 0) > 990 && (start?.utf8.count ?? 0) <= 1000)
        #expect(StoredContent.decompressPrefix(stored, limit: 1 << 20) == text)
        #expect(StoredContent.decompressPrefix(Data([1, 2]), limit: 10) == nil)
    }

    @Test(arguments: IndexBackend.available) func aWordWithATypoFindsTheWordTheIndexHolds(_ backend: IndexBackend) async throws {
        let index = try await Self.store(backend)
        var items: [SearchableItem] = []
        for (id, text) in [("minutes.txt", "The quarterly revenue report for the committee"),
                           ("holiday.txt", "Photos from Santorini and Αθήνα"),
                           ("revenues.txt", "revenue revenue")] {
            var attributes = AttributeSet(contentType: "text/plain")
            attributes.displayName = id
            attributes.textContent = text
            items.append(SearchableItem(uniqueIdentifier: ItemIdentifier(id), domainIdentifier: "docs",
                                        attributeSet: attributes, identifierIsPath: true))
        }
        var batch = IndexBatch()
        items.forEach { batch.upsert($0) }
        try index.apply(batch)
        func found(_ text: String) throws -> (ids: [String], spelling: [String]?) {
            let results = try index.searchResults(SearchWords(parsing: text), domain: nil, limit: nil)
            return (results.map(\.item.item.uniqueIdentifier.lossyString), results.first?.spelling)
        }
        #expect(try found("quartelry reprot") == (["minutes.txt"], ["quarterly", "report"]))
        #expect(try found("comittee") == (["minutes.txt"], ["committee"]))
        #expect(try found("santroini") == (["holiday.txt"], ["santorini"]))
        #expect(try found("αθνα") == (["holiday.txt"], ["αθηνα"]))
        #expect(try found("holdiay") == (["holiday.txt"], ["holiday"]))
        // The words as typed find something: no correction, a prefix is no typo.
        #expect(try found("quarterly").spelling == nil)
        #expect(try found("quart").spelling == nil)
        #expect(try found("xyzzyq").ids.isEmpty)
        #expect(try index.countMatches(SearchWords(parsing: "revnue"), domain: nil) == 2)
    }

    static func store(_ backend: IndexBackend) async throws -> any IndexStore {
        switch backend {
        case .sqlite:
            return try SearchableIndex(path: NSTemporaryDirectory() + "typos-\(UUID()).sqlite")
        case .postgres:
            let url = try await PostgresTestDatabase.makeURL()
            return try PostgresStore(url: url, readOnly: false, logger: Logger(label: "test"))
        }
    }
}
