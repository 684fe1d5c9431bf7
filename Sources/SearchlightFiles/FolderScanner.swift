import Foundation
import Glibc
import Logging
import Searchlight
import Synchronization

/// Reconciles a root folder (or a folder below it) into the index: adds new files, re-inspects
/// changed ones, removes vanished ones, and skips unchanged ones after a `statx`.
///
/// Data flows one way, over three kinds of threads:
/// 1. the walker walks the tree in byte order and merges it with the index's identifiers
///    (also in byte order), so that vanished and unchanged files are found in constant memory;
/// 2. inspector threads, one per core, each with its own libmagic handles, identify new and
///    changed files (libmagic is the cost of a scan: everything else hides behind it); they
///    live for one run, or, after ``startInspectors()``, for every run until
///    ``stopInspectors()`` (a watcher's many small runs then share them);
/// 3. the calling thread writes the results in batches, by count and by time, so that a killed
///    scan loses at most its last batch and the next run carries on without duplicates.
public final class FolderScanner: Sendable {
    /// How a scan runs.
    public struct Options: Sendable {
        /// The domain of the root's items.
        public var domain: String
        /// Threads that run libmagic (and wait on thumbnail workers).
        public var inspectorCount = max(1, ProcessInfo.processInfo.activeProcessorCount)
        /// A batch is written when it holds this many changes...
        public var batchSize = 1000
        /// ...or when its oldest change is this old.
        public var batchInterval: TimeInterval = 1
        /// What the walk skips.
        public var walk = DirectoryWalker.Options()

        public init(domain: String) { self.domain = domain }
    }

    /// Makes extra attributes (a thumbnail, text) for an inspected item, on an inspector thread.
    public typealias Enricher = @Sendable (inout SearchableItem, RootFolder) -> Void

    let index: SearchableIndex
    let root: RootFolder
    let options: Options
    let logger: Logger
    let enricher: Enricher?
    private let stopRequested = Atomic<Bool>(false)
    /// Inspector threads kept between runs, if started.
    private let keptInspectors = Mutex<InspectorPool?>(nil)

    public init(index: SearchableIndex, root: RootFolder, options: Options, logger: Logger, enricher: Enricher? = nil) {
        self.index = index
        self.root = root
        self.options = options
        self.logger = logger
        self.enricher = enricher
    }

    /// Asks a running reconcile to stop soon; what was inspected is still written.
    public func stop() { stopRequested.store(true, ordering: .relaxed) }

    var isStopping: Bool { stopRequested.load(ordering: .relaxed) }

    /// Starts inspector threads (with their libmagic handles) that every later run uses,
    /// until ``stopInspectors()``; without them each run starts its own. For a caller that
    /// runs many small reconciles and refreshes, such as a watcher.
    /// - Throws: ``InspectionError`` when libmagic's database cannot be loaded.
    public func startInspectors() throws {
        let pool = try InspectorPool(count: options.inspectorCount)
        let replaced = keptInspectors.withLock { kept in
            defer { kept = pool }
            return kept
        }
        replaced?.close()
    }

    /// Ends the inspector threads started by ``startInspectors()`` once they have finished
    /// what they hold, and waits for them. Blocks: call it off the cooperative pool.
    public func stopInspectors() {
        let pool = keptInspectors.withLock { kept in
            defer { kept = nil }
            return kept
        }
        pool?.close()
    }

    /// Reconciles the folder `subtree` (the whole root when empty) and returns what changed.
    ///
    /// - Parameter progress: Called on the calling thread after each batch, and about every
    ///   tenth of a second, with the counts so far.
    /// - Throws: ``SearchlightError`` when the index cannot be written; read failures of files
    ///   and folders are counted, never thrown.
    public func reconcile(subtree: ItemIdentifier = ItemIdentifier(bytes: []),
                          onDirectory: (@Sendable (ItemIdentifier) -> Void)? = nil,
                          progress: ((ScanSummary) -> Void)? = nil) throws -> ScanSummary {
        let summary = try run(progress: progress) { submit, results in
            try self.walkAndMerge(subtree, onDirectory: onDirectory, submit: submit, results: results)
        }
        if !summary.interrupted && subtree.bytes.isEmpty {
            try index.markUpdated(domain: options.domain)
        }
        return summary
    }

    /// Brings the items of `paths` up to date, as after file-system events: a path that is a
    /// regular file is inspected unless its change stamp is as indexed; a path that is gone or
    /// is no longer a regular file loses its item (and the items below it).
    /// Directories among `paths` are not walked: reconcile them as subtrees.
    public func refresh(_ paths: [ItemIdentifier], progress: ((ScanSummary) -> Void)? = nil) throws -> ScanSummary {
        try run(progress: progress) { submit, results in
            try self.statAndCompare(paths, submit: submit, results: results)
        }
    }

