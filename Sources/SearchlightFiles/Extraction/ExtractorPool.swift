import Dispatch
import ExtractionProtocol
import Logging
import Searchlight
import Synchronization
import SystemPackage
import SystemCalls


/// Step ③ of the write path, extraction: the worker processes that decode.
///
/// Supervised `searchlight-extractor` worker processes that decode untrusted files.
///
/// Decoders (libvips and, later, text extractors) never run in the indexer: each job
/// goes to a worker process over a socket. A worker that overruns the deadline is
/// killed (`SIGKILL`) and one that crashes is reaped; either is replaced for the next
/// job, and the file gets a failure with its reason. Each worker also caps its own
/// address space. Calls block the calling thread (at most about the deadline, plus
/// the wait for a free worker), so call from your own threads, not from the Swift
/// concurrency pool. Any number of threads may call at once; ``Configuration/workerCount``
/// jobs run at a time and the others wait for a worker.
///
/// ```swift
/// let pool = ExtractorPool(configuration: .init(workerCount: 2), logger: logger)
/// defer { pool.shutdown() }
/// switch pool.thumbnail(ofFileAt: "/home/me/Pictures/cat.jpg") {
/// case .success(let extracted): store(extracted.thumbnail)
/// case .failure(let failure): record(failure.message) // "timed out after 10 s"
/// }
/// ```
///
/// ## Topics
///
/// ### Starting and stopping
///
/// - ``init(configuration:logger:)``
/// - ``Configuration``
/// - ``shutdown()``
///
/// ### Extracting
///
/// - ``thumbnail(ofFileAt:)``
/// - ``thumbnail(ofFileAtPathBytes:)``
/// - ``document(ofFileAtPathBytes:contentType:)``
public final class ExtractorPool: Sendable {
    /// What the pool was started with (worker count, deadlines, limits).
    public let configuration: Configuration
    /// The worker executable in use.
    public let extractorPath: FilePath
    /// Where restarts, outages and shutdown problems are reported.
    let logger: Logger
    /// Counts idle workers: a caller takes one before touching `state`.
    private let idleWorkers: DispatchSemaphore
    /// The idle workers and whether the pool is shut down; taken only after ``idleWorkers``.
    private let state: Mutex<State>
    /// Whether the executable works; when it does not, when to try it again.
    let outage = ExtractorOutage()
    /// A small file any working extractor reads, to tell a broken executable from a bad file.
    let probe: ExtractorProbe

    /// What the pool's lock protects.
    private struct State: ~Copyable {
        var idle: [ExtractorProcess]
        var isShutDown = false
    }

    /// Starts the workers.
    ///
    /// A worker executable that cannot be started is not an error here: the pool begins in an
    /// outage (logged once; see ``ExtractorOutage``), jobs fail as transient
    /// (``ExtractionFailure/Reason-swift.enum/unavailable``) and the executable is tried again
    /// after a back-off, so that files are still indexed by name and type meanwhile.
    ///
    /// Blocks while the workers start, one process each. Also removes the temporary folders
    /// that workers of an indexer that was killed left behind, and warns once when the kernel
    /// cannot sandbox the workers fully.
    ///
    /// - Parameters:
    ///   - configuration: worker count, deadline, limits, where the extractor is.
    ///   - logger: receives worker restarts (`notice`), outages (`warning`) and shutdown problems.
    public init(configuration: Configuration = Configuration(), logger: Logger) {
        self.configuration = configuration
        self.extractorPath = configuration.resolvedExtractorPath()
        self.logger = logger
        self.probe = ExtractorProbe()
        // Folders of workers whose indexer was killed before it could remove them.
        let swept = WorkerFolder.sweep()
        if swept > 0 { logger.info("removed \(swept) temporary folders that ended workers left") }
        let environment = configuration.workerEnvironment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        var workers: [ExtractorProcess] = []
        var startFailure: FileSystemError?
        for _ in 0..<configuration.workerCount {
            let worker = ExtractorProcess(
                executable: extractorPath,
                arguments: configuration.workerArguments,
                environment: environment,
                inheritsStandardError: configuration.inheritsStandardError
            )
            if startFailure == nil {
                do {
                    try worker.start()
                } catch {
                    startFailure = error
                }
            }
            workers.append(worker)
        }
        self.idleWorkers = DispatchSemaphore(value: workers.count)
        self.state = Mutex(State(idle: workers))
        if let startFailure { noteOutage("cannot start \(extractorPath): \(startFailure)") }
        let missing = SandboxSupport.current.missing
        if !missing.isEmpty {
            logger.warning("extraction workers are not fully sandboxed on this kernel", metadata: [
                "missing": "\(missing.joined(separator: "; "))",
            ])
        }
    }

