import Foundation
import Logging
import Searchlight
import Synchronization

/// What a scan did to one item.
public enum ScanChange: String, Sendable {
    /// A new item, a changed item re-inspected, or an item whose file is gone.
    case added, updated, removed
    /// Only the item's change stamp was brought up to date: the file's change time moved and
    /// nothing the index holds of it changed (a permission, or a hard link to it made or
    /// removed, the kind of change no directory's inotify watch reports).
    case restamped
}

/// Steps ② to ④ of the write path for a walk or a change set: compares the disk with the
/// index, runs what changed through the ``IndexingPipeline`` (③) and writes the items in
/// batches (④); adds new files, re-inspects changed ones, removes vanished ones, and skips
/// unchanged ones after a `statx`.
///
/// Data flows one way, over three kinds of threads:
/// 1. the walker walks the tree in byte order and merges it with the index's identifiers
///    (also in byte order), so that vanished and unchanged files are found in constant memory;
/// 2. the pipeline's inspector threads, one per core, each with its own libmagic handles,
///    identify new and changed files and extract them (libmagic and the workers are the cost
///    of a scan: everything else hides behind it); they live for one run, or, after
///    ``startInspectors()``, for every run until ``stopInspectors()`` (a watcher's many small
///    runs then share them);
/// 3. the calling thread writes the results in batches, by count and by time, so that a killed
///    scan loses at most its last batch and the next run carries on without duplicates.
///
/// ## Overview
///
/// A scanner belongs to one ``RootFolder`` and one domain of one ``FileIndexWriter`` (the SQLite
/// index, or the PostgreSQL one). `searchlight scan` makes one per root and calls
/// ``reconcile(subtree:onDirectory:progress:)`` once; a ``FolderWatcher`` keeps one for
/// its whole life and hands it each window of events as a ``ChangeSet``. Every run
/// is synchronous: it blocks the calling thread, which is the one that writes, until the
/// walk, the inspection and the last batch are done. Call it from a thread of your own, not
/// from the cooperative pool. A run never fails on a file it cannot read (the file is
/// counted in ``ScanSummary/failed`` and logged); it throws only when the index cannot be
/// written, or when the root cannot be opened.
///
/// The class is `Sendable` so that ``stop()`` can be called from another thread (a signal
/// handler's task, a watcher's shutdown); its runs are made one after another by one owner.
/// ``stop()`` is for good: every later run of the same scanner stops at once, marked
/// ``ScanSummary/interrupted``.
///
/// ```swift
/// let root = try RootFolder(path: "/home/ada/Documents")
/// let index = try SearchableIndex(path: indexPath)
/// let scanner = FolderScanner(index: index, root: root, options: .init(domain: root.path), logger: logger)
/// let summary = try scanner.reconcile(progress: { print($0.counts) })
/// print(summary.added, summary.updated, summary.removed)
/// ```
///
/// The cost of a run is the inspection of the files that are new or changed (libmagic, and the
/// extraction workers when ``Options/pipeline`` extracts); an unchanged file costs one `statx`
/// and a comparison with its stored change stamp.
///
/// ## Topics
///
/// ### Making a scanner
///
/// - ``init(index:root:options:logger:)``
/// - ``Options``
/// - ``pipeline``
///
/// ### Running
///
/// - ``reconcile(subtree:onDirectory:progress:)``
/// - ``refresh(_:progress:)``
/// - ``update(subtrees:files:)``
/// - ``stop()``
///
/// ### Keeping the inspector threads
///
/// - ``startInspectors()``
/// - ``stopInspectors()``
///
/// A run returns what it did: its counts (``ScanSummary``), and to a watcher, which asks for
/// them, the changes it made and what it saw of hard-linked files (a ``ScanReport``). Nothing
/// in a run calls back into its caller but the progress of a one-shot scan
/// (``reconcile(subtree:onDirectory:progress:)``'s `onDirectory` and `progress`).
public final class FolderScanner: Sendable {
    /// How a scan runs.
    ///
    /// ```swift
    /// var options = FolderScanner.Options(domain: "documents")
    /// options.inspectorCount = 2               // leave the other cores alone
    /// options.walk.excluded.insert("build")    // a folder relative to the root
    /// ```
    public struct Options: Sendable {
        /// The domain of the root's items.
        public var domain: String
        /// Threads that run libmagic (and wait on thumbnail workers).
        public var inspectorCount = max(1, ProcessInfo.processInfo.activeProcessorCount)
        /// A batch is written when it holds this many changes...
        public var batchSize = 1000
        /// ...or when its oldest change is this old...
        public var batchInterval: TimeInterval = 1
        /// ...or when its items hold this many bytes of text: the full-text index of a batch is
        /// written in its transaction, on the writing thread alone once the inspectors are done,
        /// so a scan of documents keeps its last batch, and that wait, small.
        public var batchTextBytes = 512 << 10
        /// What the walk skips.
        public var walk = DirectoryWalker.Options()
        /// What step ③ does with each new or changed file: which extractions run, by which
        /// workers (none by default: names, types and dates only).
        public var pipeline = IndexingPipeline.Configuration()

