import Logging
import Searchlight
import Synchronization

/// Step ③ of the write path, inspection and extraction: each new or changed file of a change
/// set becomes its item, by libmagic on inspector threads, then by the extraction workers
/// (thumbnail, content, OCR queue), or later while the machine is busy.
///
/// Configured by value (``Configuration``), owned by the ``FolderScanner`` that hands it the
/// files its walk or its change set names, and whose writer (step ④) takes the items it makes.
///
/// ```swift
/// var options = FolderScanner.Options(domain: "notes")
/// options.pipeline = IndexingPipeline.Configuration(extraction: extraction)
/// let scanner = FolderScanner(index: index, root: root, options: options, logger: logger)
/// ```
///
/// ## Overview
///
/// For each file the scanner hands it, on one of its inspector threads, the pipeline:
/// 1. identifies the file with that thread's own libmagic handles (``FileInspector``): its
///    type, its description, its name's keywords, its dates and user attributes. A file
///    libmagic cannot identify keeps an item with its failure, and a warning is logged;
/// 2. hands the item to the extraction workers (``ItemExtraction``), when the configuration
///    extracts: a thumbnail, the document's text and metadata, decoded in worker processes
///    that the pipeline waits for on the inspector's thread.
///
/// While ``Configuration/backoff`` backs off (the machine is busy, on battery), step 2 is
/// skipped and the item is stored without a change stamp: the next reconcile or window sees
/// it as changed and extracts it then. The pipeline notes that items wait (a watcher catches
/// up on them once the backoff ends), as it does for items the workers could not extract.
///
/// The inspector threads are the pipeline's cost: libmagic's database loads once per thread.
/// A one-off scan starts them for its run; a watcher keeps them for its whole life with
/// ``startInspectors()``. The class is `Sendable`; its kept threads sit behind a lock, and
/// each thread uses only its own libmagic handles.
///
/// ## Topics
///
/// ### Configuring
///
/// - ``Configuration``
/// - ``init(configuration:inspectorCount:logger:)``
/// - ``configuration``
///
/// ### Keeping the inspector threads
///
/// - ``startInspectors()``
/// - ``stopInspectors()``
public final class IndexingPipeline: Sendable {
    /// What the pipeline does with each new or changed file, as a value.
    public struct Configuration: Sendable {
        /// The extraction workers and which extractions they run (thumbnails, content, the
        /// OCR queue: ``ItemExtraction/Options``); `nil`: names, types and dates only.
        public var extraction: ItemExtraction?
        /// While this backs off (pressure, battery; `searchlight pause` does not), extraction
        /// is left for later (see ``FolderWatcher``); `nil`: never. A watcher sets its own.
        public var backoff: WatchControl?
        /// A test's extraction in place of ``extraction`` (it counts, or waits).
        var testExtraction: (@Sendable (inout SearchableItem, RootFolder) -> Void)?

        /// A configuration that extracts with `extraction` (`nil`: inspection alone).
        public init(extraction: ItemExtraction? = nil, backoff: WatchControl? = nil) {
            self.extraction = extraction
            self.backoff = backoff
        }

        /// Whether any extraction runs after the inspection.
        var extracts: Bool { extraction != nil || testExtraction != nil }
    }

    /// How the pipeline runs.
    public let configuration: Configuration
    /// Threads that run libmagic (and wait on the extraction workers).
    let inspectorCount: Int
    /// Inspector threads kept between runs, if started.
    private let keptInspectors = Mutex<InspectorPool?>(nil)
    /// Extraction left for later while backing off, or because the workers are out.
    let deferral = ExtractionDeferral()
    /// Where files that cannot be identified are reported.
    private let logger: Logger

    /// Makes a pipeline of `inspectorCount` inspector threads (started per run, or kept by
    /// ``startInspectors()``) that extracts as `configuration` says.
    ///
    /// Nothing starts here. A ``FolderScanner`` makes its own pipeline from its options
    /// (``FolderScanner/Options/pipeline``, ``FolderScanner/Options/inspectorCount``).
    ///
    /// - Parameters:
    ///   - configuration: Which extractions run, and when they wait.
    ///   - inspectorCount: How many inspector threads a run uses.
    ///   - logger: Where unidentified files are reported.
    public init(configuration: Configuration, inspectorCount: Int, logger: Logger) {
        self.configuration = configuration
        self.inspectorCount = inspectorCount
        self.logger = logger
    }

    /// Starts inspector threads (with their libmagic handles) that every later run uses,
    /// until ``stopInspectors()``; without them each run starts its own. For a caller that
    /// runs many small reconciles and refreshes, such as a watcher.
    ///
    /// Calling it again replaces the kept threads: the former ones finish what they hold and
    /// end. Blocks while each thread loads libmagic's database.
    ///
    /// - Throws: ``FileSystemError`` with ``FileSystemError/Code/inspection`` when libmagic's database cannot be loaded.
    public func startInspectors() throws {
        let pool = try InspectorPool(count: inspectorCount)
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

    /// Runs `body` with inspector threads: the kept ones, or threads started for it alone.
    ///
    /// Threads started here are closed when `body` returns or throws, after finishing the jobs
    /// they hold; kept threads stay.
    ///
    /// - Parameter body: One run, given the pool its jobs go to.
    /// - Returns: What `body` returns.
    /// - Throws: ``FileSystemError`` when new threads cannot load libmagic's database, else
    ///   what `body` throws.
    func withInspectors<T>(_ body: (InspectorPool) throws -> T) throws -> T {
        let kept = keptInspectors.withLock { $0 }
        let inspectors = try kept ?? InspectorPool(count: inspectorCount)
        defer { if kept == nil { inspectors.close() } }
        return try body(inspectors)
    }

    /// Inspects the file at `path` with `inspector` (the inspector thread's own) and extracts
    /// what its item holds, unless extraction is deferred.
    ///
    /// Runs on the inspector thread, which blocks for the extraction (each job waits for a worker
    /// of the pool). A file libmagic cannot identify is logged as a warning and kept by name,
    /// unextracted.
    ///
    /// - Parameters:
    ///   - path: The file's path relative to the root.
    ///   - root: The root.
    ///   - domain: The domain of the item.
    ///   - inspector: The calling thread's inspector.
    /// - Returns: What the inspection found, the item extracted when it could be.
    func item(at path: ItemIdentifier, in root: RootFolder, domain: String, with inspector: FileInspector)
        -> FileInspector.Outcome
    {
        let outcome = inspector.inspect(path, in: root, domain: domain)
        guard case .item(var item, let status) = outcome else { return outcome }
        if let failure = item.failure {
            logger.warning("cannot identify \(item.uniqueIdentifier.lossyString.debugDescription): \(failure)")
        } else {
            // What the extraction records (a document it cannot read) is kept quietly.
            extract(&item, in: root)
        }
        return .item(item, status)
    }

    /// Adds a thumbnail and content to `item`, except while backing off: then the item is
    /// stored without a change stamp, so that it counts as changed and is extracted later. An
    /// item the extraction itself leaves without a stamp (the workers are out) is counted too.
    func extract(_ item: inout SearchableItem, in root: RootFolder) {
        guard configuration.extracts else { return }
        guard configuration.backoff?.backoffReason == nil else {
            item.changeStamp = nil
            deferral.record()
            return
        }
        if let testExtraction = configuration.testExtraction {
            testExtraction(&item, root)
        } else {
            configuration.extraction?.enrich(&item, in: root)
        }
        if item.changeStamp == nil { deferral.record() }
    }
}