    /// Kills the idle workers at once, without the grace period of ``shutdown()``.
    deinit {
        // Normally `shutdown()` did this already; never leave processes behind.
        state.withLock { state in
            for worker in state.idle { worker.terminate() }
            state.idle.removeAll()
        }
        probe.remove()
    }

    /// Makes a thumbnail of the file at `path`, blocking until it is done or has failed.
    ///
    /// Blocks the calling thread for up to ``Configuration/deadline``, after waiting for a free
    /// worker; never throws.
    ///
    /// - Parameter path: an absolute path; its bytes are passed through unchanged.
    /// - Returns: the WebP thumbnail (longest edge at most ``Configuration/thumbnailSize``,
    ///   never upscaled) with the original pixel size when known, or the reason for failure.
    public func thumbnail(ofFileAt path: FilePath) -> Result<ExtractedThumbnail, ExtractionFailure> {
        // Byte for byte: a name need not be UTF-8.
        var bytes: [UInt8] = []
        path.withPlatformString { pointer in
            var next = pointer
            while next.pointee != 0 {
                bytes.append(UInt8(bitPattern: next.pointee))
                next += 1
            }
        }
        return thumbnail(ofFileAtPathBytes: bytes)
    }

    /// Makes a thumbnail of the file whose path is `path`, as raw bytes (no NUL).
    ///
    /// ``thumbnail(ofFileAt:)`` for a path that need not be valid UTF-8, as the index's
    /// identifiers are; blocks as it does.
    ///
    /// - Parameter path: An absolute path; a NUL in it fails as `unreadable` without a worker.
    /// - Returns: The thumbnail, at most ``Configuration/thumbnailSize`` pixels on its longest
    ///   edge, or the reason for failure.
    public func thumbnail(ofFileAtPathBytes path: [UInt8]) -> Result<ExtractedThumbnail, ExtractionFailure> {
        let limit = UInt32(clamping: configuration.thumbnailSize)
        return extract(.thumbnail, path: path, limit: limit).flatMap { response in
            switch response.outcome {
            case .thumbnail(let format, let width, let height, let bytes):
                return .success(ExtractedThumbnail(response, thumbnail: Thumbnail(format: format, width: width, height: height, bytes: bytes)))
            case .failure(let failure):
                return .failure(Self.reported(failure))
            case .document, .embeddings:
                return .failure(ExtractionFailure(.crashed, "extractor answered a thumbnail request with a document"))
            }
        }
    }

    /// Reads what is inside the document at `path` (title, authors, keywords, dates, text),
    /// blocking until it is done or has failed.
    ///
    /// Any private key block (`-----BEGIN … PRIVATE KEY-----`) is removed from the text and the
    /// metadata before they are returned, whatever the worker sent (`SecretContent`).
    ///
    /// - Parameters:
    ///   - path: an absolute path, as raw bytes (no NUL).
    ///   - contentType: libmagic's MIME type of the file; with the file's name it chooses
    ///     the ``DocumentFormat`` (a file without one fails as ``ExtractionFailure/Reason-swift.enum/unsupported``).
    /// - Returns: the document, its text at most ``Configuration/textLimit`` bytes of UTF-8,
    ///   or the reason for failure (text in no recognisable encoding is ``ExtractionFailure/Reason-swift.enum/decodeFailed``).
    public func document(ofFileAtPathBytes path: [UInt8], contentType: String) -> Result<ExtractedDocument, ExtractionFailure> {
        let limit = UInt32(clamping: configuration.textLimit)
        return extract(.text, path: path, limit: limit, contentType: contentType).flatMap { response in
            switch response.outcome {
            case .document(let document):
                return .success(document)
            case .failure(let failure):
                return .failure(Self.reported(failure))
            case .thumbnail, .embeddings:
                return .failure(ExtractionFailure(.crashed, "extractor answered a text request with a thumbnail"))
            }
        }
    }

    /// Runs one job on an idle worker, starting a new worker first if the last one died.
    ///
    /// - Parameters:
    ///   - kind: What to extract.
    ///   - path: The file's absolute path, as bytes.
    ///   - limit: The thumbnail's edge, or the text's bytes.
    ///   - contentType: libmagic's type, for a document.
    ///   - deadline: The job's deadline; ``Configuration/deadline`` when `nil`.
    /// - Returns: The worker's response, or the failure.
    func extract(_ kind: ExtractionKind, path: [UInt8], limit: UInt32,
                 contentType: String = "", deadline: Duration? = nil) -> Result<ExtractionResponse, ExtractionFailure> {
        guard !path.contains(0) else {
            return .failure(ExtractionFailure(.unreadable, "unreadable: path contains a NUL byte"))
        }
        return runJob(naming: path) { worker in
            worker.run(kind: kind, path: path, limit: limit, contentType: contentType,
                       deadline: deadline ?? configuration.deadline)
        }
    }