        /// Options for a scan of the items of `domain`, whose step ③ runs as `pipeline` says.
        public init(domain: String, pipeline: IndexingPipeline.Configuration = .init()) {
            self.domain = domain
            self.pipeline = pipeline
        }
    }

    /// Where the items and the domain's state are written.
    let index: any FileIndexWriter
    /// The folder whose files are the domain's items.
    let root: RootFolder
    /// The options as given, with the index's own files added to the walk's exclusions.
    let options: Options
    /// Where failures to read files and folders are reported, at debug and warning levels.
    let logger: Logger
    /// Step ③: inspection and extraction, with its inspector threads.
    public let pipeline: IndexingPipeline
    /// Set by ``stop()``, never cleared.
    let stopRequested = Atomic<Bool>(false)
    /// Set while a run that failed to write winds down; cleared when it has, so that the
    /// scanner can run again.
    let runAbandoned = Atomic<Bool>(false)
    /// Makes a scanner of `root`'s items in `index`; nothing happens until a reconcile.
    ///
    /// The index's own files (its `-wal` and `-shm` included) are added to the walk's
    /// exclusions when they lie below `root`, so that indexing a home folder that holds the
    /// index does not index the index.
    ///
    /// - Parameters:
    ///   - index: The index to write: ``Searchlight/SearchableIndex``, or the PostgreSQL store.
    ///   - root: The folder to index, opened.
    ///   - options: The domain, the batches, the walk's exclusions, the extraction pipeline.
    ///   - logger: Where unreadable files and folders are reported.
    public init(index: any FileIndexWriter, root: RootFolder, options: Options, logger: Logger) {
        self.index = index
        self.root = root
        var options = options
        // The index's own files are never items, wherever the index lives.
        options.walk.excluded.formUnion(IndexFiles.relativePaths(of: index.path, below: root))
        self.options = options
        self.logger = logger
        pipeline = IndexingPipeline(configuration: options.pipeline, inspectorCount: options.inspectorCount, logger: logger)
    }

    /// Asks a running reconcile to stop soon; what was inspected is still written.
    ///
    /// Safe from any thread. The walk stops at its next entry and the inspectors skip the jobs
    /// they have not begun; the run returns a summary marked ``ScanSummary/interrupted``, and
    /// a full reconcile that was interrupted does not mark the domain updated. The request is
    /// not cleared: later runs of this scanner return at once.
    public func stop() { stopRequested.store(true, ordering: .relaxed) }

    /// Whether the current run should wind down: stopped, or abandoned after a failed write.
    var isStopping: Bool { stopRequested.load(ordering: .relaxed) || runAbandoned.load(ordering: .relaxed) }

    /// Starts the pipeline's inspector threads for every later run, until ``stopInspectors()``
    /// (``IndexingPipeline/startInspectors()``).
    ///
    /// - Throws: ``FileSystemError`` with ``FileSystemError/Code/inspection`` when libmagic's database cannot be loaded.
    public func startInspectors() throws { try pipeline.startInspectors() }

    /// Ends the inspector threads of ``startInspectors()`` (``IndexingPipeline/stopInspectors()``).
    /// Blocks: call it off the cooperative pool.
    public func stopInspectors() { pipeline.stopInspectors() }

    /// Reconciles the folder `subtree` (the whole root when empty) and returns what changed.
    ///
    /// The walk and the index's identifiers are merged in byte order: a file without an item
    /// is added, one whose change stamp differs is inspected again, an item without a file
    /// (below `subtree`) is removed. After a complete reconcile of the whole root, the
    /// domain's origin (this machine and the root's path) is recorded and the domain marked
    /// updated (``Searchlight/IndexWriter/markUpdated(domain:)``).
    ///
    /// ```swift
    /// let summary = try scanner.reconcile(subtree: "Projects/2024")
    /// print(summary.added, summary.updated, summary.removed)
    /// ```
    ///
    /// - Parameter subtree: A folder relative to the root; empty (the default) for the root.
    /// - Parameter onDirectory: Called on the walker's thread with each folder before it is
    ///   listed, for progress (the folder a progress bar names); a watcher watches its folders
    ///   before it reconciles them, and passes none.
    /// - Parameter progress: Called on the calling thread after each batch, and about every
    ///   tenth of a second, with the counts so far.
    /// - Throws: ``SearchlightError`` when the index cannot be written; read failures of files
    ///   and folders are counted, never thrown.
    public func reconcile(subtree: ItemIdentifier = ItemIdentifier(bytes: []),
                          onDirectory: (@Sendable (ItemIdentifier) -> Void)? = nil,
                          progress: ((ScanSummary) -> Void)? = nil) throws -> ScanSummary {
        try reconcile(subtree: subtree, onDirectory: onDirectory, progress: progress, records: []).summary
    }

