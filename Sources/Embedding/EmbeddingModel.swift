import CShimEmbedding
import SystemPackage

/// multilingual-e5-small: a sentence embedding for a question or a passage, in about a hundred
/// languages, computed on the CPU by this module from a 4-bit model file.
///
/// ```swift
/// let model = try EmbeddingModel.load(folder: folder)
/// let question = model.embed(["how much room is left on my drives"], as: .query)[0]
/// let passages = model.embed(model.chunks(of: text, maxTokens: 256, overlap: 32, limit: 8), as: .passage)
/// let best = passages.map { zip($0, question).reduce(0) { $0 + $1.0 * $1.1 } }.max()
/// ```
///
/// Loading maps the file (nothing is read whole) and builds the tokenizer's piece table; the
/// model is immutable afterwards, so one instance serves any number of threads at once.
public final class EmbeddingModel: Sendable {
    /// The file a model folder holds.
    public static let fileName = "model.bin"

    /// Sequences run through the encoder together, up to this many tokens in all.
    ///
    /// Larger passes amortize the encoder's set-up over more sequences; this bounds the memory
    /// of one pass's activations.
    static let tokensPerPass = 2048

    /// Cuts text into the model's pieces (SentencePiece).
    let tokenizer: SentencePieceTokenizer
    /// The transformer that turns pieces into hidden states, on the CPU.
    let encoder: TransformerEncoder
    /// Names this model file: stored beside the vectors, so that another model re-embeds.
    ///
    /// A short digest of samples of the file (`digest(_:)`): the same file has the same
    /// identifier on every machine, and two model files almost surely differ.
    public let identifier: String

    /// The length of the vectors `embed` returns (384).
    public var dimensions: Int { encoder.width }

    /// Content tokens per window: the model's positions less `<s>` and `</s>`.
    var windowTokens: Int { encoder.positions - 2 }

    /// Maps the model file at `path`, builds the tokenizer and the encoder, and asks the kernel
    /// to read the encoder's weights ahead.
    ///
    /// - Throws: ``EmbeddingError`` when the file is missing, unreadable, truncated, or not a
    ///   model of the known format.
    init(path: FilePath) throws(EmbeddingError) {
        let model = try ModelFile(path: path)
        tokenizer = try SentencePieceTokenizer(model)
        encoder = try TransformerEncoder(model)
        identifier = "multilingual-e5-small-q4:" + Self.digest(model.file)
        guard model.vocabularyRows >= model.pieceCount else {
            throw EmbeddingError(.notAModel, "the vocabulary has more pieces than the embedding rows", path: path)
        }
        // The encoder's weights (12 MB after the word embeddings) are read by every embedding.
        if let first = model.tensors["l0.q.w"]?.offset { model.file.willNeed(first..<model.file.size) }
    }

    /// Loads `model.bin` from `folder` (see ``ModelFolder``).
    ///
    /// - Throws: ``EmbeddingError`` when the folder or file is missing, unreadable, truncated,
    ///   or not a model of the known format.
    public static func load(folder: FilePath) throws(EmbeddingError) -> EmbeddingModel {
        try EmbeddingModel(path: folder.appending(fileName))
    }

    /// The L2-normalized embedding of each text, in order. A text longer than the model's 512
    /// tokens is read in windows of 510 whose mean rows are averaged, weighted by their tokens.
    ///
    /// The cost is the encoder's, roughly linear in the tokens of all the texts; windows of
    /// several texts run together in passes of up to `tokensPerPass` tokens. Blocks the calling
    /// thread; may run on several threads at once.
    ///
    /// - Parameters:
    ///   - texts: The texts, each a question or a passage.
    ///   - role: Whether they are questions or passages: the model reads each with its prefix
    ///     (`query: `, `passage: `).
    /// - Returns: One vector of ``dimensions`` floats per text, of unit length.
    public func embed(_ texts: [String], as role: EmbeddingRole) -> [[Float]] {
        var windows: [(text: Int, ids: [Int32])] = []
        for (index, text) in texts.enumerated() {
            let ids = tokenizer.pieces(of: role.prefix + text).ids
            var start = 0
            repeat {
                let end = min(start + windowTokens, ids.count)
                windows.append((index, [tokenizer.beginning] + ids[start..<end] + [tokenizer.end]))
                start = end
            } while start < ids.count
        }
        var sums = [[Float]](repeating: [Float](repeating: 0, count: dimensions), count: texts.count)
        var batch: [(text: Int, ids: [Int32])] = []
        var batchTokens = 0
        func run() {
            let means = encoder.meanStates(batch.map(\.ids))
            for (window, mean) in zip(batch, means) {
                let weight = Float(max(window.ids.count - 2, 1))
                for i in 0..<dimensions { sums[window.text][i] += weight * mean[i] }
            }
            batch.removeAll(keepingCapacity: true)
            batchTokens = 0
        }
        for window in windows {
            if batchTokens + window.ids.count > Self.tokensPerPass, !batch.isEmpty { run() }
            batch.append(window)
            batchTokens += window.ids.count
        }
        if !batch.isEmpty { run() }
        return sums.map(Self.normalized)
    }

    /// The tokens the model reads for `text` as a passage: `<s>`, the pieces of
    /// `passage: ` and of the text, `</s>`.
    ///
    /// Costs a tokenization; the chunker uses it to know what `passage: ` itself takes.
    public func tokenCount(_ text: String) -> Int {
        tokenizer.pieces(of: EmbeddingRole.passage.prefix + text).ids.count + 2
    }

    /// `vector` scaled to unit length; a zero vector stays zero.
    static func normalized(_ vector: [Float]) -> [Float] {
        let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return vector.map { $0 / max(norm, 1e-12) }
    }

    /// 12 hex digits of an FNV-1a hash of the file's size, its first and last 64 KB (header,
    /// vocabulary start, last layer) and 4 KB at 64 places between: enough to tell model files
    /// apart without reading 70 MB at every load.
    static func digest(_ file: MappedFile) -> String {
        var hash = CE_FNV_OFFSET
        withUnsafeBytes(of: UInt64(file.size).littleEndian) {
            hash = ce_fnv1a(hash, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), 8)
        }
        var spans = [(0, 65536), (max(0, file.size - 65536), 65536)]
        for part in 1...64 { spans.append((file.size / 65 * part, 4096)) }
        for (start, length) in spans {
            hash = ce_fnv1a(hash, (file.base + start).assumingMemoryBound(to: UInt8.self), min(length, file.size - start))
        }
        let hex = String(hash, radix: 16)
        return String((String(repeating: "0", count: 16 - hex.count) + hex).prefix(12))
    }
}
