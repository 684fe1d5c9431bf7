import ExtractionProtocol
import Foundation
import Logging
import Searchlight
import Synchronization

/// The pass of Docs/Contract.md#search-by-meaning: gives each item's text the vectors of its
/// chunks, made by the embedding model in the extraction workers, after the first pass (`scan`
/// before it exits, `watch` in the background).
///
/// What waits is read from the index itself (``IndexReader/meaningWork(model:after:limit:)``:
/// items with text and no current vectors of the model), so a killed pass resumes where it
/// stopped, a changed text is embedded again, and another model re-embeds everything. Each
/// text's digest (the model, the chunking and the text, SHA-256) is looked up first: a text
/// embedded before (a copy) is not embedded again, and a move, rename or touch leaves the
/// vectors as they are (the text did not change). The pass stops between texts when
/// `isStopping` says so and waits while `mayRun` says no (`watch`'s back-off and pause).
///
/// ```swift
/// let model = MeaningModel.find(configured: nil, environment: ProcessInfo.processInfo.environment)!
/// let indexer = MeaningIndexer(index: index, settings: try model.settings(chunksPerDocument: 8),
///                              logger: logger, embed: model.embedder(pool: pool))
/// let summary = indexer.run(threads: 2)  // until every text has current vectors
/// print(summary.embedded, summary.fromCache, summary.failed)
/// ```
///
/// Threads: ``run(threads:untilDone:pollInterval:isStopping:mayRun:)`` blocks its caller;
/// each batch of 16 texts is shared among `threads` lanes (`DispatchQueue.concurrentPerform`),
/// each text waiting for a worker of the pool while the model runs. Each text's vectors are
/// stored in a transaction of their own.
public final class MeaningIndexer: Sendable {
    /// How texts are cut and which model embeds them.
    public struct Settings: Sendable, Hashable {
        /// The model's identifier (``Embedding/EmbeddingModel/identifier``): vectors of another are made again.
        public var model: String
        /// The most chunks of one text (Docs/Contract.md#search-by-meaning, `chunks-per-document`).
        public var chunksPerDocument: Int
        /// Tokens per chunk, and how many a chunk shares with the one before.
        public var chunkTokens: Int
        /// Tokens a chunk repeats from the end of the one before, so that no sentence is only cut in two.
        public var overlapTokens: Int

        /// Settings for `model`; the defaults are the configuration's (8 chunks of 256 tokens,
        /// overlapping by 32).
        public init(model: String, chunksPerDocument: Int = 8, chunkTokens: Int = 256, overlapTokens: Int = 32) {
            self.model = model
            self.chunksPerDocument = chunksPerDocument
            self.chunkTokens = chunkTokens
            self.overlapTokens = overlapTokens
        }

        /// What the vectors of `text` are made from, as a digest: the same text cut and embedded
        /// the same way gets the same vectors.
        ///
        /// The settings are part of it, separated by NUL bytes: a change of model or chunking makes
        /// every digest new, so nothing made the old way is reused.
        func digest(of text: String) -> [UInt8] {
            var hasher = SHA256()
            hasher.update(Array("\(model)\u{0}\(chunksPerDocument)\u{0}\(chunkTokens)\u{0}\(overlapTokens)\u{0}".utf8))
            hasher.update(Array(text.utf8))
            return hasher.finish()
        }
    }

    /// The vectors of a text's chunks (at most ``Settings/chunksPerDocument``), made in a worker,
    /// in the stored form (``Searchlight/StoredVectors``: the workers answer with it).
    ///
    /// Called from several threads at once; an `unavailable` failure means "try again later",
    /// any other that the text cannot be embedded.
    public typealias Embedder = @Sendable (_ text: String, _ settings: Settings) -> Result<StoredVectors, ExtractionFailure>

    /// What one run did.
    public struct Summary: Sendable, Equatable {
        /// Texts given vectors (embedded now or known from a copy).
        public var items = 0
        /// Texts embedded now, and their chunks.
        public var embedded = 0
        /// The chunks of the texts embedded now.
        public var chunks = 0
        /// Texts whose vectors were known (the same text elsewhere).
        public var fromCache = 0
        /// Texts that could not be embedded.
        public var failed = 0
        /// How long the run took, in seconds.
        public var seconds = 0.0

        /// A run that did nothing yet.
        public init() {}

        mutating func add(_ other: Summary) {
            items += other.items
            embedded += other.embedded
            chunks += other.chunks
            fromCache += other.fromCache
            failed += other.failed
        }
    }

    /// The index whose items get vectors: work is read from it and vectors stored in it.
    public let index: any IndexWriter
    /// How texts are cut, and the model whose vectors count as current.
    public let settings: Settings
    /// What makes the vectors: the workers, or a test's stand-in.
    let embed: Embedder
    /// Where failures (at debug level) and errors of the index (warnings) are reported.
    let logger: Logger
    /// Texts that failed in this process: not tried again until it restarts (or they change).
    ///
    /// Keyed by the item's key, not by its text: a failed item is skipped for the rest of the
    /// process even when its text changes meanwhile.
    private let failures = Mutex(Set<[UInt8]>())

