import Foundation
import GRDB
import SearchlightTestSupport
import Testing
@testable import Searchlight

/// A document with text.
private func document(_ id: String, text: String?, domain: String = "docs") -> SearchableItem {
    var attributes = AttributeSet(contentType: "text/plain")
    attributes.displayName = String(id.split(separator: "/").last!)
    attributes.textContent = text
    attributes.contentModificationDate = Date(timeIntervalSince1970: 1_750_204_800)
    return SearchableItem(uniqueIdentifier: ItemIdentifier(id), domainIdentifier: domain, attributeSet: attributes,
                          identifierIsPath: true)
}

/// A unit vector of 32 dimensions pointing mostly along `axis`.
private func unit(_ axis: Int, lean: Int? = nil) -> [Float] {
    var vector = [Float](repeating: 0.01, count: 32)
    vector[axis] = 1
    if let lean { vector[lean] = 0.5 }
    let length = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
    return vector.map { $0 / length }
}

/// Gives every waiting text of `index` the vectors `vectorsOf` says, the digest being the text
/// itself (as the pass's digest names the text); returns the texts that waited.
@discardableResult
private func embedWaiting(_ index: SearchableIndex, model: String = "test-model",
                          vectorsOf: (String) -> [[Float]]) throws -> [String] {
    let work = try index.meaningWork(model: model, after: [], limit: 100)
    for item in work {
        let digest = Array((model + "\u{0}" + item.text).utf8)
        let known = try index.hasMeaning(digest: digest)
        try index.storeMeaning([MeaningVectors(key: item.key, storedText: item.storedText, digest: digest, model: model,
                                               vectors: known ? nil : StoredVectors(vectorsOf(item.text)))])
    }
    return work.map(\.text)
}

private func count(_ table: String, in index: SearchableIndex) throws -> Int {
    try index.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM \(table)") ?? 0 }
}

@Suite("Meaning storage", .ownThread)
struct MeaningStorageTests {
    @Test func quantizedVectorsKeepTheirSimilarity() throws {
        let a = unit(3, lean: 7), b = unit(7, lean: 3)
        let stored = StoredVectors([a, b])
        #expect(stored.count == 2)
        #expect(stored.bytes.count == 2 * (32 + 4))
        let exact = zip(a, b).reduce(Float(0)) { $0 + $1.0 * $1.1 }
        let found = stored.bytes.withUnsafeBufferPointer { StoredVectors.similarity(of: StoredVectors.Question(b), in: $0) }
        // The best chunk is b itself; the document's similarity is the mean of the first chunk's
        // (a·b), the best's (1) and the average of both.
        #expect(found?.chunk == 1)
        #expect(abs((found?.similarity ?? 0) - (exact + 1 + (exact + 1) / 2) / 3) < 0.02)
        let other = StoredVectors([a]).bytes.withUnsafeBufferPointer { StoredVectors.similarity(of: StoredVectors.Question(b), in: $0) }
        #expect(abs((other?.similarity ?? 0) - exact) < 0.02)
        #expect(StoredVectors(bytes: stored.bytes, dimensions: 32) == stored)
        #expect(StoredVectors(bytes: Array(stored.bytes.dropLast()), dimensions: 32) == nil)
    }

    @Test func textsWaitUntilEmbeddedAndCopiesShareVectors() throws {
        let index = try SearchableIndex(path: TestScratch.path("meaning"))
        try index.indexItems([
            document("a/rename.txt", text: "mv moves or renames files"),
            document("a/copy.txt", text: "mv moves or renames files"),
            document("a/disk.txt", text: "df reports free disk space"),
            document("a/picture.jpg", text: nil),
        ])
        #expect(try index.meaningProgress(model: "test-model") == MeaningProgress(items: 3))
        var embedded: [String] = []
        let waited = try embedWaiting(index) { text in
            embedded.append(text)
            return [unit(text.hasPrefix("mv") ? 1 : 2)]
        }
        #expect(waited.count == 3)
        // The copy's text was embedded once.
        #expect(embedded.sorted() == ["df reports free disk space", "mv moves or renames files"])
        #expect(try count("meaning_vector", in: index) == 2)
        #expect(try index.meaningWork(model: "test-model", after: [], limit: 100).isEmpty)
        let progress = try index.meaningProgress(model: "test-model")
        #expect(progress.embedded == 3 && progress.chunks == 2 && progress.bytes == 2 * 36 && progress.models == ["test-model"])
        // Another model's vectors are made again.
        #expect(try index.meaningWork(model: "other-model", after: [], limit: 100).count == 3)
    }

