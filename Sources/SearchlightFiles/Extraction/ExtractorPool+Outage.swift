import ExtractionProtocol
import Logging

#if canImport(Glibc)
import Glibc
#endif

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
final class ExtractorProbe: Sendable {
    /// The file's path, or nil when no temporary file could be made (then every crash is
    /// blamed on its file, as before).
    let path: [UInt8]?

    init() {
        var template = Array(((getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp") + "/searchlight-probe-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            path = nil
            return
        }
        let text = Array("searchlight\n".utf8)
        let written = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        let bytes = template.dropLast().map { UInt8(bitPattern: $0) }
        path = written == text.count ? bytes : nil
    }

    /// Removes the file.
    func remove() {
        guard let path else { return }
        _ = (path + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { unlink($0.baseAddress!) } }
    }
}
