import ExtractionProtocol
import Foundation
import Logging
import SearchlightFiles
import SearchlightTestSupport
import SystemPackage
import Testing

/// Embeddings computed by sandboxed workers (issue 49), with the model the tests install in
/// `.build/models` (`.ci/install-dependencies`).
@Suite("Embeddings through supervised extractor workers", .ownThread)
struct ExtractorPoolEmbeddingTests {
    static let modelFolder: FilePath = {
        var path = FilePath(#filePath)
        for _ in 0..<3 { path.removeLastComponent() }
        return path.appending(".build/models/multilingual-e5-small")
    }()

    static func makePool(modelFolder: FilePath?, requiringModel: Bool = true) throws -> ExtractorPool {
        if let modelFolder, requiringModel {
            try #require(FileManager.default.fileExists(atPath: modelFolder.appending("model.bin").string),
                         "no model at \(modelFolder): run .ci/install-dependencies")
        }
        var configuration = ExtractorPool.Configuration(workerCount: 1)
        configuration.embedding = EmbeddingSettings(modelFolder: modelFolder)
        return ExtractorPool(configuration: configuration, logger: Logger(label: "test"))
    }

    static func cosine(_ a: [Float], _ b: [Float]) -> Float { zip(a, b).reduce(0) { $0 + $1.0 * $1.1 } }

    @Test("A sandboxed worker embeds a question and passages; the right passage is closest")
    func embedsInTheWorker() throws {
        let pool = try Self.makePool(modelFolder: Self.modelFolder)
        defer { pool.shutdown() }
        let question = try pool.embed(["how much room is left on my drives"], role: .query).get()
        #expect(question.format == .float32 && question.dimensions == 384 && question.count == 1)
        let passages = try pool.embed(["df: report file system disk space usage", "mv: move (rename) files",
                                       "mkdir: make directories"], role: .passage).get()
        #expect(passages.count == 3)
        let q = question.vectors[0]
        #expect(abs(Self.cosine(q, q) - 1) < 1e-4)
        let scores = passages.vectors.map { Self.cosine(q, $0) }
        #expect(scores[0] > scores[1] && scores[0] > scores[2], "\(scores)")
        // The same worker, now with its model loaded, answers in int8 codes.
        let codes = try pool.embed(["df: report file system disk space usage"], role: .passage, format: .int8).get()
        #expect(codes.format == .int8 && codes.bytes.count == 388)
        #expect(Self.cosine(codes.vectors[0], passages.vectors[0]) > 0.995)
    }

    @Test("Without a model, embedding fails as unsupported and says how to add one")
    func withoutAModel() throws {
        let pool = try Self.makePool(modelFolder: nil)
        defer { pool.shutdown() }
        let result = pool.embed(["anything"], role: .query)
        guard case .failure(let failure) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(failure.reason == .unsupported)
        #expect(failure.message.contains("make model"))
    }

    @Test("A folder without model.bin fails as unsupported, naming the file")
    func missingModelFile() throws {
        let tree = TemporaryTree()
        let pool = try Self.makePool(modelFolder: FilePath(tree.path), requiringModel: false)
        defer { pool.shutdown() }
        let result = pool.embed(["anything"], role: .passage)
        guard case .failure(let failure) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(failure.reason == .unsupported)
        #expect(failure.message.contains(tree.path + "/model.bin"))
        // The worker lives on and answers the next request the same way.
        guard case .failure(let again) = pool.embed(["again"], role: .query) else {
            Issue.record("expected a failure")
            return
        }
        #expect(again.reason == .unsupported)
    }
}
