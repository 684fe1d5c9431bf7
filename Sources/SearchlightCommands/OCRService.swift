import Foundation
import Logging
import Searchlight
import SearchlightFiles
import ServiceLifecycle
import Synchronization

/// `watch`'s second pass (Docs/Contract.md#text-in-pictures): one thread that reads the text of queued pictures, one
/// at a time (the other workers stay free for the first pass), while the watchers are
/// neither paused (`searchlight pause`) nor backing off; it picks up what an earlier run left
/// in the queue, and leaves what it has not read for the next.
struct OCRService: Service {
    let recognizer: TextRecognizer
    let control: WatchControl
    let logger: Logger

    init?(extraction: ItemExtraction?, index: any IndexStore, control: WatchControl, logger: Logger) {
        guard let extraction, let queue = extraction.ocrQueue else { return nil }
        recognizer = TextRecognizer(store: queue, index: index, pool: extraction.pool, logger: logger)
        self.control = control
        self.logger = logger
    }

    func run() async throws {
        let stopping = StopFlag()
        let (recognizer, control, logger) = (self.recognizer, self.control, self.logger)
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                let summary = await withCheckedContinuation { (continuation: CheckedContinuation<TextRecognizer.Summary, Never>) in
                    Thread.detachNewThread {
                        continuation.resume(returning: recognizer.run(
                            threads: 1, untilEmpty: false,
                            isStopping: { stopping.isSet },
                            mayRun: { !control.isPaused && control.backoffReason == nil }))
                    }
                }
                if summary.processed > 0 {
                    logger.info("ocr: text in \(summary.withText) of \(summary.processed) pictures")
                }
            } onCancel: {
                stopping.set()
            }
        } onGracefulShutdown: {
            stopping.set()
        }
    }
}

/// A flag one thread sets and others read.
final class StopFlag: Sendable {
    private let value = Atomic(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
}
