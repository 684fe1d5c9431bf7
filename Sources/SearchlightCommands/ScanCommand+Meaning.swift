import Foundation
import Logging
import Searchlight
import SearchlightFiles

extension ScanCommand {
    /// The pass of search by meaning (Docs/Contract.md#search-by-meaning): embeds the texts that
    /// wait before the command exits, so that a one-shot scan leaves them searchable by meaning.
    /// Nothing without a model or with `[meaning] enabled = false`; what an interrupted pass has
    /// not embedded waits for the next scan or watch.
    /// - Returns: how long the pass took, when it embedded or linked any text.
    @discardableResult
    func embedTexts(_ extraction: ItemExtraction, index: any IndexWriter, configuration: Configuration, threads: Int,
                    output: StandardOutput) -> Double? {
        guard let indexer = MeaningService.indexer(extraction: extraction, index: index, configuration: configuration,
                                                   logger: indexOptions.logger) else { return nil }
        let summary = indexer.run(threads: threads)
        guard summary.items + summary.failed > 0 else { return nil }
        if !json {
            output.write(summary.sentence + "\n")
            output.flush()
        }
        return summary.seconds
    }
}

extension MeaningIndexer.Summary {
    /// `meaning: 550 texts embedded in 41.20 s (2210 chunks, 53.6 a second), 3 known from a copy`:
    /// what `scan` prints and `watch` logs after a pass.
    var sentence: String {
        var line = "meaning: \(embedded) text" + (embedded == 1 ? "" : "s") + " embedded" + String(format: " in %.2f s", seconds)
        line += " (\(chunks) chunk" + (chunks == 1 ? "" : "s")
        if seconds > 0, chunks > 0 { line += String(format: ", %.1f a second", Double(chunks) / seconds) }
        line += ")"
        if fromCache > 0 { line += ", \(fromCache) known from a copy with the same text" }
        if failed > 0 { line += ", \(failed) could not be embedded" }
        return line
    }
}
