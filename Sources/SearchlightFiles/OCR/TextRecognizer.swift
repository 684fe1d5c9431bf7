import ExtractionProtocol
import Foundation
import Logging
import Searchlight
import Synchronization

/// The second pass of Docs/Contract.md#text-in-pictures: reads the text in the pictures the first pass queued (OCR,
/// through the extraction workers), and adds it to their items' `textContent` — for a PDF,
/// its whole text again, each scanned page's reading at the page's place.
///
/// An entry is read only if its item is still in the index with the change stamp it was
/// queued with (a file changed since is queued again by the first pass); its bytes are hashed
/// first, and text already recognised in the same bytes (a copy, a move) is taken from the
/// cache without reading the picture again. The pass stops between pictures when
/// `isStopping` says so and waits while `mayRun` says no (`watch`'s back-off and pause);
/// what it has not read stays queued for the next run, in this process or after a restart.
///
/// ```swift
/// let store = try OCRStore(path: ocrPath, indexPath: index.path)
/// let recognizer = TextRecognizer(store: store, index: index, pool: pool, logger: logger)
/// let summary = recognizer.run(threads: 1)  // each queued picture tried once
/// print(summary.processed, summary.withText, summary.failed)
/// ```
///
/// Threads: ``run(threads:untilEmpty:pollInterval:isStopping:mayRun:)`` starts threads of its
/// own and blocks its caller until they end; each picture costs a worker of the pool for up to
/// its deadline, so the pass runs beside the first pass's extraction only as far as the pool
/// has workers to spare. Each item is written in a batch of its own.
public final class TextRecognizer: Sendable {
    /// The queue the pass reads entries from and takes them off.
    public let store: OCRStore
    /// The index whose items receive the text read.
    let index: any IndexWriter
    /// The workers that read the pictures (``ExtractionProtocol/ExtractionKind/ocr`` requests).
    let pool: ExtractorPool
    /// Where failures (at debug level) and errors of the store or the index are reported.
    let logger: Logger

    /// What one run did.
    public struct Summary: Sendable, Equatable {
        /// Pictures taken off the queue.
        public var processed = 0
        /// Pictures in which text was found (read now or from the cache).
        public var withText = 0
        /// Pictures whose text came from the cache (same bytes read before).
        public var fromCache = 0
        /// Pictures that failed (a broken or hostile file, a timeout).
        public var failed = 0
        /// Entries dropped because their item changed or left the index.
        public var stale = 0
        /// How long the run took, in seconds.
        public var seconds = 0.0

        /// A run that did nothing yet.
        public init() {}

        /// Adds another thread's counts; ``seconds`` is the run's, set once at its end.
        mutating func add(_ other: Summary) {
            processed += other.processed
            withText += other.withText
            fromCache += other.fromCache
            failed += other.failed
            stale += other.stale
        }
    }

    /// A pass that reads `store`'s pictures in `pool`'s workers and writes their text to `index`.
    public init(store: OCRStore, index: any IndexWriter, pool: ExtractorPool, logger: Logger) {
        self.store = store
        self.index = index
        self.pool = pool
        self.logger = logger
    }

    /// Entries older than this whose item is not (yet) in the index are dropped; younger
    /// ones wait, as the first pass may not have committed their item yet.
    static let uncommittedGrace: TimeInterval = 600

    /// Reads queued pictures on `threads` threads until each entry was tried once
    /// (`untilEmpty`) or `isStopping` returns true; with `untilEmpty` false, goes round the
    /// queue again and waits for new entries (polling every `pollInterval`) until stopped.
    ///
    /// Two threads never take the same entry: each takes the next entry no thread has tried in
    /// this round. Waiting (`mayRun` false) polls every 0.2 seconds.
    ///
    /// - Parameters:
    ///   - threads: How many pictures are read at once, each in a worker of the pool.
    ///   - untilEmpty: Return once every entry was tried (`scan`), rather than waiting for more (`watch`).
    ///   - pollInterval: How long to wait between looks at an empty queue.
    ///   - isStopping: Asked between pictures; `true` ends the run (what was not read stays queued).
    ///   - mayRun: Asked between pictures; while `false` the run waits (a pause, a back-off).
    /// - Returns: What the run did.
    public func run(threads: Int, untilEmpty: Bool = true, pollInterval: Duration = .seconds(2),
                    isStopping: @escaping @Sendable () -> Bool = { false },
                    mayRun: @escaping @Sendable () -> Bool = { true }) -> Summary {
        let started = Date()
        let claimed = Mutex(Set<OCRStore.Key>())
        let total = Mutex(Summary())
        let group = DispatchGroup()
        for _ in 0..<max(1, threads) {
            group.enter()
            Thread.detachNewThread { [self] in
                defer { group.leave() }
                var summary = Summary()
                while !isStopping() {
                    if !mayRun() {
                        Thread.sleep(forTimeInterval: 0.2)
                        continue
                    }
                    // Each entry is tried once per round: one that must wait (its item not
                    // committed yet, no worker) stays queued for the next round, not retried at once.
                    let entry: OCRStore.Entry? = claimed.withLock { taken in
                        guard let entry = try? store.next(limit: 1, excluding: taken).first else {
                            if !untilEmpty { taken.removeAll() }
                            return nil
                        }
                        taken.insert(OCRStore.Key(domain: entry.domain, identifier: entry.identifier))
                        return entry
                    }
                    guard let entry else {
                        if untilEmpty { break }
                        Thread.sleep(forTimeInterval: Double(pollInterval.milliseconds) / 1000)
                        continue
                    }
                    process(entry, into: &summary)
                }
                total.withLock { $0.add(summary) }
            }
        }
        group.wait()
        var summary = total.withLock { $0 }
        summary.seconds = Date().timeIntervalSince(started)
        return summary
    }