    /// ``reconcile(subtree:onDirectory:progress:)``, recording `records` besides the counts
    /// (a watcher's: the names of hard-linked files, and a self-check's repairs).
    func reconcile(subtree: ItemIdentifier = ItemIdentifier(bytes: []),
                   onDirectory: (@Sendable (ItemIdentifier) -> Void)? = nil,
                   progress: ((ScanSummary) -> Void)? = nil, records: ScanReport.Records) throws -> ScanReport {
        let recordsLinks = records.contains(.hardLinks)
        let report = try run(records: records, progress: progress) { submit, results in
            if subtree.bytes.isEmpty && self.index.isShared {
                for (folder, access) in self.root.accessAbove() { results.put(.folderAccess(.above(folder), access)) }
            }
            try self.walkAndMerge(subtree, view: nil, onDirectory: onDirectory, recordsLinks: recordsLinks,
                                  submit: submit, results: results)
        }
        if !report.summary.interrupted && subtree.bytes.isEmpty {
            try index.setOrigin(host: Self.hostName, root: root.path, domain: options.domain)
            try index.markUpdated(domain: options.domain)
        }
        return report
    }

    /// Brings the items of `paths` up to date, as after file-system events: a path that is a
    /// regular file is inspected unless its change stamp is as indexed; a path that is gone or
    /// is no longer a regular file loses its item (and the items below it).
    /// Directories among `paths` are not walked: reconcile them as subtrees.
    ///
    /// ```swift
    /// try scanner.refresh(["notes/today.md", "notes/old.md"])
    /// ```
    ///
    /// - Parameters:
    ///   - paths: Paths relative to the root.
    ///   - progress: Called on the calling thread with the counts so far.
    /// - Returns: What changed; ``ScanSummary/unchanged`` counts what was as indexed.
    /// - Throws: ``SearchlightError`` when the index cannot be written; read failures of files
    ///   are counted, never thrown.
    public func refresh(_ paths: [ItemIdentifier], progress: ((ScanSummary) -> Void)? = nil) throws -> ScanSummary {
        try refresh(paths, progress: progress, records: []).summary
    }

    /// ``refresh(_:progress:)``, recording `records` besides the counts.
    func refresh(_ paths: [ItemIdentifier], progress: ((ScanSummary) -> Void)? = nil,
                 records: ScanReport.Records) throws -> ScanReport {
        let recordsLinks = records.contains(.hardLinks)
        return try run(records: records, progress: progress) { submit, results in
            try self.statAndCompare(paths, view: nil, known: [:], recordsLinks: recordsLinks, submit: submit, results: results)
        }
    }

    /// Reconciles the folders `subtrees` (as ``reconcile(subtree:onDirectory:progress:)``)
    /// and refreshes `files` (as ``refresh(_:progress:)``) in one run of the pipeline: the
    /// work of one window of file-system events, with no idle inspectors between its parts.
    /// No path of `files` may lie in one of `subtrees`, and no subtree in another.
    ///
    /// Unlike a reconcile, which writes a batch by count, by time or by text, the run writes
    /// everything it finds in one transaction at its end: a crash leaves the index as before
    /// the call or as after it. Memory therefore grows with what the call changes; a whole
    /// tree is better reconciled.
    ///
    /// - Parameters:
    ///   - subtrees: Folders relative to the root, each walked and merged with its items.
    ///   - files: Paths relative to the root, each compared with its item.
    /// - Returns: What changed, over both parts.
    /// - Throws: ``SearchlightError`` when the index cannot be written; read failures of files
    ///   and folders are counted, never thrown.
    public func update(subtrees: [ItemIdentifier], files: [ItemIdentifier]) throws -> ScanSummary {
        try update(ChangeSet(subtrees: subtrees, files: files), records: []).summary
    }

