import Embedding
import Testing

@Suite struct ChunkingTests {
    let model: EmbeddingModel

    init() throws {
        model = try EmbeddingModel.load(folder: TestModel.folder())
    }

    static let sentence = "The index keeps every word of every document, and the search answers at once. "

    @Test func shortTextIsOneChunk() {
        #expect(model.chunks(of: "  create a new folder \n", maxTokens: 256, overlap: 32, limit: 8) == ["create a new folder"])
        #expect(model.chunks(of: " \n\t ", maxTokens: 256, overlap: 32, limit: 8).isEmpty)
        #expect(model.chunks(of: "anything", maxTokens: 256, overlap: 32, limit: 0).isEmpty)
    }

    @Test func longTextIsCutAtSentencesWithinTheBudget() {
        let text = String(repeating: Self.sentence, count: 40)
        let chunks = model.chunks(of: text, maxTokens: 128, overlap: 16, limit: 100)
        #expect(chunks.count > 5)
        for chunk in chunks {
            #expect(model.tokenCount(chunk) <= 128, "\(model.tokenCount(chunk)) tokens")
            #expect(chunk.hasSuffix("."), "\(chunk.suffix(20).debugDescription)")
        }
        // Together they cover the text: its last sentence ends the last chunk.
        #expect(chunks.last.map { text.hasSuffix($0 + " ") } == true)
    }

    @Test func overlapRepeatsTheEndOfThePreviousChunk() {
        let words = (1...600).map { "word\($0)" }.joined(separator: " ")
        let chunks = model.chunks(of: words, maxTokens: 100, overlap: 20, limit: 100)
        #expect(chunks.count > 3)
        for (previous, next) in zip(chunks, chunks.dropFirst()) {
            let firstWord = next.split(separator: " ").first.map(String.init) ?? ""
            #expect(previous.split(separator: " ").map(String.init).contains(firstWord), "\(firstWord)")
            #expect(model.tokenCount(next) <= 100)
        }
        #expect(chunks.last?.hasSuffix("word600") == true)
    }

    @Test func limitBoundsTheChunks() {
        let text = String(repeating: Self.sentence, count: 100)
        #expect(model.chunks(of: text, maxTokens: 64, overlap: 0, limit: 3).count == 3)
    }

    @Test func cjkTextWithoutSpacesIsCut() {
        let text = String(repeating: "索引保存每个文档的每个词。搜索立即回答。", count: 60)
        let chunks = model.chunks(of: text, maxTokens: 64, overlap: 8, limit: 100)
        #expect(chunks.count > 3)
        for chunk in chunks { #expect(model.tokenCount(chunk) <= 64) }
    }
}
