import Foundation
import Logging
import Searchlight
import Synchronization

/// What a scan did to one item.
public enum ScanChange: String, Sendable {
    case added, updated, removed
    /// Only the item's change stamp was brought up to date: the file's change time moved and
    /// nothing the index holds of it changed (a permission, or a hard link to it made or
    /// removed, the kind of change no directory's inotify watch reports).
    case restamped
}

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
        /// ...or when its oldest change is this old...
        public var batchInterval: TimeInterval = 1
        /// ...or when its items hold this many bytes of text: the full-text index of a batch is
        /// written in its transaction, on the writing thread alone once the inspectors are done,
        /// so a scan of documents keeps its last batch, and that wait, small.
        public var batchTextBytes = 512 << 10
        /// What the walk skips.
        public var walk = DirectoryWalker.Options()
        /// Told what the scan saw of each regular file with more than one name that a walk
        /// meets, and of each path a refresh looks at (`nil`: nothing there), and whether that
        /// differs from the index's stamp: a watcher keeps the names of hard-linked files with it.
        public var linkObserver: (@Sendable (ItemIdentifier, FileStatus?, _ changed: Bool) -> Void)?

        public init(domain: String) { self.domain = domain }
    }

    /// Makes extra attributes (a thumbnail, text) for an inspected item, on an inspector thread.
    public typealias Enricher = @Sendable (inout SearchableItem, RootFolder) -> Void

    let index: any FileIndexWriter
    let root: RootFolder
    let options: Options
    let logger: Logger
    let enricher: Enricher?
    let stopRequested = Atomic<Bool>(false)
    /// Set while a run that failed to write winds down; cleared when it has, so that the
    /// scanner can run again.
    let runAbandoned = Atomic<Bool>(false)
    /// Inspector threads kept between runs, if started.
    let keptInspectors = Mutex<InspectorPool?>(nil)

    public init(index: any FileIndexWriter, root: RootFolder, options: Options, logger: Logger, enricher: Enricher? = nil) {
        self.index = index
        self.root = root
        var options = options
        // The index's own files are never items, wherever the index lives.
        options.walk.excluded.formUnion(IndexFiles.relativePaths(of: index.path, below: root))
        self.options = options
        self.logger = logger
        self.enricher = enricher
    }

    /// Asks a running reconcile to stop soon; what was inspected is still written.
    public func stop() { stopRequested.store(true, ordering: .relaxed) }

    var isStopping: Bool { stopRequested.load(ordering: .relaxed) || runAbandoned.load(ordering: .relaxed) }

    /// Starts inspector threads (with their libmagic handles) that every later run uses,
    /// until ``stopInspectors()``; without them each run starts its own. For a caller that
    /// runs many small reconciles and refreshes, such as a watcher.
    /// - Throws: ``FileSystemError`` with ``FileSystemError/Code/inspection`` when libmagic's database cannot be loaded.
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
    /// - Parameter onChange: Called on the calling thread with each item the reconcile adds,
    ///   updates or removes (a watcher's self-check reports them).
    public func reconcile(subtree: ItemIdentifier = ItemIdentifier(bytes: []),
                          onDirectory: (@Sendable (ItemIdentifier) -> Void)? = nil,
                          progress: ((ScanSummary) -> Void)? = nil,
                          onChange: ((ItemIdentifier, ScanChange) -> Void)? = nil) throws -> ScanSummary {
        let summary = try run(progress: progress, onChange: onChange) { submit, results in
            if subtree.bytes.isEmpty && self.index.isShared {
                for (folder, access) in self.root.accessAbove() { results.put(.folderAccess(.above(folder), access)) }
            }
            try self.walkAndMerge(subtree, view: nil, onDirectory: onDirectory, submit: submit, results: results)
        }
        if !summary.interrupted && subtree.bytes.isEmpty {
            try index.setOrigin(host: Self.hostName, root: root.path, domain: options.domain)
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
            try self.statAndCompare(paths, view: nil, known: [:], submit: submit, results: results)
        }
    }

    /// Reconciles the folders `subtrees` (as ``reconcile(subtree:onDirectory:progress:)``)
    /// and refreshes `files` (as ``refresh(_:progress:)``) in one run of the pipeline: the
    /// work of one window of file-system events, with no idle inspectors between its parts.
    /// No path of `files` may lie in one of `subtrees`, and no subtree in another.
    public func update(subtrees: [ItemIdentifier], files: [ItemIdentifier],
                       onDirectory: (@Sendable (ItemIdentifier) -> Void)? = nil) throws -> ScanSummary {
        try update(Window(), subtrees: subtrees, files: files, onDirectory: onDirectory)
    }

    /// What a window of file-system events writes besides what its crawls and refreshes find:
    /// all of it lands in one transaction, so that a crash leaves the window before or the
    /// window after, never half of one.
    struct Window {
        /// Structural changes (moves, deletes), written first; the crawls and refreshes compare
        /// the disk with the index as these changes leave it.
        var structure: [IndexBatch.Change] = []
        /// Domain states written with the window (the watch's bookkeeping), made once the
        /// summary of the window is known.
        var states: (@Sendable (ScanSummary) -> [String: DomainState])?
        /// Files whose status was taken already (`nil`: gone), so they are not taken twice.
        var statuses: [ItemIdentifier: FileStatus?] = [:]
        /// Files inspected even when their stamp is as indexed: the events said they were
        /// written, on a filesystem whose times cannot tell two writes apart (FAT keeps 2 s).
        var reinspected: Set<ItemIdentifier> = []
        /// Called with the batch just before it is written (a test's crash point).
        var beforeCommit: (@Sendable (IndexBatch) -> Void)?
    }

    /// ``update(subtrees:files:onDirectory:)`` for one window of events, written in one
    /// transaction with `window`'s structural changes and states.
    func update(_ window: Window, subtrees: [ItemIdentifier], files: [ItemIdentifier],
                onDirectory: (@Sendable (ItemIdentifier) -> Void)? = nil) throws -> ScanSummary {
        let view = PendingIndexView(index: index, domain: options.domain, changes: window.structure)
        return try run(progress: nil, window: window) { submit, results in
            for subtree in subtrees {
                if self.isStopping { return }
                try self.walkAndMerge(subtree, view: view, onDirectory: onDirectory, submit: submit, results: results)
            }
            try self.statAndCompare(files, view: view, known: window.statuses, reinspected: window.reinspected, submit: submit,
                                    results: results)
        }
    }

    /// Hands a job to the inspectors, waiting for room; `false` once they are closed.
    typealias Submit = @Sendable (Job) -> Bool

    /// Runs the pipeline: `produce` (on its own thread) feeds jobs and findings, the
    /// inspectors (kept ones, or threads started for this run) inspect, the calling thread
    /// writes.
    private func run(progress: ((ScanSummary) -> Void)?, window: Window? = nil,
                     onChange: ((ItemIdentifier, ScanChange) -> Void)? = nil,
                     produce: @escaping @Sendable (_ submit: Submit, BlockingQueue<Finding>) throws -> Void)
        throws -> ScanSummary
    {
        // The root's descriptor is open for the run, and only for it (a watch keeps none
        // between windows): it fails here, before anything is written, when the root's
        // drive is not mounted any more.
        try root.holdingOpen { try runHoldingRoot(progress: progress, window: window, onChange: onChange, produce: produce) }
    }

    private func runHoldingRoot(progress: ((ScanSummary) -> Void)?, window: Window?,
                                onChange: ((ItemIdentifier, ScanChange) -> Void)?,
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

        var summary = ScanSummary()
        var fatal: (any Error)?
        do {
            try write(results: results, summary: &summary, progress: progress, window: window, onChange: onChange,
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
        summary.seconds = Date().timeIntervalSince(started)
        summary.interrupted = isStopping || fatal != nil
        if let fatal { throw fatal }
        return summary
    }
}
