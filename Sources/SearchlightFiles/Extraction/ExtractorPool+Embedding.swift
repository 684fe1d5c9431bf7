import ExtractionProtocol
import SystemPackage

/// How the extraction workers compute embeddings (issue 49: search by meaning).
public struct EmbeddingSettings: Sendable, Equatable {
    /// The model folder (`model.bin`), which the workers' sandbox lets them read; nil when no
    /// model is installed (embedding requests then fail as unsupported).
    public var modelFolder: FilePath?
    /// How long one embedding request may take, besides the model's first load, before its
    /// worker is killed; it grows with the texts (``jobDeadline(texts:)``).
    public var deadlinePerText: Duration

    /// Settings of a model in `modelFolder` (none by default: no meaning), 2 s per text.
    public init(modelFolder: FilePath? = nil, deadlinePerText: Duration = .seconds(2)) {
        self.modelFolder = modelFolder
        self.deadlinePerText = deadlinePerText
    }

    /// The worker's `--embedding-model` argument.
    var workerArguments: [String] {
        modelFolder.map { ["--embedding-model", $0.string] } ?? []
    }

    /// A job of `texts` texts: the model's load (10 s, a cold disk) and each text's share.
    func jobDeadline(texts: Int) -> Duration { .seconds(10) + deadlinePerText * max(texts, 1) }
}

extension ExtractorPool {
    /// The vectors of `texts` computed by a worker (multilingual-e5-small, L2-normalized), in
    /// order, blocking until done or failed. Each text longer than the model's 512 tokens is
    /// read in windows; cut documents into chunks first (Embedding's `EmbeddingModel.chunks`).
    ///
    /// - Parameters:
    ///   - role: `.query` for a search's words, `.passage` for a document's pieces.
    ///   - format: float32 vectors, or int8 codes with a scale (as they are stored).
    /// - Returns: the vectors, or why not: ``ExtractionFailure/Reason-swift.enum/unsupported``
    ///   when no model is configured or it cannot be loaded (the message says why), a
    ///   timeout or a crash as for any job.
    public func embed(_ texts: [String], role: EmbeddingJob.Role,
                      format: EmbeddedTexts.Format = .float32) -> Result<EmbeddedTexts, ExtractionFailure> {
        guard !texts.isEmpty else { return .success(EmbeddedTexts(format: format, dimensions: 0, bytes: [])) }
        let job = EmbeddingJob(role: role, format: format, texts: texts)
        let deadline = configuration.embedding.jobDeadline(texts: texts.count)
        return runJob(naming: Array("(\(texts.count) texts to embed)".utf8)) { worker in
            worker.run(embedding: job, deadline: deadline)
        }.flatMap { response in
            switch response.outcome {
            case .embeddings(let vectors) where vectors.count == texts.count:
                return .success(vectors)
            case .embeddings(let vectors):
                return .failure(ExtractionFailure(.crashed, "extractor answered \(texts.count) texts with \(vectors.count) vectors"))
            case .failure(let failure):
                return .failure(Self.reported(failure))
            case .thumbnail, .document:
                return .failure(ExtractionFailure(.crashed, "extractor answered an embedding request with something else"))
            }
        }
    }
}
