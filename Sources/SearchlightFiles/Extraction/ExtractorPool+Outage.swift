import ExtractionProtocol
import Logging
import Synchronization
import SystemCalls

extension ExtractorPool {
    /// Why the worker executable does not work, or nil while it does.
    public var outageReason: String? { outage.reason }

    /// The failure of a job that found the workers out: transient, so its item is indexed by
    /// name and type and extracted again later.
    func unavailable() -> ExtractionFailure {
        ExtractionFailure(.unavailable, "extractor unavailable: \(outage.reason ?? "shut down")")
    }

    /// Records a failure of the executable; logs it when it begins an outage.
    func noteOutage(_ reason: String) {
        if outage.fail(reason) {
            logger.warning("""
                the extraction workers do not work (\(reason)): files are indexed by name and type, \
                and their content follows once the workers work again
                """)
        }
    }

    /// Records a job the executable answered; logs the end of an outage.
    func noteWorking() {
        if let reason = outage.succeed() {
            logger.notice("the extraction workers work again (they were out: \(reason))")
        }
    }

    /// Whether a fresh worker answers a job on the probe file (any answer: it did not crash).
    /// `worker` died on its last job; it is started again here, and stays started for the next.
    func answersProbe(_ worker: ExtractorProcess) -> Bool {
        guard let path = probe.path else { return true }
        if !worker.isRunning {
            do { try worker.start() } catch { return false }
        }
        if case .success = worker.run(kind: .text, path: path, limit: 64, contentType: "text/plain",
                                      deadline: configuration.deadline) {
            return true
        }
        return false
    }
}

/// A small text file, made when a pool starts and removed when it shuts down, that any
/// working extractor reads: a worker that dies on a file is asked for it, to tell a file that
/// crashes the decoders from an executable that crashes on everything.
///
/// It lives in a folder of its own made and locked as a worker's (``WorkerFolder``), so that
/// the folder of an indexer that could not clean up (`SIGKILL`, a crash) is swept by the next
/// pool like its workers' (it was a loose file in `$TMPDIR`, which such ends left behind).
final class ExtractorProbe: Sendable {
    /// The file's path, or nil when no temporary file could be made (then every crash is
    /// blamed on its file, as before).
    let path: [UInt8]?
    /// The folder that holds the file, until ``remove()`` (or the probe's end) removes both.
    private let folder: Mutex<WorkerFolder?>

    init() {
        guard let folder = try? WorkerFolder() else {
            path = nil
            self.folder = Mutex(nil)
            return
        }
        let file = Array((folder.path + "/probe.txt").utf8)
        do {
            let descriptor = try SystemCall.open(file, .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec])
            defer { SystemCall.close(descriptor) }
            try SystemCall.write(descriptor, "searchlight\n".utf8)
            path = file
        } catch {
            path = nil
        }
        self.folder = Mutex(folder)
    }

    /// Removes the file and its folder.
    func remove() {
        folder.withLock { folder in
            folder?.remove()
            folder = nil
        }
    }
}
