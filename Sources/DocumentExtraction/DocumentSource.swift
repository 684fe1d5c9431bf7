import ExtractionProtocol
import SystemCalls
import SystemPackage

/// An open document and the bounds of its extraction.
///
/// Readers take a prefix of the file (``prefix(maxBytes:)``) rather than the whole of it, so
/// that a 2 GB file costs what its first megabytes cost.
struct DocumentSource {
    /// The file, opened read-only (see ``WorkerFile/openFile(_:)``).
    let descriptor: Int32
    /// The file's path as given in the request.
    let path: [UInt8]
    /// The file's size in bytes when it was opened.
    let size: Int
    /// The most bytes of UTF-8 text to return.
    let textLimit: Int
    /// libmagic's MIME type, as the indexer sent it.
    let contentType: String

    /// The file of `request` (``WorkerFile/openFile(_:)``), bounded as it asks.
    init(_ request: ExtractionRequest) throws(ExtractionFailure) {
        descriptor = try WorkerFile.openFile(request)
        size = (try? SystemCall.status(of: descriptor)).map { Int(clamping: $0.size) } ?? 0
        path = request.path
        textLimit = max(0, Int(request.limit))
        contentType = request.contentType
    }

    /// A source for an already open `descriptor` of `size` bytes (closed by ``close()``).
    init(descriptor: Int32, path: [UInt8], size: Int, textLimit: Int, contentType: String) {
        self.descriptor = descriptor
        self.path = path
        self.size = size
        self.textLimit = max(0, textLimit)
        self.contentType = contentType
    }

    func close() { SystemCall.close(descriptor) }

    /// The file's name (its path's last component), as bytes.
    var fileName: ArraySlice<UInt8> {
        let start = path.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
        return path[start...]
    }

    /// A bound for the raw bytes read for `textLimit` bytes of text: `factor` times the
    /// limit (markup outweighs its text), at least 64 KiB, at most 64 MiB.
    func rawLimit(factor: Int) -> Int {
        min(max(textLimit.multipliedReportingOverflow(by: factor).partialValue, 64 << 10), 64 << 20)
    }

    /// Reads the file's first `maxBytes` bytes; `isComplete` tells whether that was all of it.
    /// The corresponding C function is `pread(2)`.
    func prefix(maxBytes: Int) throws(ExtractionFailure) -> (bytes: [UInt8], isComplete: Bool) {
        // One byte more than asked says whether the file goes on.
        let wanted = min(maxBytes, max(size, 0)) + 1
        var bytes: [UInt8]
        do {
            bytes = try SystemCall.readBytes(descriptor, limit: wanted, at: 0)
        } catch {
            throw ExtractionFailure(.unreadable, "read: \(error)")
        }
        let isComplete = bytes.count <= maxBytes
        if !isComplete { bytes.removeLast() }
        return (bytes, isComplete)
    }
}