    @Test func vectorsGoWithTheirItemAndFollowAMove() throws {
        let index = try SearchableIndex(path: TestScratch.path("meaning"))
        try index.indexItems([document("a/rename.txt", text: "mv moves or renames files"),
                              document("a/disk.txt", text: "df reports free disk space")])
        try embedWaiting(index) { _ in [unit(1), unit(2)] }
        #expect(try count("meaning_vector", in: index) == 2)
        // A move or rename keeps the vectors: nothing waits.
        var batch = IndexBatch()
        batch.move(ItemIdentifier("a/rename.txt"), to: ItemIdentifier("b/renamed.txt"), domain: "docs")
        try index.apply(batch)
        #expect(try index.meaningWork(model: "test-model", after: [], limit: 100).isEmpty)
        #expect(try index.meaningResults(question: unit(1), model: "test-model", domain: nil, limit: 1)
            .map(\.item.item.uniqueIdentifier.lossyString) == ["b/renamed.txt"])
        // Written again with the same text (a touch): still nothing waits.
        try index.indexItems([document("a/disk.txt", text: "df reports free disk space")])
        #expect(try index.meaningWork(model: "test-model", after: [], limit: 100).isEmpty)
        // A deleted item's vectors go with it.
        try index.deleteItems(withIdentifiers: [ItemIdentifier("b/renamed.txt")], domain: "docs")
        #expect(try count("item_meaning", in: index) == 1)
        // Its vectors stay until the pass's round ends (a file removed then added, as a scan sees
        // a rename, finds them again), then go.
        #expect(try index.forgetUnusedMeaning() == 1)
        #expect(try count("meaning_vector", in: index) == 1)
        // An item whose text is gone loses its vectors; one whose text changed waits again.
        try index.indexItems([document("a/disk.txt", text: "du estimates file space usage")])
        #expect(try index.meaningWork(model: "test-model", after: [], limit: 100).map(\.text) == ["du estimates file space usage"])
        try index.indexItems([document("a/disk.txt", text: nil)])
        #expect(try count("item_meaning", in: index) == 0)
        try index.forgetUnusedMeaning()
        #expect(try count("meaning_vector", in: index) == 0)
    }

    @Test func vectorsOfAnOldTextAreNotStored() throws {
        let index = try SearchableIndex(path: TestScratch.path("meaning"))
        try index.indexItems([document("a/disk.txt", text: "df reports free disk space")])
        let work = try #require(try index.meaningWork(model: "m", after: [], limit: 10).first)
        // The text changes while it is being embedded.
        try index.indexItems([document("a/disk.txt", text: "du estimates file space usage")])
        let stored = try index.storeMeaning([MeaningVectors(key: work.key, storedText: work.storedText, digest: [1],
                                                            model: "m", vectors: StoredVectors([unit(1)]))])
        #expect(stored == 0)
        #expect(try index.meaningWork(model: "m", after: [], limit: 10).map(\.text) == ["du estimates file space usage"])
    }

    /// A document's similarity is the mean of its first chunk's, its best chunk's and the
    /// average of all (StoredVectors.similarity): one whose opening answers ranks above one
    /// whose later chunk alone does.
    @Test func nearestItemsByTheirChunksInADomain() throws {
        let index = try SearchableIndex(path: TestScratch.path("meaning"))
        try index.indexItems([
            document("a/one.txt", text: "one"), document("a/two.txt", text: "two"),
            document("a/three.txt", text: "three"), document("b/four.txt", text: "four", domain: "other"),
        ])
        try embedWaiting(index) { text in
            switch text {
            case "one": [unit(5), unit(1)]          // only its second chunk answers
            case "two": [unit(1, lean: 2)]
            case "three": [unit(9)]
            default: [unit(1)]
            }
        }
        let results = try index.meaningResults(question: unit(1), model: "test-model", domain: "docs", limit: 2)
        #expect(results.map(\.item.item.uniqueIdentifier.lossyString) == ["a/two.txt", "a/one.txt"])
        #expect(results.allSatisfy { $0.matchedIn == .meaning })
        // two: its one chunk, 0.90; one: (0.02 + 1 + 0.51) / 3.
        #expect(abs(results[0].similarity! - 0.90) < 0.02 && abs(results[1].similarity! - 0.51) < 0.02, "\(results.map(\.similarity))")
        #expect(try index.meaningResults(question: unit(1), model: "test-model", domain: nil, limit: 10).count == 4)
        #expect(try index.meaningResults(question: unit(1), model: "another", domain: nil, limit: 10).isEmpty)
    }

    /// Reciprocal rank fusion: an item both rankings put first stays first; an item only
    /// meaning finds joins after those both find; with --words, meaning is not asked.
    /// A known phrase finds its document first even where meaning prefers another document
    /// that holds the same words apart (SearchResult.matchesLikeTitle).
    @Test func aKnownPhraseKeepsItsDocumentFirst() throws {
        let index = try SearchableIndex(path: TestScratch.path("meaning"))
        try index.indexItems([
            document("a/notes.txt", text: "then the quick brown fox jumps over the lazy dog"),
            document("a/other.txt", text: "a fox, quick and brown, jumps; over it all"),
        ])
        try embedWaiting(index) { text in text.hasPrefix("then") ? [unit(5)] : [unit(1)] }
        var search = RankedSearch(try SearchWords(parsing: "quick brown fox jumps"))
        search.encoder = QuestionEncoder { _ in (unit(1), "test-model") }
        let words = try index.searchResults(words: ["quick", "brown", "fox", "jumps"], limit: 10)
        #expect(words.map(\.matchesLikeTitle) == [true, false], "\(words.map(\.item.item.uniqueIdentifier))")
        let blended = try search.results(in: index, limit: 10)
        #expect(blended.map(\.item.item.uniqueIdentifier.lossyString) == ["a/notes.txt", "a/other.txt"])
        // Without the phrase's precedence, fusion would put other.txt first (both rankings hold it).
        let plain = RankedSearch.fused(words: words.map { var result = $0; result.matchesLikeTitle = false; return result },
                                       meaning: try index.meaningResults(question: unit(1), model: "test-model", domain: nil, limit: 10))
        #expect(plain.first?.item.item.uniqueIdentifier.lossyString == "a/other.txt")
    }

    @Test func blendsWordsWithMeaning() throws {
        let index = try SearchableIndex(path: TestScratch.path("meaning"))
        try index.indexItems([
            document("a/mv.txt", text: "mv moves or renames files and folders"),
            document("a/rename.txt", text: "rename renames files by a pattern"),
            document("a/df.txt", text: "df reports free disk space"),
        ])
        try embedWaiting(index) { text in
            text.hasPrefix("mv") ? [unit(1)] : text.hasPrefix("rename") ? [unit(1, lean: 3)] : [unit(2)]
        }
        let asked = QuestionEncoder { _ in (unit(1), "test-model") }
        var search = RankedSearch(try SearchWords(parsing: "renames files by"))
        search.encoder = asked
        #expect(search.meaningJoins)
        let blended = try search.results(in: index, limit: 10)
        // df.txt is far from the question (beyond RankedSearch.similarityMargin): not offered;
        // rename.txt, beyond it too, is there by its words, with its similarity.
        #expect(blended.map(\.item.item.uniqueIdentifier.lossyString) == ["a/rename.txt", "a/mv.txt"])
        #expect(blended[0].matchedIn == .content && blended[0].similarity != nil)
        #expect(blended[1].matchedIn == .meaning)
        // One or two words are a name: meaning does not join, the encoder is not called.
        var name = RankedSearch(try SearchWords(parsing: "renames"))
        name.encoder = QuestionEncoder { _ in Issue.record("the model was asked"); return (unit(1), "test-model") }
        #expect(!name.meaningJoins)
        #expect(try name.results(in: index, limit: 10).count == 2)
        var words = search
        words.mode = .words
        #expect(try words.results(in: index, limit: 10).map(\.item.item.uniqueIdentifier.lossyString) == ["a/rename.txt"])
        var meaning = search
        meaning.mode = .meaning
        // (rename.txt, 0.11 below mv.txt, is beyond the margin.)
        #expect(try meaning.results(in: index, limit: 2).map(\.item.item.uniqueIdentifier.lossyString) == ["a/mv.txt"])
        // Search words hold for meaning's results too.
        var filtered = RankedSearch(try SearchWords(parsing: "how to rename name:df"))
        filtered.encoder = asked
        #expect(try filtered.results(in: index, limit: 10).map(\.item.item.uniqueIdentifier.lossyString) == ["a/df.txt"])
    }
}
