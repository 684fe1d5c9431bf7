import Foundation
import Searchlight
import SearchlightFiles

extension ScanCommand {
    /// The second pass (Docs/Contract.md#text-in-pictures): reads the text of the pictures the scan queued, before the
    /// command exits, so that a one-shot scan leaves them searchable; `--no-ocr` skips it.
    /// What an interrupted pass has not read stays queued for the next scan or watch.
    /// - Returns: how long the pass took, when it read any picture.
    @discardableResult
    func recognizeText(_ extraction: ItemExtraction, index: any IndexStore, threads: Int, output: StandardOutput) -> Double? {
        guard let queue = extraction.ocrQueue else { return nil }
        let recognizer = TextRecognizer(store: queue, index: index, pool: extraction.pool, logger: indexOptions.logger)
        let summary = recognizer.run(threads: threads)
        guard summary.processed > 0 else { return nil }
        if !json {
            output.write(Self.describe(summary) + "\n")
            output.flush()
        }
        return summary.seconds
    }

    /// `text in pictures: 10 read in 7.52 s, text in 1 (9 known from a copy with the same bytes)`.
    static func describe(_ summary: TextRecognizer.Summary) -> String {
        let pictures = summary.processed == 1 ? "1 picture" : "\(summary.processed) pictures"
        var line = "text in pictures: \(pictures) read" + String(format: " in %.2f s", summary.seconds)
        line += ", text in \(summary.withText)"
        if summary.failed > 0 { line += ", \(summary.failed) could not be read" }
        if summary.fromCache > 0 { line += " (\(summary.fromCache) known from a copy with the same bytes)" }
        return line
    }
}