    /// Reconciles the folders `subtrees` (as ``reconcile(subtree:onDirectory:progress:)``)
    /// and refreshes `files` (as ``refresh(_:progress:)``) in one run of the pipeline: the
    /// work of one window of file-system events, with no idle inspectors between its parts.
    /// No path of `files` may lie in one of `subtrees`, and no subtree in another.
    public func update(subtrees: [ItemIdentifier], files: [ItemIdentifier],
                       onDirectory: (@Sendable (ItemIdentifier) -> Void)? = nil) throws -> ScanSummary {
        try run(progress: nil) { submit, results in
            for subtree in subtrees {
                if self.isStopping { return }
                try self.walkAndMerge(subtree, onDirectory: onDirectory, submit: submit, results: results)
            }
            try self.statAndCompare(files, submit: submit, results: results)
        }
    }

    /// Hands a job to the inspectors, waiting for room; `false` once they are closed.
    typealias Submit = @Sendable (Job) -> Bool

    /// Runs the pipeline: `produce` (on its own thread) feeds jobs and findings, the
    /// inspectors (kept ones, or threads started for this run) inspect, the calling thread
    /// writes.
    private func run(progress: ((ScanSummary) -> Void)?,
                     produce: @escaping @Sendable (_ submit: Submit, BlockingQueue<Finding>) throws -> Void)
        throws -> ScanSummary
    {
        let started = Date()
        let kept = keptInspectors.withLock { $0 }
        let inspectors = try kept ?? InspectorPool(count: options.inspectorCount)
        defer { if kept == nil { inspectors.close() } }
        let results = BlockingQueue<Finding>(capacity: 4096)
        // The producer and each job in the inspectors' hands: the last to finish closes
        // `results`, which ends the writer.
        let unfinished = Mutex(1)
        let finish: @Sendable () -> Void = {
            if unfinished.withLock({ count in count -= 1; return count == 0 }) { results.close() }
        }
        let submit: Submit = { [self] job in
            unfinished.withLock { $0 += 1 }
            let queued = inspectors.submit { inspector in
                defer { finish() }
                self.inspect(job, with: inspector, results: results)
            }
            if !queued { finish() }
            return queued
        }
        let producerDone = DispatchSemaphore(value: 0)
        let producer = Thread {
            defer { finish(); producerDone.signal() }
            do {
                try produce(submit, results)
            } catch {
                results.put(.fatal(error))
            }
        }
        producer.name = "searchlight-walker"
        producer.stackSize = 4 << 20
        producer.start()

        var summary = ScanSummary()
        var fatal: (any Error)?
        do {
            try write(results: results, summary: &summary, progress: progress)
        } catch {
            fatal = error
        }
        if fatal != nil {
            // The producer and the inspectors see the stop and skip what is left; drain their
            // findings so that every one of them is done before we return.
            stop()
            while results.take().element != nil {}
        }
        producerDone.wait()
        summary.seconds = Date().timeIntervalSince(started)
        summary.interrupted = isStopping
        if let fatal { throw fatal }
        return summary
    }

    // MARK: - Steps

    /// A file for the inspectors.
    struct Job: Sendable {
        var path: ItemIdentifier
        /// Whether the index holds an item for it (so a vanished file must be deleted).
        var isIndexed: Bool
    }

    /// What the walker and the inspectors hand to the writer.
    enum Finding: Sendable {
        /// This many files were found as indexed.
        case unchanged(Int)
        case upsert(SearchableItem, isNew: Bool)
        case delete(ItemIdentifier)
        case deleteTree(ItemIdentifier)
        case unreadable(ItemIdentifier, String)
        case fatal(any Error)
    }

    private func walkAndMerge(_ subtree: ItemIdentifier, onDirectory: (@Sendable (ItemIdentifier) -> Void)?,
                              submit: Submit, results: BlockingQueue<Finding>) throws {
        var indexed = try IndexStampCursor(index: index, domain: options.domain, below: subtree)
        var unchanged = UnchangedTally(results: results)
        defer { unchanged.handOver() }
        let walker = DirectoryWalker(root: root, options: options.walk)
        struct Stopped: Error {}
        // Items before `path` in byte order that the walk did not meet are gone.
        func deleteIndexed(before path: ItemIdentifier) throws {
            while let head = try indexed.peek(), head.identifier < path {
                results.put(.delete(head.identifier))
                indexed.advance()
            }
        }
        do {
            try walker.walk(from: subtree) { event in
                if isStopping { throw Stopped() }
                switch event {
                case .directory(let path, _):
                    // Called before the folder is listed: a watch added here misses nothing.
                    onDirectory?(path)
                case .file(let path, let status):
                    try deleteIndexed(before: path)
                    if let head = try indexed.peek(), head.identifier == path {
                        indexed.advance()
                        if status.hasChangeStamp(head.changeStamp) {
                            unchanged.add()
                            return
                        }
                        if !submit(Job(path: path, isIndexed: true)) { throw Stopped() }
                    } else if !submit(Job(path: path, isIndexed: false)) {
                        throw Stopped()
                    }
                case .unreadable(let path, let error):
                    logger.warning("cannot read \(error.description); its items are kept as they are")
                    results.put(.unreadable(path, error.description))
                    try deleteIndexed(before: path)
                    // Keep what the index knows below an unreadable folder: we cannot see it.
                    while let head = try indexed.peek(), head.identifier == path || path.isAncestor(of: head.identifier) {
                        indexed.advance()
                    }
                }
            }
        } catch is Stopped {
            return
        }
        if isStopping { return }
        while let head = try indexed.peek() {
            results.put(.delete(head.identifier))
            indexed.advance()
        }
    }

