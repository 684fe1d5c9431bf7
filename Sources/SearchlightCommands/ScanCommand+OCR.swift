import Foundation
import Searchlight
import SearchlightFiles

extension ScanCommand {
    /// The second pass (Docs/Contract.md#text-in-pictures): reads the text of the pictures the scan queued, before the
    /// command exits, so that a one-shot scan leaves them searchable; `--no-ocr` skips it.
    /// What an interrupted pass has not read stays queued for the next scan or watch.
    func recognizeText(_ extraction: ItemExtraction, index: any IndexStore, threads: Int, output: StandardOutput) {
        guard let queue = extraction.ocrQueue else { return }
        let recognizer = TextRecognizer(store: queue, index: index, pool: extraction.pool, logger: indexOptions.logger)
        let summary = recognizer.run(threads: threads)
        guard summary.processed > 0, !json else { return }
        var line = "ocr: text in \(summary.withText) of \(summary.processed) pictures"
        if summary.fromCache > 0 { line += " (\(summary.fromCache) already read)" }
        if summary.failed > 0 { line += ", \(summary.failed) failed" }
        output.write(line + String(format: " in %.2f s\n", summary.seconds))
        output.flush()
    }
}