    /// Reads one picture and writes its text into its item.
    ///
    /// The item is read before the picture and written after it: a change made to the item by
    /// another writer while the picture is read is overwritten by this write, old change stamp
    /// included (the next reconcile finds the stamp stale and reads the file again). A failure caused by the file's bytes
    /// is remembered with their digest, so the same bytes are not read again; a transient one
    /// leaves the entry queued.
    ///
    /// - Parameters:
    ///   - entry: A queued picture.
    ///   - summary: This thread's counts, updated.
    func process(_ entry: OCRStore.Entry, into summary: inout Summary) {
        do {
            guard let indexed = try index.item(entry.identifier, domain: entry.domain) else {
                if Date().timeIntervalSince(entry.queued) > Self.uncommittedGrace {
                    summary.stale += 1
                    try store.remove(entry)
                }
                return
            }
            guard indexed.item.changeStamp == entry.changeStamp else {
                // Changed since: its new version was queued again (or was not a picture any more).
                summary.stale += 1
                try? store.remove(entry)
                return
            }
            summary.processed += 1
            let path = Array(entry.root.utf8) + (entry.root.hasSuffix("/") ? [] : [UInt8(ascii: "/")]) + entry.identifier.bytes
            guard let digest = ContentDigest.ofFile(atPath: path) else {
                summary.failed += 1
                try store.remove(entry)
                return
            }
            var recognized = try store.recognized(digest: digest)
            if recognized != nil {
                summary.fromCache += 1
            } else {
                switch pool.recognizedText(ofFileAtPathBytes: path, contentType: entry.contentType) {
                case .success(let text):
                    recognized = text
                    try store.record(text, digest: digest)
                case .failure(let failure) where failure.isTransient:
                    // The pool is shutting down, or a worker could not start: try again later.
                    summary.processed -= 1
                    return
                case .failure(let failure):
                    logger.debug("cannot recognise text", metadata: [
                        "path": "\(String(decoding: path, as: UTF8.self))", "reason": "\(failure.message)",
                    ])
                    summary.failed += 1
                    if failure.isCausedByFile {
                        // Recorded as holding no text: the same bytes are not tried again.
                        try store.record(RecognizedText(text: "", isTruncated: false), digest: digest)
                    }
                    try store.remove(entry)
                    return
                }
            }
            if let recognized, !recognized.text.isEmpty {
                summary.withText += 1
                var item = indexed.item
                if recognized.isWholeText {
                    // A PDF's whole text, each scanned page's reading at its place.
                    item.attributeSet.textContent = recognized.text
                } else {
                    // A picture's own text (an EXIF description) comes first.
                    let own = item.attributeSet.textContent ?? ""
                    item.attributeSet.textContent = own.isEmpty ? recognized.text : own + "\n\n" + recognized.text
                }
                var batch = IndexBatch()
                batch.upsert(item)
                try index.apply(batch)
                try store.markRecognized(domain: entry.domain, identifier: entry.identifier, digest: digest,
                                         pages: recognized.pages)
            }
            try store.remove(entry)
        } catch {
            logger.warning("OCR: \(error)")
            summary.failed += 1
            try? store.remove(entry)
        }
    }
}

extension ExtractionFailure {
    /// A failure the file's bytes cause (broken, hostile, too slow to read), as opposed to the
    /// machinery's (a language model missing): the same bytes would fail again.
    var isCausedByFile: Bool {
        switch reason {
        case .notAnImage, .tooLarge, .decodeFailed, .encrypted, .timedOut, .crashed: true
        default: false
        }
    }
}
