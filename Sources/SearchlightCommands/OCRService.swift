import Foundation
import Logging
import Searchlight
import SearchlightFiles
import ServiceLifecycle
import Synchronization

/// `watch`'s second pass (Docs/Contract.md#text-in-pictures): one thread that reads the text of queued pictures, one
/// at a time (the other workers stay free for the first pass), while the watchers are
/// neither paused (`searchlight pause`) nor backing off; it picks up what an earlier run left
/// in the queue, and leaves what it has not read for the next. First, once per root, it
/// queues the pictures and PDFs indexed before OCR (``ItemExtraction/queueOlderItems(of:domain:root:onlyIfEmpty:)``).
struct OCRService: Service {
    let recognizer: TextRecognizer
    let extraction: ItemExtraction
    let index: any IndexWriter
    let roots: [Root]
    let control: WatchControl
    let logger: Logger

    /// A watched root and its domain.
    struct Root: Sendable {
        var domain: String
        var path: String
    }

    init?(extraction: ItemExtraction?, index: any IndexWriter, roots: [Root], control: WatchControl, logger: Logger) {
        guard let extraction, let queue = extraction.ocrQueue else { return nil }
        recognizer = TextRecognizer(store: queue, index: index, pool: extraction.pool, logger: logger)
        self.extraction = extraction
        self.index = index
        self.roots = roots
        self.control = control
        self.logger = logger
    }

    func run() async throws {
        let stopping = StopFlag()
        let (recognizer, control, logger) = (self.recognizer, self.control, self.logger)
        let (extraction, index, roots) = (self.extraction, self.index, self.roots)
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                let summary = await withCheckedContinuation { (continuation: CheckedContinuation<TextRecognizer.Summary, Never>) in
                    Thread.detachNewThread {
                        for root in roots where !stopping.isSet {
                            extraction.queueOlderItems(of: index, domain: root.domain, root: root.path)
                        }
                        continuation.resume(returning: recognizer.run(
                            threads: 1, untilEmpty: false,
                            isStopping: { stopping.isSet },
                            mayRun: { !control.isPaused && control.backoffReason == nil }))
                    }
                }
                if summary.processed > 0 {
                    logger.info("\(summary.sentence)")
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
