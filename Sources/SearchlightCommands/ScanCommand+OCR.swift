import Foundation
import Searchlight
import SearchlightFiles

extension ScanCommand {
    /// The second pass (Docs/Contract.md#text-in-pictures): reads the text of the pictures the scan queued, before the
    /// command exits, so that a one-shot scan leaves them searchable; `--no-ocr` skips it.
    /// What an interrupted pass has not read stays queued for the next scan or watch.
    /// - Returns: how long the pass took, when it read any picture.
    @discardableResult
    func recognizeText(_ extraction: ItemExtraction, index: any IndexWriter, threads: Int, output: StandardOutput) -> Double? {
        guard let queue = extraction.ocrQueue else { return nil }
        let recognizer = TextRecognizer(store: queue, index: index, pool: extraction.pool, logger: indexOptions.logger)
        let summary = recognizer.run(threads: threads)
        guard summary.processed > 0 else { return nil }
        if !json {
            output.write(summary.sentence + "\n")
            output.flush()
        }
        return summary.seconds
    }
}

extension TextRecognizer.Summary {
    /// `text in pictures: 10 pictures read in 7.52 s, text in 1 (9 known from a copy with the
    /// same bytes)`: what `scan` prints and `watch` logs after a pass.
    var sentence: String {
        let pictures = processed == 1 ? "1 picture" : "\(processed) pictures"
        var line = "text in pictures: \(pictures) read" + String(format: " in %.2f s", seconds)
        line += ", text in \(withText)"
        if failed > 0 { line += ", \(failed) could not be read" }
        if fromCache > 0 { line += " (\(fromCache) known from a copy with the same bytes)" }
        return line
    }
}