    /// A pass over `index` that makes vectors with `embed` (``MeaningModel/embedder(pool:)``
    /// in the workers; tests pass their own).
    public init(index: any IndexWriter, settings: Settings, logger: Logger, embed: @escaping Embedder) {
        self.index = index
        self.settings = settings
        self.embed = embed
        self.logger = logger
    }

    /// How many texts are read from the index at a time.
    ///
    /// Small, so that a pause or a stop is noticed within one batch of texts.
    static let batchSize = 16

    /// Embeds what waits, `threads` texts at a time (each in a worker of its own), until nothing
    /// does (`untilDone`) or `isStopping` returns true; with `untilDone` false, looks again every
    /// `pollInterval` for texts that changed or arrived.
    ///
    /// At the end of each round (no text waits after the last key), vectors no item uses any more
    /// are forgotten (``Searchlight/IndexWriter/forgetUnusedMeaning()``). A failure to read the
    /// work ends a run `untilDone`, and is waited out otherwise.
    ///
    /// - Parameters:
    ///   - threads: How many texts are embedded at once, each in a worker of the pool.
    ///   - untilDone: Return once nothing waits (`scan`), rather than polling for more (`watch`).
    ///   - pollInterval: How long to wait between looks when nothing waits.
    ///   - isStopping: Asked between texts; `true` ends the run (what was not embedded still waits).
    ///   - mayRun: Asked between texts; while `false` the run waits (a pause, a back-off).
    /// - Returns: What the run did.
    public func run(threads: Int = 1, untilDone: Bool = true, pollInterval: Duration = .seconds(2),
                    isStopping: @escaping @Sendable () -> Bool = { false },
                    mayRun: @escaping @Sendable () -> Bool = { true }) -> Summary {
        let started = Date()
        var summary = Summary()
        var after: [UInt8] = []
        while !isStopping() {
            if !mayRun() {
                Thread.sleep(forTimeInterval: 0.2)
                continue
            }
            let work: [MeaningWork]
            do {
                work = try index.meaningWork(model: settings.model, after: after, limit: Self.batchSize)
            } catch {
                logger.warning("meaning: \(error)")
                if untilDone { break }
                Thread.sleep(forTimeInterval: Double(pollInterval.milliseconds) / 1000)
                continue
            }
            guard let last = work.last else {
                // A round is done: vectors no item uses any more go (a file a scan saw renamed
                // found its own again by now), and the next round sees texts that changed behind it.
                do {
                    try index.forgetUnusedMeaning()
                } catch {
                    logger.warning("meaning: \(error)")
                }
                if untilDone { break }
                after = []
                Thread.sleep(forTimeInterval: Double(pollInterval.milliseconds) / 1000)
                continue
            }
            after = last.key
            let total = Mutex(summary)
            DispatchQueue.concurrentPerform(iterations: max(1, min(threads, work.count))) { lane in
                var mine = Summary()
                for item in work.enumerated() where item.offset % max(1, threads) == lane && !isStopping() {
                    guard !failures.withLock({ $0.contains(item.element.key) }) else { continue }
                    process(item.element, into: &mine)
                }
                total.withLock { $0.add(mine) }
            }
            summary = total.withLock { $0 }
        }
        summary.seconds = Date().timeIntervalSince(started)
        return summary
    }

    /// Gives one text its vectors: from the cache, else from a worker.
    ///
    /// The text is stored only if the item still has it (``Searchlight/IndexWriter/storeMeaning(_:)``
    /// checks), so a text that changed while the model ran is not given old vectors.
    ///
    /// - Parameters:
    ///   - item: An item that waits, with its text.
    ///   - summary: This lane's counts, updated.
    func process(_ item: MeaningWork, into summary: inout Summary) {
        let digest = settings.digest(of: item.text)
        do {
            var vectors: StoredVectors?
            if try !index.hasMeaning(digest: digest) {
                switch embed(item.text, settings) {
                case .success(let chunks) where chunks.count > 0:
                    vectors = chunks
                    summary.embedded += 1
                    summary.chunks += chunks.count
                case .success:
                    // Nothing to embed (a text of white space): remembered as done in this process.
                    failures.withLock { _ = $0.insert(item.key) }
                    return
                case .failure(let failure) where failure.reason == .unavailable:
                    // The pool is shutting down, or no worker could start: tried again next round.
                    return
                case .failure(let failure):
                    logger.debug("cannot embed", metadata: ["item": "\(item.reference.identifier)", "reason": "\(failure.message)"])
                    summary.failed += 1
                    failures.withLock { _ = $0.insert(item.key) }
                    return
                }
            } else {
                summary.fromCache += 1
            }
            let stored = try index.storeMeaning([MeaningVectors(
                key: item.key, storedText: item.storedText, digest: digest, model: settings.model, vectors: vectors)])
            summary.items += stored
        } catch {
            logger.warning("meaning: \(error)")
            summary.failed += 1
            failures.withLock { _ = $0.insert(item.key) }
        }
    }
}
