import Foundation
import Logging
import Searchlight
import SearchlightFiles
import ServiceLifecycle

/// `watch`'s pass of search by meaning (Docs/Contract.md#search-by-meaning): one thread that
/// embeds texts that changed or arrived, one at a time (the other workers stay free for the
/// first pass), while the watchers are neither paused nor backing off; it picks up what an
/// earlier run left, and leaves what it has not embedded for the next.
struct MeaningService: Service {
    let indexer: MeaningIndexer
    let control: WatchControl
    let logger: Logger

    init?(extraction: ItemExtraction?, index: any IndexWriter, configuration: Configuration, control: WatchControl, logger: Logger) {
        guard let extraction, let indexer = Self.indexer(extraction: extraction, index: index, configuration: configuration,
                                                         logger: logger) else { return nil }
        self.indexer = indexer
        self.control = control
        self.logger = logger
    }

    /// The pass for `index` with the configured model, or nil: no model, `[meaning] enabled =
    /// false`, no text extracted, or a model that cannot be loaded (said once in the log).
    static func indexer(extraction: ItemExtraction, index: any IndexWriter, configuration: Configuration,
                        logger: Logger) -> MeaningIndexer? {
        guard configuration.content.value,
              let model = MeaningModel.configured(in: configuration, environment: ProcessInfo.processInfo.environment) else {
            return nil
        }
        do {
            let settings = try model.settings(chunksPerDocument: configuration.meaningChunks.value)
            return MeaningIndexer(index: index, settings: settings, logger: logger, embed: model.embedder(pool: extraction.pool))
        } catch {
            logger.warning("meaning: cannot load the model in \(model.folder): \(error); search is by words")
            return nil
        }
    }

    func run() async throws {
        let stopping = StopFlag()
        let (indexer, control, logger) = (self.indexer, self.control, self.logger)
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                let summary = await withCheckedContinuation { (continuation: CheckedContinuation<MeaningIndexer.Summary, Never>) in
                    Thread.detachNewThread {
                        continuation.resume(returning: indexer.run(
                            threads: 1, untilDone: false,
                            isStopping: { stopping.isSet },
                            mayRun: { !control.isPaused && control.backoffReason == nil }))
                    }
                }
                if summary.items > 0 { logger.info("\(summary.sentence)") }
            } onCancel: {
                stopping.set()
            }
        } onGracefulShutdown: {
            stopping.set()
        }
    }
}
