import Logging
import Searchlight

/// Step ③ of the write path, extraction: what the workers add to each new or changed file of a
/// scan or a watch — a thumbnail, the document's content, or both — through one pool of
/// supervised workers. An ``IndexingPipeline`` runs it (``IndexingPipeline/Configuration/extraction``).
///
/// ```swift
/// let extraction = ItemExtraction(options: .init(thumbnails: false), pool: ExtractorPool(logger: logger), logger: logger)
/// defer { extraction.shutdown() }
/// options.pipeline = IndexingPipeline.Configuration(extraction: extraction)
/// let scanner = FolderScanner(index: index, root: root, options: options, logger: logger)
/// ```
public final class ItemExtraction: Sendable {
    /// Which extractions run.
    public struct Options: Sendable {
        /// Thumbnails of images, PDFs and SVGs (``Thumbnailer``).
        public var thumbnails: Bool
        /// Text, title, authors and more from inside documents (``ContentReader``).
        public var content: Bool
        /// Queue pictures for OCR (Docs/Contract.md#text-in-pictures) in this store; nil for none.
        public var ocrQueue: OCRStore?

        /// Which extractions run; by default thumbnails and content, and no OCR.
        public init(thumbnails: Bool = true, content: Bool = true, ocrQueue: OCRStore? = nil) {
            self.thumbnails = thumbnails
            self.content = content
            self.ocrQueue = ocrQueue
        }
    }

    /// The workers both extractions share.
    public let pool: ExtractorPool
    let thumbnailer: Thumbnailer?
    let contentReader: ContentReader?
    /// Where pictures wait for OCR (the second pass), when OCR is on.
    public let ocrQueue: OCRStore?
    let logger: Logger

    /// Starts the workers.
    /// - Parameters:
    ///   - keywordRanker: Picks the telling words of each document's text for its keywords,
    ///     with the statistics of the index it came from; without it, a document's keywords are
    ///     its own, then its name's and type's.
    ///   A worker executable that cannot be started is an outage of the pool, not an error
    ///   (see ``ExtractorPool/init(configuration:logger:)``).
    public convenience init(options: Options, configuration: ExtractorPool.Configuration, keywordRanker: KeywordRanker? = nil,
                            logger: Logger) {
        self.init(options: options, pool: ExtractorPool(configuration: configuration, logger: logger),
                  keywordRanker: keywordRanker, logger: logger)
    }

    /// Uses workers started already (a scan starts them before it opens the index, so that they
    /// load their libraries meanwhile); ``shutdown()`` stops them.
    public init(options: Options, pool: ExtractorPool, keywordRanker: KeywordRanker? = nil, logger: Logger) {
        self.pool = pool
        thumbnailer = options.thumbnails ? Thumbnailer(pool: pool) : nil
        contentReader = options.content ? ContentReader(pool: pool, keywordRanker: keywordRanker, logger: logger) : nil
        ocrQueue = options.ocrQueue
        self.logger = logger
    }

    /// Adds a thumbnail and content to `item`, as the options say.
    public func enrich(_ item: inout SearchableItem, in root: RootFolder) {
        let mayHoldText = thumbnailer?.enrich(&item, in: root)
        let document = contentReader?.enrich(&item, in: root)
        if let ocrQueue {
            queueForOCR(item, in: root, mayHoldText: mayHoldText, scannedPages: document?.scannedPageCount, queue: ocrQueue)
        }
    }

    /// Stops the workers.
    public func shutdown() { pool.shutdown() }
}
