import DocumentExtraction
import SystemCalls

/// The command-line options of the worker.
struct ExtractorOptions {
    /// The address-space limit (`RLIMIT_AS`) in bytes, or nil to keep the inherited one.
    var memoryLimit: UInt64?
    /// How thumbnails are made (`--max-pixels`, `--quality`).
    var thumbnail = ImageThumbnail.Options()
    /// What OCR requests read with (Docs/Contract.md#text-in-pictures; `--max-pixels` and `--ocr-*`).
    var ocr = OCROptions()
    /// Where to append a line of timings per request (`--timings`; ``ExtractorTimings``), if anywhere.
    var timingsPath: String?
    /// The worker's private temporary folder (`--temporary-folder`, made by the indexer): the
    /// one place the sandbox lets it write, and its `TMPDIR`.
    var temporaryFolder: String?
    /// `--unconfined`: no sandbox (no `no_new_privs`, seccomp filter nor Landlock), for one
    /// purpose: measuring what the sandbox costs (`Benchmarks/sandbox.sh`). Nothing the indexer
    /// starts passes it; a worker started so says it on standard error.
    var unconfined = false
    /// The embedding model's folder (`--embedding-model`), loaded on the first embedding
    /// request; the sandbox lets the worker read it.
    var embeddingModelFolder: String?

    init(arguments: [String]) throws(WorkerError) {
        var remaining = arguments[...]
        func value(for name: String) throws(WorkerError) -> UInt64 {
            guard let text = remaining.popFirst(), let number = UInt64(text) else {
                throw WorkerError.usage("\(name) needs a non-negative integer")
            }
            return number
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--memory-limit":
                let limit = try value(for: argument)
                memoryLimit = limit == 0 ? nil : limit
            case "--max-pixels":
                thumbnail.maxPixels = Int64(clamping: try value(for: argument))
                ocr.maxPixels = thumbnail.maxPixels
            case "--quality":
                thumbnail.quality = Int32(clamping: min(try value(for: argument), 100))
            case "--ocr-languages":
                guard let text = remaining.popFirst(), !text.isEmpty else {
                    throw WorkerError.usage("\(argument) needs languages such as eng+deu")
                }
                ocr.languages = text
            case "--ocr-page-limit":
                ocr.pageLimit = Int32(clamping: max(1, try value(for: argument)))
            case "--ocr-page-deadline":
                ocr.pageDeadlineMilliseconds = Int32(clamping: try value(for: argument))
            case "--ocr-min-confidence":
                ocr.minimumConfidence = Int32(clamping: min(try value(for: argument), 100))
            case "--timings":
                guard let text = remaining.popFirst(), !text.isEmpty else {
                    throw WorkerError.usage("\(argument) needs a file to append to")
                }
                timingsPath = text
            case "--temporary-folder":
                guard let text = remaining.popFirst(), text.hasPrefix("/") else {
                    throw WorkerError.usage("\(argument) needs an absolute path")
                }
                temporaryFolder = text
            case "--embedding-model":
                guard let text = remaining.popFirst(), text.hasPrefix("/") else {
                    throw WorkerError.usage("\(argument) needs an absolute path")
                }
                embeddingModelFolder = text
            case "--unconfined":
                unconfined = true
            default:
                throw WorkerError.usage("unknown argument '\(argument)'")
            }
        }
    }
}

/// Test-only behaviour, from `SEARCHLIGHT_EXTRACTOR_TEST_MODE`:
/// `hang-on:<substring>` sleeps forever and `crash-on:<substring>` aborts when a
/// requested path contains the substring. Several entries are separated by `;`.
/// Tests use it to prove that the supervisor survives such workers.
///
/// Only debug builds (`SEARCHLIGHT_TEST_HOOKS`, defined for the debug configuration in
/// Package.swift) read the variable: in a release build the hooks are always empty, whatever
/// the environment says.
struct ExtractorTestMode {
    var hangOn: [[UInt8]] = []
    var crashOn: [[UInt8]] = []

    init(environment value: String?) {
        #if SEARCHLIGHT_TEST_HOOKS
        guard let value else { return }
        for entry in value.split(separator: ";") {
            if entry.hasPrefix("hang-on:") {
                hangOn.append(Array(entry.dropFirst("hang-on:".count).utf8))
            } else if entry.hasPrefix("crash-on:") {
                crashOn.append(Array(entry.dropFirst("crash-on:".count).utf8))
            }
        }
        #endif
    }

    /// Hangs or crashes if `path` asks for it; returns otherwise.
    func apply(to path: [UInt8]) {
        if crashOn.contains(where: { path.contains(subsequence: $0) }) {
            SystemCall.abort()
        }
        if hangOn.contains(where: { path.contains(subsequence: $0) }) {
            while true { SystemCall.waitForSignal() }
        }
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return false }
        guard needle.count <= count else { return false }
        for start in 0...(count - needle.count) where self[start..<start + needle.count].elementsEqual(needle) {
            return true
        }
        return false
    }
}
