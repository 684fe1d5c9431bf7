extension EmbeddingModel {
    /// Scalars after which a sentence ends.
    ///
    /// Latin and CJK full stops, question and exclamation marks, the Arabic question mark and
    /// full stop, the Devanagari danda and double danda, and the ellipsis.
    private static let sentenceEnds: Set<Unicode.Scalar> = [".", "!", "?", ";", "\u{3002}", "\u{FF01}", "\u{FF1F}",
                                                             "\u{061F}", "\u{06D4}", "\u{0964}", "\u{0965}", "\u{2026}"]

    /// Pieces of `text` to embed as passages: each at most `maxTokens` tokens as the model reads
    /// it (`passage: ` and the two special tokens included, and never more than its 512), the
    /// next starting about `overlap` tokens before the previous one ended; at most `limit`.
    ///
    /// A piece is cut at a token boundary, preferably after the end of a sentence in its second
    /// half, otherwise before a word; pieces are trimmed of white space. A text that fits in
    /// one piece is returned whole (trimmed); an empty or blank text gives none.
    ///
    /// Costs one tokenization of the whole text (SentencePiece), whatever `limit`: a long text is
    /// tokenized whole even when only its first pieces are kept. It runs no model: the model is
    /// `Sendable`, and this may be called from any thread.
    ///
    /// ```swift
    /// let pieces = model.chunks(of: text, maxTokens: 256, overlap: 32, limit: 8)
    /// ```
    ///
    /// - Parameters:
    ///   - text: The text to cut.
    ///   - maxTokens: The most tokens of a piece, as the model counts them.
    ///   - overlap: About how many tokens a piece repeats from the end of the one before.
    ///   - limit: The most pieces; the rest of a long text is left out.
    /// - Returns: The pieces, in order.
    public func chunks(of text: String, maxTokens: Int, overlap: Int, limit: Int) -> [String] {
        guard limit > 0 else { return [] }
        let scalars = Array(text.unicodeScalars)
        guard scalars.contains(where: { !$0.properties.isWhitespace }) else { return [] }
        let pieces = tokenizer.pieces(of: text)
        let ids = pieces.ids
        let budget = max(8, min(maxTokens, windowTokens + 2) - tokenCount(""))
        if ids.count <= budget { return [Self.trimmed(scalars[...])] }
        var chunks: [String] = []
        var start = 0
        while start < ids.count, chunks.count < limit {
            var end = min(start + budget, ids.count)
            if end < ids.count { end = cut(pieces, scalars: scalars, from: start, before: end) }
            let upper = end < ids.count ? pieces.scalarStarts[end] : scalars.count
            let chunk = Self.trimmed(scalars[pieces.scalarStarts[start]..<max(upper, pieces.scalarStarts[start])])
            if !chunk.isEmpty { chunks.append(chunk) }
            if end >= ids.count { break }
            var next = max(end - max(overlap, 0), start + 1)
            while next < end, !tokenizer.startsWord(ids[next]) { next += 1 }
            start = next
        }
        return chunks
    }

    /// Where to end a piece that may run to token `end`: after a sentence, else before a word,
    /// searching back no further than half the piece.
    ///
    /// A sentence end counts when a space follows it, or when it is a CJK mark (U+3000 and up),
    /// which needs none.
    ///
    /// - Returns: The token index where the piece ends (excluded).
    private func cut(_ pieces: SentencePieceTokenizer.Pieces, scalars: [Unicode.Scalar], from start: Int, before end: Int) -> Int {
        let floor = start + (end - start) / 2
        var candidate = end
        while candidate > floor {
            // The token after the cut starts at its space (`▁The`) or after one.
            let start = pieces.scalarStarts[candidate]
            var at = start
            while at > 0, scalars[at - 1].properties.isWhitespace { at -= 1 }
            let spaced = at < start || scalars[start].properties.isWhitespace
            if at > 0, Self.sentenceEnds.contains(scalars[at - 1]), spaced || scalars[at - 1].value >= 0x3000 {
                return candidate
            }
            candidate -= 1
        }
        candidate = end
        while candidate > floor {
            if tokenizer.startsWord(pieces.ids[candidate]) { return candidate }
            candidate -= 1
        }
        return end
    }

    /// The scalars as a string, without leading or trailing white space.
    private static func trimmed(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var slice = scalars
        while let first = slice.first, first.properties.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.properties.isWhitespace { slice.removeLast() }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: slice)
        return String(view)
    }
}
