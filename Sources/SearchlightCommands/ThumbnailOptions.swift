import ArgumentParser
import Foundation
import Logging
import Searchlight
import SearchlightFiles

/// `--no-thumbnails`, `--no-content` and the decoders' limits, for `scan` and `watch`; they
/// override the configuration's `[extraction]`.
struct ThumbnailOptions: ParsableArguments {
    @Flag(help: "Do not make thumbnails.")
    var noThumbnails = false

    @Flag(help: "Do not read inside documents (text, title, authors); index names and types only.")
    var noContent = false

    @Option(help: ArgumentHelp("Seconds a decoder may spend on one file before it is killed (default 10).",
                               valueName: "seconds"))
    var decoderDeadline: Int?

    @Flag(help: "Do not read text in images and scanned PDF pages (OCR).")
    var noOcr = false

    func validate() throws {
        if let decoderDeadline, decoderDeadline < 1 { throw ValidationError("--decoder-deadline must be at least 1 second.") }
    }

    /// Lets these options override the configuration.
    func apply(to configuration: inout Configuration) {
        configuration.thumbnails.override(noThumbnails ? false : nil, option: "--no-thumbnails")
        configuration.content.override(noContent ? false : nil, option: "--no-content")
        configuration.decoderDeadline.override(decoderDeadline, option: "--decoder-deadline")
        configuration.ocr.override(noOcr ? false : nil, option: "--no-ocr")
    }

    /// The ranker of a document's telling words: with the SQLite index's word statistics;
    /// the PostgreSQL index keeps none yet, so there the words a text uses most.
    static func keywordRanker(_ index: any IndexWriter) -> KeywordRanker? {
        guard let index = index as? SearchableIndex else { return KeywordRanker() }
        return try? index.keywordRanker()
    }

    /// Starts the extraction workers, unless both thumbnails and content are off; `index` gives
    /// the statistics that pick each document's telling words for its keywords; `timingsPath`,
    /// a file the workers append their timings to (``ExtractorPool/Configuration/timingsPath``).
    static func makeExtraction(_ configuration: Configuration, workers: Int, index: any IndexWriter,
                               timingsPath: String? = nil, logger: Logger) throws -> ItemExtraction? {
        let started = try startWorkers(configuration, workers: workers, timingsPath: timingsPath, logger: logger)
        return makeExtraction(started, index: index, logger: logger)
    }

    /// Workers started before the index is opened, and what they are for.
    struct StartedWorkers {
        let pool: ExtractorPool
        let options: ItemExtraction.Options
        /// Whether pictures are queued for OCR (in the index's queue, opened with the index).
        let ocr: Bool
    }

    /// Starts the extraction workers (nil when thumbnails and content are off), which need no
    /// index: they load their libraries while the caller opens it. Throws when OCR's languages
    /// are not installed.
    static func startWorkers(_ configuration: Configuration, workers: Int, timingsPath: String? = nil,
                             logger: Logger) throws -> StartedWorkers? {
        let thumbnails = configuration.thumbnails.value, content = configuration.content.value
        // Recognised text is content: `--no-content` (or `content = false`) leaves it out too.
        let ocr = configuration.ocr.value && content
        if !thumbnails && !content && !ocr { return nil }
        var pool = ExtractorPool.Configuration()
        pool.workerCount = workers
        pool.deadline = .seconds(configuration.decoderDeadline.value)
        pool.textLimit = configuration.textLimit.value
        pool.timingsPath = timingsPath
        if ocr { try setOCR(configuration, pool: &pool) }
        // Search by meaning: the workers embed texts with the configured model (its folder made
        // readable in their sandbox); none, and the pass does not run.
        if content, let model = MeaningModel.configured(in: configuration, environment: ProcessInfo.processInfo.environment) {
            pool.embedding.modelFolder = model.folder
        }
        return StartedWorkers(pool: ExtractorPool(configuration: pool, logger: logger),
                              options: .init(thumbnails: thumbnails, content: content), ocr: ocr)
    }

    /// The extraction of a scan or a watch of `index`, with the workers `started`.
    static func makeExtraction(_ started: StartedWorkers?, index: any IndexWriter, logger: Logger) -> ItemExtraction? {
        guard let started else { return nil }
        var options = started.options
        options.ocrQueue = started.ocr ? openOCRQueue(index: index) : nil
        return ItemExtraction(options: options, pool: started.pool, keywordRanker: Self.keywordRanker(index), logger: logger)
    }
}