    /// Takes a window's change set (step ②) through inspection and extraction (③, the
    /// ``IndexingPipeline``) into one transaction (④) with its structural changes and states,
    /// and says what happened, with `records` besides the counts: a crash leaves the window
    /// before or the window after, never half of one.
    func update(_ changes: ChangeSet, records: ScanReport.Records) throws -> ScanReport {
        let view = PendingIndexView(index: index, domain: options.domain, changes: changes.structure)
        let recordsLinks = records.contains(.hardLinks)
        return try run(records: records, progress: nil, changes: changes) { submit, results in
            for subtree in changes.subtrees {
                if self.isStopping { return }
                try self.walkAndMerge(subtree, view: view, onDirectory: nil, recordsLinks: recordsLinks,
                                      submit: submit, results: results)
            }
            try self.statAndCompare(changes.files, view: view, known: changes.statuses, reinspected: changes.reinspected,
                                    recordsLinks: recordsLinks, submit: submit, results: results)
        }
    }

    /// Hands a job to the inspectors, waiting for room; `false` once they are closed.
    typealias Submit = @Sendable (Job) -> Bool

    /// Runs the pipeline: `produce` (on its own thread) feeds jobs and findings, the
    /// inspectors (kept ones, or threads started for this run) inspect, the calling thread
    /// writes, and reports what it wrote and was asked to record.
    private func run(records: ScanReport.Records, progress: ((ScanSummary) -> Void)?, changes: ChangeSet? = nil,
                     produce: @escaping @Sendable (_ submit: Submit, BlockingQueue<Finding>) throws -> Void)
        throws -> ScanReport
    {
        // The root's descriptor is open for the run, and only for it (a watch keeps none
        // between windows): it fails here, before anything is written, when the root's
        // drive is not mounted any more.
        try root.holdingOpen {
            try pipeline.withInspectors { inspectors in
                try runHoldingRoot(inspectors, records: records, progress: progress, changes: changes, produce: produce)
            }
        }
    }

    /// One run, with the root held open and the inspectors ready: `produce` runs on a thread of
    /// its own (the walker, 4 MiB of stack), submitting jobs to the inspectors and findings to
    /// the queue, while the calling thread writes (``write(results:into:records:progress:changes:draining:)``).
    ///
    /// A count of unfinished work (the producer, plus each job in the inspectors' hands) closes
    /// the queue of findings when it reaches zero, which ends the writer. The queue holds at most
    /// 4 096 findings: a writer that falls behind makes the producer and the inspectors wait.
    ///
    /// - Parameters:
    ///   - inspectors: The pool that inspects the jobs.
    ///   - records: What the report should record beyond the counts.
    ///   - progress: Called with the counts as they grow.
    ///   - changes: A watch window's structural changes and states, written with its findings.
    ///   - produce: The walk or the comparison that makes jobs and findings.
    /// - Returns: What the run did.
    /// - Throws: The first fatal finding or the index's error, once every worker of the run is done.
    private func runHoldingRoot(_ inspectors: InspectorPool, records: ScanReport.Records,
                                progress: ((ScanSummary) -> Void)?, changes: ChangeSet?,
                                produce: @escaping @Sendable (_ submit: Submit, BlockingQueue<Finding>) throws -> Void)
        throws -> ScanReport
    {
        let started = Date()
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
        // Once the walk is done and no job waits for an inspector, the jobs left are the ones
        // being inspected: the writer then writes what it holds while they finish.
        let walked = Atomic<Bool>(false)
        let draining: @Sendable () -> Bool = { [inspectorCount = options.inspectorCount] in
            walked.load(ordering: .acquiring) && unfinished.withLock { $0 } <= inspectorCount
        }
        let producerDone = DispatchSemaphore(value: 0)
        let producer = Thread {
            defer { walked.store(true, ordering: .releasing); finish(); producerDone.signal() }
            do {
                try produce(submit, results)
            } catch {
                results.put(.fatal(error))
            }
        }
        producer.name = "searchlight-walker"
        producer.stackSize = 4 << 20
        producer.start()

        var report = ScanReport()
        var fatal: (any Error)?
        do {
            try write(results: results, into: &report, records: records, progress: progress, changes: changes,
                      draining: draining)
        } catch {
            fatal = error
        }
        if fatal != nil {
            // The producer and the inspectors see the stop and skip what is left; drain their
            // findings so that every one of them is done before we return.
            runAbandoned.store(true, ordering: .relaxed)
            while results.take().element != nil {}
        }
        producerDone.wait()
        runAbandoned.store(false, ordering: .relaxed)
        report.summary.seconds = Date().timeIntervalSince(started)
        report.summary.interrupted = isStopping || fatal != nil
        if let fatal { throw fatal }
        return report
    }
}
