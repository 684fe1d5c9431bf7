import Embedding
import ExtractionProtocol
import Foundation
import Searchlight
import Synchronization
import SystemPackage

/// The embedding model of search by meaning (Docs/Contract.md#search-by-meaning) as the
/// commands, the server and the desktop use it: found in its folder (``Embedding/ModelFolder``),
/// loaded at the first use — a search that needs no meaning never maps it.
///
/// The process that searches embeds the question itself (``questionEncoder``); documents are
/// cut into chunks here (the tokenizer is the model's) and embedded in the sandboxed
/// extraction workers (``embedder(pool:)``).
///
/// ```swift
/// if let model = MeaningModel.find(configured: nil, environment: ProcessInfo.processInfo.environment) {
///     search.encoder = model.questionEncoder  // loaded at the first question
/// }
/// ```
public final class MeaningModel: Sendable {
    /// The folder that holds `model.bin`.
    public let folder: FilePath
    private let loaded = Mutex<EmbeddingModel?>(nil)

    /// What a person does to install a model: `status` and `search --meaning` say it.
    public static let advice = "install one with `make model` (or Packaging/install-model), or name its folder as [meaning] model"

    init(folder: FilePath) {
        self.folder = folder
    }

    /// The model in `configured` (a folder, from the configuration), else in the first of the
    /// standard places that holds one; `nil` when there is none.
    ///
    /// Only looks for the folder: nothing is loaded until ``load()``.
    ///
    /// - Parameters:
    ///   - configured: The `[meaning] model` folder of the configuration, if any.
    ///   - environment: Where the standard places' variables are read.
    /// - Returns: The model's folder, or `nil`.
    public static func find(configured: String?, environment: [String: String]) -> MeaningModel? {
        ModelFolder.find(configured: configured.map { FilePath($0) }, environment: environment).map(MeaningModel.init)
    }

    /// The model, loaded once.
    ///
    /// The first call reads the model's files (blocking, for as long as that takes); later
    /// calls, from any thread, return the same model. Two first calls at once may both load
    /// it; one of the two is kept.
    ///
    /// - Returns: The loaded model.
    /// - Throws: ``Embedding/EmbeddingError`` when the folder holds no readable model.
    public func load() throws(EmbeddingError) -> EmbeddingModel {
        if let model = loaded.withLock({ $0 }) { return model }
        let model = try EmbeddingModel.load(folder: folder)
        return loaded.withLock { current in
            if let current { return current }
            current = model
            return model
        }
    }

    /// The question's vector, embedded in this process (a query of the model).
    public var questionEncoder: QuestionEncoder {
        QuestionEncoder { [self] text in
            let model = try load()
            return (model.embed([text], as: .query)[0], model.identifier)
        }
    }

    /// The pass's settings for this model.
    /// - Parameter chunksPerDocument: How many chunks of a document are embedded at most.
    /// - Returns: The settings, with the model's identifier.
    /// - Throws: ``Embedding/EmbeddingError`` when the folder holds no readable model (it is
    ///   loaded to learn its identifier).
    public func settings(chunksPerDocument: Int) throws(EmbeddingError) -> MeaningIndexer.Settings {
        MeaningIndexer.Settings(model: try load().identifier, chunksPerDocument: chunksPerDocument)
    }

    /// Cuts a text into the chunks of `settings` here, and has a worker of `pool` embed them.
    public func embedder(pool: ExtractorPool) -> MeaningIndexer.Embedder {
        { [self] text, settings in
            let model: EmbeddingModel
            do {
                model = try load()
            } catch {
                return .failure(ExtractionFailure(.unsupported, "cannot load the model: \(error)"))
            }
            let chunks = model.chunks(of: text, maxTokens: settings.chunkTokens, overlap: settings.overlapTokens,
                                      limit: settings.chunksPerDocument)
            guard !chunks.isEmpty else { return .success(StoredVectors([])) }
            // The workers answer in the stored form: a scale and a byte per dimension.
            return pool.embed(chunks, role: .passage, format: .int8).flatMap { embedded in
                StoredVectors(bytes: embedded.bytes, dimensions: embedded.dimensions).map { .success($0) }
                    ?? .failure(ExtractionFailure(.crashed, "the worker's vectors are not whole vectors"))
            }
        }
    }
}