    /// Counts unchanged files and hands them to the writer a few thousand at a time: a
    /// rescan's files are nearly all unchanged, and one queue hand-over (a lock and a wake-up)
    /// each cost more than the comparison.
    struct UnchangedTally {
        static let handOverCount = 4096
        let results: BlockingQueue<Finding>
        private var count = 0

        init(results: BlockingQueue<Finding>) { self.results = results }

        mutating func add() {
            count += 1
            if count >= Self.handOverCount { handOver() }
        }

        mutating func handOver() {
            guard count > 0 else { return }
            results.put(.unchanged(count))
            count = 0
        }
    }

    /// Paths whose change stamps are looked up in one read.
    static let lookupBatchSize = 512

    private func statAndCompare(_ paths: [ItemIdentifier], submit: Submit,
                                results: BlockingQueue<Finding>) throws {
        var start = paths.startIndex
        while start < paths.endIndex {
            let end = min(start + Self.lookupBatchSize, paths.endIndex)
            if try !statAndCompare(paths[start..<end], submit: submit, results: results) { return }
            start = end
        }
    }

    /// Compares a batch of paths with the index, looking their stamps up in one read.
    /// Returns `false` when the scan is stopping.
    private func statAndCompare(_ paths: ArraySlice<ItemIdentifier>, submit: Submit,
                                results: BlockingQueue<Finding>) throws -> Bool {
        var statuses: [(path: ItemIdentifier, status: FileStatus?)] = []
        for path in paths {
            if isStopping { return false }
            if options.walk.excluded.contains(path) { continue }
            do {
                let status = try DirectoryWalker.Level.withCString(path.bytes) { name throws(FileSystemError) in
                    try FileStatus.of(name, in: root.descriptor, path: path)
                }
                statuses.append((path, status))
            } catch where error.errno == ENOENT || error.errno == ENOTDIR {
                statuses.append((path, nil))
            } catch {
                // Cannot look (a folder on the way is unreadable): keep what the index knows.
                logger.warning("cannot read \(error.description); its item is kept as it is")
                results.put(.unreadable(path, error.description))
            }
        }
        let stamps = try index.changeStamps(of: statuses.map(\.path), domain: options.domain)
        var unchanged = UnchangedTally(results: results)
        defer { unchanged.handOver() }
        for (path, status) in statuses {
            let stored = stamps[path]
            guard let status, status.kind == .regular else {
                // Gone, or no longer a file: its item (and anything once below it) goes.
                if stored != nil || status == nil { results.put(.deleteTree(path)) }
                continue
            }
            if let stored, status.hasChangeStamp(stored) {
                unchanged.add()
            } else if !submit(Job(path: path, isIndexed: stored != nil)) {
                return false
            }
        }
        return true
    }

    /// Inspects one job's file with the inspector of the thread it runs on.
    private func inspect(_ job: Job, with inspector: FileInspector, results: BlockingQueue<Finding>) {
        if isStopping { return }
        switch inspector.inspect(job.path, in: root, domain: options.domain) {
        case .vanished:
            if job.isIndexed { results.put(.delete(job.path)) }
        case .item(var item, _):
            if item.failure == nil, let enricher { enricher(&item, root) }
            results.put(.upsert(item, isNew: !job.isIndexed))
        }
    }

    private func write(results: BlockingQueue<Finding>, summary: inout ScanSummary,
                       progress: ((ScanSummary) -> Void)?) throws {
        var batch = IndexBatch()
        var batchStarted = Date()
        var lastProgress = Date.distantPast
        func flush() throws {
            try index.apply(batch)
            batch = IndexBatch()
            batchStarted = Date()
        }
        while true {
            let (finding, timedOut) = results.take(until: Date().addingTimeInterval(0.1))
            if let finding {
                switch finding {
                case .unchanged(let count):
                    summary.unchanged += count
                case .upsert(let item, let isNew):
                    if isNew { summary.added += 1 } else { summary.updated += 1 }
                    if let failure = item.failure {
                        summary.failed += 1
                        logger.warning("cannot identify \(item.uniqueIdentifier.lossyString.debugDescription): \(failure)")
                    }
                    batch.upsert(item)
                case .delete(let path):
                    summary.removed += 1
                    batch.delete(path, domain: options.domain)
                case .deleteTree(let path):
                    batch.deleteTree(path, domain: options.domain)
                case .unreadable:
                    summary.failed += 1
                case .fatal(let error):
                    throw error
                }
            } else if !timedOut {
                break
            }
            let now = Date()
            if batch.count >= options.batchSize || (!batch.isEmpty && now.timeIntervalSince(batchStarted) >= options.batchInterval) {
                try flush()
            }
            if let progress, now.timeIntervalSince(lastProgress) >= 0.1 {
                lastProgress = now
                progress(summary)
            }
        }
        try flush()
        progress?(summary)
    }
}
