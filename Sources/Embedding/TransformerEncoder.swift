import CShimEmbedding

/// The BERT encoder of multilingual-e5-small over the mapped weights: token, position and type
/// embeddings with a layer norm, then layers of self-attention and a GELU feed-forward network,
/// each followed by a residual layer norm (post-norm), and the mean of the last layer's rows.
///
/// Several sequences run together: their rows are stacked so that each weight is expanded once
/// for all of them, while each attends only to its own tokens.
struct TransformerEncoder: @unchecked Sendable {
    struct Layer: @unchecked Sendable {
        var query, key, value, attentionOutput, feedForwardIn, feedForwardOut: UnsafeRawPointer
        var queryBias, keyBias, valueBias, attentionOutputBias, feedForwardInBias, feedForwardOutBias: UnsafePointer<Float>
        var attentionNormWeight, attentionNormBias, outputNormWeight, outputNormBias: UnsafePointer<Float>
    }

    let file: MappedFile
    let width: Int, heads: Int, feedForwardWidth: Int, positions: Int, vocabularyRows: Int
    let epsilon: Float
    let words: UnsafeRawPointer
    let positionTable, typeRow, normWeight, normBias: UnsafePointer<Float>
    let layers: [Layer]

    init(_ model: ModelFile) throws(EmbeddingError) {
        file = model.file
        width = model.hiddenWidth
        heads = model.heads
        feedForwardWidth = model.feedForwardWidth
        positions = model.positions
        vocabularyRows = model.vocabularyRows
        epsilon = model.epsilon
        let (h, f) = (width, feedForwardWidth)
        func floats(_ name: String, _ count: Int) throws(EmbeddingError) -> UnsafePointer<Float> {
            try model.tensor(name, elements: count, quantized: false).assumingMemoryBound(to: Float.self)
        }
        words = try model.tensor("emb.word", elements: model.vocabularyRows * h, quantized: true)
        positionTable = try floats("emb.pos", model.positions * h)
        typeRow = try floats("emb.type", model.tokenTypes * h)
        normWeight = try floats("emb.ln.w", h)
        normBias = try floats("emb.ln.b", h)
        var layers: [Layer] = []
        for index in 0..<model.layers {
            func q4(_ name: String, _ count: Int) throws(EmbeddingError) -> UnsafeRawPointer {
                try model.tensor("l\(index).\(name)", elements: count, quantized: true)
            }
            func vector(_ name: String, _ count: Int) throws(EmbeddingError) -> UnsafePointer<Float> {
                try floats("l\(index).\(name)", count)
            }
            layers.append(Layer(
                query: try q4("q.w", h * h), key: try q4("k.w", h * h), value: try q4("v.w", h * h),
                attentionOutput: try q4("ao.w", h * h), feedForwardIn: try q4("fi.w", f * h),
                feedForwardOut: try q4("fo.w", h * f),
                queryBias: try vector("q.b", h), keyBias: try vector("k.b", h), valueBias: try vector("v.b", h),
                attentionOutputBias: try vector("ao.b", h), feedForwardInBias: try vector("fi.b", f),
                feedForwardOutBias: try vector("fo.b", h),
                attentionNormWeight: try vector("aln.w", h), attentionNormBias: try vector("aln.b", h),
                outputNormWeight: try vector("oln.w", h), outputNormBias: try vector("oln.b", h)))
        }
        self.layers = layers
    }

    /// The mean of the last layer's rows for each sequence of token ids (each at most
    /// `positions` long, every id below `vocabularyRows`), not normalized.
    func meanStates(_ sequences: [[Int32]]) -> [[Float]] {
        let lengths = sequences.map(\.count)
        let tokens = lengths.reduce(0, +)
        guard tokens > 0 else { return sequences.map { _ in [Float](repeating: 0, count: width) } }
        var x = [Float](repeating: 0, count: tokens * width)
        embed(sequences, into: &x)
        var q = [Float](repeating: 0, count: tokens * width), k = q, v = q, context = q, projected = q
        var middle = [Float](repeating: 0, count: tokens * feedForwardWidth)
        let t = Int32(tokens), h = Int32(width), f = Int32(feedForwardWidth)
        for layer in layers {
            ce_q4_matmul(layer.query.assumingMemoryBound(to: UInt8.self), layer.queryBias, x, &q, t, h, h)
            ce_q4_matmul(layer.key.assumingMemoryBound(to: UInt8.self), layer.keyBias, x, &k, t, h, h)
            ce_q4_matmul(layer.value.assumingMemoryBound(to: UInt8.self), layer.valueBias, x, &v, t, h, h)
            q.withUnsafeBufferPointer { q in
                k.withUnsafeBufferPointer { k in
                    v.withUnsafeBufferPointer { v in
                        context.withUnsafeMutableBufferPointer { context in
                            var start = 0
                            for length in lengths where length > 0 {
                                let at = start * width
                                ce_attention(q.baseAddress! + at, k.baseAddress! + at, v.baseAddress! + at,
                                             context.baseAddress! + at, Int32(length), Int32(heads), Int32(width / heads))
                                start += length
                            }
                        }
                    }
                }
            }
            ce_q4_matmul(layer.attentionOutput.assumingMemoryBound(to: UInt8.self), layer.attentionOutputBias, context, &projected, t, h, h)
            ce_layer_norm(&x, projected, layer.attentionNormWeight, layer.attentionNormBias, t, h, epsilon)
            ce_q4_matmul(layer.feedForwardIn.assumingMemoryBound(to: UInt8.self), layer.feedForwardInBias, x, &middle, t, f, h)
            ce_gelu(&middle, middle.count)
            ce_q4_matmul(layer.feedForwardOut.assumingMemoryBound(to: UInt8.self), layer.feedForwardOutBias, middle, &projected, t, h, f)
            ce_layer_norm(&x, projected, layer.outputNormWeight, layer.outputNormBias, t, h, epsilon)
        }
        var means: [[Float]] = []
        var start = 0
        for length in lengths {
            var mean = [Float](repeating: 0, count: width)
            for row in start..<(start + length) {
                for i in 0..<width { mean[i] += x[row * width + i] }
            }
            let scale = 1 / Float(max(length, 1))
            for i in 0..<width { mean[i] *= scale }
            means.append(mean)
            start += length
        }
        return means
    }

    /// Word embedding + position embedding + the type-0 embedding, layer-normalized.
    private func embed(_ sequences: [[Int32]], into x: inout [Float]) {
        x.withUnsafeMutableBufferPointer { x in
            var row = 0
            for sequence in sequences {
                precondition(sequence.count <= positions, "a sequence longer than the model's positions")
                for (position, id) in sequence.enumerated() {
                    precondition(id >= 0 && Int(id) < vocabularyRows, "a token id outside the vocabulary")
                    let out = x.baseAddress! + row * width
                    ce_q4_dequantize(words.assumingMemoryBound(to: UInt8.self) + Int(id) * (width / 32 * 18), Int32(width), out)
                    let positionRow = positionTable + position * width
                    for i in 0..<width { out[i] += positionRow[i] + typeRow[i] }
                    row += 1
                }
            }
            ce_layer_norm(x.baseAddress!, nil, normWeight, normBias, Int32(row), Int32(width), epsilon)
        }
    }
}
