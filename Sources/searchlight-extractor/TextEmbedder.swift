import DocumentExtraction
import Embedding
import ExtractionProtocol
import Synchronization
import SystemPackage

/// The worker's embedding model: loaded from `--embedding-model`'s folder on the first
/// ``ExtractionKind/embed`` request (a worker that only reads documents never maps it), then
/// kept for the worker's life.
final class TextEmbedder: Sendable {
    private let folder: String?
    private let model = Mutex<Result<EmbeddingModel, EmbeddingError>?>(nil)

    init(folder: String?) {
        self.folder = folder
    }

    /// The vectors of the request's texts, or why there are none.
    func response(to request: ExtractionRequest) -> ExtractionResponse {
        guard let job = request.embedding else {
            return ExtractionResponse(answering: request, failure: ExtractionFailure(.internalError, "an embedding request without texts"))
        }
        guard let folder else {
            return ExtractionResponse(answering: request, failure: ExtractionFailure(
                .unsupported, "no embedding model is configured (install one with `make model`)"))
        }
        let loaded = model.withLock { model in
            if let model { return model }
            let result = Result { () throws(EmbeddingError) in try EmbeddingModel.load(folder: FilePath(folder)) }
            model = result
            return result
        }
        let embedding: EmbeddingModel
        switch loaded {
        case .success(let model): embedding = model
        case .failure(let error): return ExtractionResponse(answering: request, failure: ExtractionFailure(.unsupported, "\(error)"))
        }
        let vectors = embedding.embed(job.texts, as: job.role == .query ? .query : .passage)
        var bytes: [UInt8] = []
        switch job.format {
        case .float32:
            bytes.reserveCapacity(vectors.count * embedding.dimensions * 4)
            for vector in vectors {
                for value in vector { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
            }
        case .int8:
            for vector in vectors { bytes += QuantizedVector(vector).bytes }
        }
        return ExtractionResponse(jobID: request.jobID, kindRawValue: request.kindRawValue, outcome: .embeddings(
            EmbeddedTexts(format: job.format, dimensions: embedding.dimensions, bytes: bytes)))
    }
}