    /// Runs `job` on an idle worker, starting a new worker first if the last one died; `path`
    /// names the job in the log.
    ///
    /// While the executable is known to be broken (``ExtractorOutage``), fails at once as
    /// unavailable without taking a worker. A crash is told apart from a bad file by giving a
    /// fresh worker the small probe file: if it fails too, the executable is to blame and an
    /// outage begins.
    ///
    /// - Parameters:
    ///   - path: The file's path, for the log.
    ///   - job: The work, given the worker that runs it.
    /// - Returns: The job's result; a document's text stripped of private key blocks.
    func runJob(naming path: [UInt8],
                _ job: (ExtractorProcess) -> Result<ExtractionResponse, ExtractionFailure>) -> Result<ExtractionResponse, ExtractionFailure> {
        guard outage.mayTry else { return .failure(unavailable()) }
        idleWorkers.wait()
        let worker: ExtractorProcess? = state.withLock { state in
            state.isShutDown ? nil : state.idle.removeLast()
        }
        guard let worker else {
            idleWorkers.signal()
            return .failure(ExtractionFailure(.unavailable, "extractor pool is shut down"))
        }
        defer {
            state.withLock { $0.idle.append(worker) }
            idleWorkers.signal()
        }
        guard outage.mayTry else { return .failure(unavailable()) }
        if !worker.isRunning {
            do {
                try worker.start()
            } catch {
                noteOutage("cannot start \(extractorPath): \(error)")
                return .failure(unavailable())
            }
        }
        let result = job(worker)
        switch result {
        case .success(var response):
            noteWorking()
            // The one way a document's text comes in: no private key block passes.
            if case .document(var document) = response.outcome {
                SecretContent.removeKeyBlocks(from: &document)
                response.outcome = .document(document)
                return .success(response)
            }
        case .failure(let failure) where failure.reason == .crashed && !answersProbe(worker):
            // A fresh worker cannot read a small text file either: the executable is broken,
            // and the file is not to blame.
            noteOutage("\(extractorPath) fails on every file (\(failure.message))")
            return .failure(unavailable())
        case .failure(let failure):
            logger.notice("extractor worker replaced", metadata: [
                "path": "\(String(decoding: path, as: UTF8.self))",
                "reason": "\(failure.message)",
            ])
        }
        return result
    }

    /// Stops the workers: closes their input so they exit, and kills those still running
    /// after ``Configuration/shutdownGracePeriod``. Waits for jobs in progress (each ends by
    /// its deadline). Later calls fail with ``ExtractionFailure/Reason-swift.enum/unavailable``.
    /// Calling it again does nothing.
    ///
    /// Blocks the calling thread: up to a job's deadline for busy workers, then up to the grace
    /// period for each worker to exit.
    public func shutdown() {
        let alreadyShutDown = state.withLock { state in
            defer { state.isShutDown = true }
            return state.isShutDown
        }
        guard !alreadyShutDown else { return }
        // Take every worker back, waiting for the busy ones to finish their job.
        var workers: [ExtractorProcess] = []
        for _ in 0..<configuration.workerCount {
            idleWorkers.wait()
            if let worker = state.withLock({ $0.idle.popLast() }) { workers.append(worker) }
        }
        // Every worker is told first, so that they exit (unmapping their hundred libraries) at once.
        for worker in workers { worker.closeInput() }
        for worker in workers {
            let status = worker.awaitExit(grace: configuration.shutdownGracePeriod)
            if status != .exited(0) && status != .unknown {
                logger.warning("extractor did not exit cleanly", metadata: ["status": "\(status)"])
            }
        }
        // Let callers that are waiting see the shut-down state and return.
        for _ in 0..<configuration.workerCount { idleWorkers.signal() }
        probe.remove()
    }

    /// A worker's failure as the pool reports it: its message starts with what went wrong.
    ///
    /// `cannot decode: …`, `too large: …`: the reason in words, then the worker's message, as
    /// `status` and the log print failures.
    static func reported(_ failure: ExtractionFailure) -> ExtractionFailure {
        let prefix = switch failure.reason {
        case .notAnImage: "not an image: "
        case .tooLarge: "too large: "
        case .decodeFailed: "cannot decode: "
        case .unreadable: "unreadable: "
        case .unsupported: "unsupported: "
        case .internalError: "extractor error: "
        // Their messages say it already ("encrypted PDF: …"), or the pool wrote them.
        case .encrypted, .timedOut, .crashed, .unavailable: ""
        }
        return ExtractionFailure(failure.reason, prefix + failure.message)
    }
}
