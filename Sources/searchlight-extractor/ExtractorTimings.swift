import DocumentExtraction
import ExtractionProtocol
import SystemCalls

/// What `--timings FILE` writes: one tab-separated line per request, appended to FILE, of what
/// the request cost this worker — to find which formats and files a content pass spends its
/// time on (`Benchmarks/content-timings.py` sums them up).
///
/// The columns: the kind (`text`, `thumbnail`, `ocr`…), the document format (or `-`), CPU
/// milliseconds (this process's, plus those of the helper programs it ran and waited for,
/// such as `catdoc`), wall-clock milliseconds, bytes of text answered, `ok` or the failure's
/// reason, the path. Several workers append to the same file: each line is one `write(2)` to a
/// file opened with `O_APPEND`, so lines never interleave.
struct ExtractorTimings {
    private let descriptor: Int32

    /// Opens (creating it) the file to append to.
    init(path: String) throws(WorkerError) {
        do {
            descriptor = try SystemCall.open(Array(path.utf8), .writeOnly, options: [.append, .create, .closeOnExec])
        } catch {
            throw WorkerError("open(\(path))", errno: error)
        }
    }

    /// This process's CPU time and that of its waited-for children, and the monotonic clock,
    /// in nanoseconds.
    struct Sample {
        var cpu: Int64
        var wall: Int64

        static func now() -> Sample {
            Sample(cpu: SystemCall.processorTime, wall: SystemCall.monotonicTime)
        }
    }

    /// Appends the line of `request`, answered by `response`, which took from `start` to now.
    func record(_ request: ExtractionRequest, _ response: ExtractionResponse, since start: Sample) {
        let end = Sample.now()
        let name = request.path.split(separator: UInt8(ascii: "/")).last.map(Array.init) ?? []
        let format = request.kind == .text ? DocumentFormat(contentType: request.contentType, fileName: name)?.rawValue : nil
        let (outcome, textBytes): (String, Int) = switch response.outcome {
        case .document(let document): ("ok", document.text.utf8.count)
        case .thumbnail, .embeddings: ("ok", 0)
        case .failure(let failure): ("\(failure.reason)", 0)
        }
        func milliseconds(_ nanoseconds: Int64) -> String {
            let tenths = nanoseconds / 100_000
            return "\(tenths / 10).\(tenths % 10)"
        }
        let fields = [request.kind.map { "\($0)" } ?? "\(request.kindRawValue)", format ?? "-",
                      milliseconds(end.cpu - start.cpu), milliseconds(end.wall - start.wall), "\(textBytes)", outcome]
        // Tabs and line breaks in a name would break the line's columns.
        let path = request.path.map { $0 == 0x09 || $0 == 0x0A ? UInt8(ascii: "?") : $0 }
        try? SystemCall.write(descriptor, Array(fields.joined(separator: "\t").utf8) + [0x09] + path + [0x0A])
    }
}
