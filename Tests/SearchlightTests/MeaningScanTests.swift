import Foundation
import GRDB
import SearchlightTestSupport
import Testing
@testable import Searchlight

private func randomUnit(_ dimensions: Int, _ generator: inout SeededGenerator) -> [Float] {
    let vector = (0..<dimensions).map { _ in Float.random(in: -1...1, using: &generator) }
    let length = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
    return vector.map { $0 / length }
}

private func document(_ id: String, text: String, domain: String) -> SearchableItem {
    var attributes = AttributeSet(contentType: "text/plain")
    attributes.textContent = text
    return SearchableItem(uniqueIdentifier: ItemIdentifier(id), domainIdentifier: domain, attributeSet: attributes,
                          identifierIsPath: true)
}

/// The scan of a search by meaning (`SearchableIndex.nearestItems`): each text's vectors read
/// once in the table's order, the items offered in theirs. It must rank as comparing every
/// item with its own vectors did.
@Suite("Meaning scan", .ownThread)
struct MeaningScanTests {
    @Test func similaritiesByDenseOrSparseRowIDs() {
        for (largest, texts) in [(Int64(10), 5), (Int64(1_000_000), 3)] {
            var similarities = TextSimilarities(largest: largest, texts: texts)
            similarities.want(3)
            similarities.want(largest)
            similarities.want(3)
            #expect(similarities.wanted == [3, largest])
            #expect(similarities.wants(3) && similarities.wants(largest) && !similarities.wants(4) && !similarities.wants(-1))
            // Wanted but not compared yet: no similarity.
            #expect(similarities[3] == nil)
            similarities[3] = 0.5
            similarities[largest] = nil
            #expect(similarities[3] == 0.5)
            // Compared without a similarity (bytes that are not whole vectors): left out, and not wanted again.
            #expect(similarities[largest] == nil && !similarities.wants(largest))
            #expect(similarities[largest + 1] == nil)
        }
    }

    /// Texts of one to eight chunks, copies sharing a text, two domains, another model's vectors: the
    /// page is what comparing each item with its own vectors gives, similarities and order.
    @Test func ranksAsComparingEveryItem() throws {
        let index = try SearchableIndex(path: TestScratch.path("meaning-scan"))
        var generator = SeededGenerator(seed: 5)
        let items = (0..<240).map { number in
            document("d/\(number).txt", text: "text \(number % 200)", domain: number % 40 == 7 ? "few" : "docs")
        }
        try index.indexItems(items)
        var vectorsOfText: [String: StoredVectors] = [:]
        // An item has the vectors of one model: those of the model written first stay, no item naming them.
        for model in ["other", "m"] {
            let work = try index.meaningWork(model: model, after: [], limit: 1000)
            #expect(work.count == 240)
            for item in work {
                let digest = Array((model + "\u{0}" + item.text).utf8)
                let known = try index.hasMeaning(digest: digest)
                let vectors = known ? nil : StoredVectors((0..<(1 + item.text.count % 8)).map { _ in randomUnit(48, &generator) })
                if model == "m", let vectors { vectorsOfText[item.text] = vectors }
                try index.storeMeaning([MeaningVectors(key: item.key, storedText: item.storedText, digest: digest, model: model,
                                                       vectors: vectors)])
            }
        }
        // The old scan: every item of the model in its row's order, compared with its own vectors.
        let rows = try index.read { db in
            try Row.fetchAll(db, sql: """
                SELECT item.identifier, domain.name FROM item_meaning JOIN item ON item.id = item_meaning.itemId
                JOIN domain ON domain.id = item.domainId WHERE model = 'm' ORDER BY item_meaning.itemId
                """)
        }
        for domain in [nil, "few"] as [String?] {
            for _ in 0..<4 {
                let question = randomUnit(48, &generator)
                let quantized = StoredVectors.Question(question)
                var expected = NearestMatches<String>(limit: 20)
                for row in rows where domain == nil || row[1] == domain {
                    let identifier = String(decoding: row[0] as Data, as: UTF8.self)
                    let text = "text \(Int(identifier.dropFirst(2).dropLast(4))! % 200)"
                    let similarity = try #require(vectorsOfText[text]?.bytes.withUnsafeBufferPointer {
                        StoredVectors.similarity(of: quantized, in: $0)
                    }).similarity
                    expected.offer(identifier, similarity: similarity)
                }
                let results = try index.meaningResults(question: question, model: "m", domain: domain, limit: 20)
                #expect(results.map(\.item.item.uniqueIdentifier.lossyString) == expected.ranked.map(\.element))
                #expect(results.map(\.similarity) == expected.ranked.map(\.similarity))
                #expect(results.count == (domain == nil ? 20 : 6))
            }
        }
    }

    /// An index of version 11 gains each item's vector row, and finds by it what it found.
    @Test func upgradesAVersion11Index() throws {
        let path = TestScratch.path("v11-meaning")
        let near = StoredVectors([[0.1, 0.9, 0.1, -0.4], [0.9, 0.1, -0.4, 0.1]])
        let far = StoredVectors([[-0.9, 0.1, 0.1, 0.4]])
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        try writeOlderIndex(at: path, upTo: "v11-meaning", """
            INSERT INTO domain(id, name) VALUES (1, 'docs');
            INSERT INTO content_kind(id, contentType, digest) VALUES (1, 'text/plain', 0);
            INSERT INTO item(id, domainId, identifier, storedName, kindId, modificationDate)
                VALUES (1, 1, CAST('near.txt' AS BLOB), 'near.txt', 1, 1000),
                       (2, 1, CAST('far.txt' AS BLOB), 'far.txt', 1, 2000),
                       (3, 1, CAST('copy.txt' AS BLOB), 'copy.txt', 1, 3000);
            INSERT INTO item_text(itemId, text) VALUES (1, searchlight_compress('near')), (2, searchlight_compress('far')),
                                                       (3, searchlight_compress('near'));
            INSERT INTO meaning_vector(id, digest, chunks, vectors) VALUES (5, x'01', 2, x'\(hex(near.bytes))'),
                                                                          (9, x'02', 1, x'\(hex(far.bytes))');
            INSERT INTO item_meaning(itemId, digest, model) VALUES (1, x'01', 'm'), (2, x'02', 'm'), (3, x'01', 'm');
            """)
        let index = try SearchableIndex(path: path)
        let rows = try index.read { try Int64.fetchAll($0, sql: "SELECT vectorId FROM item_meaning ORDER BY itemId") }
        #expect(rows == [5, 9, 5])
        let results = try index.meaningResults(question: [0.1, 0.9, 0.1, -0.4], model: "m", domain: nil, limit: 3)
        #expect(results.map(\.item.item.uniqueIdentifier.lossyString) == ["near.txt", "copy.txt", "far.txt"])
        // A row written without it (as by an older writer) is still found, by its digest.
        try index.write { try $0.execute(sql: "UPDATE item_meaning SET vectorId = NULL WHERE itemId = 2") }
        #expect(try index.meaningResults(question: [-0.9, 0.1, 0.1, 0.4], model: "m", domain: nil, limit: 1)
            .map(\.item.item.uniqueIdentifier.lossyString) == ["far.txt"])
    }
}
