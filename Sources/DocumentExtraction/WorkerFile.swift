import ExtractionProtocol
import SystemCalls
import SystemPackage

/// The files the decoders open and write: the requested file, opened the way a hostile one
/// cannot abuse, and the anonymous files that hold an archive's members.
///
/// Used by every decoder's entry point through `answering(_:_:)`: each request's file is
/// opened once, handed to the decoder as a descriptor, and closed when the answer is made,
/// so a worker that answers thousands of requests leaks none.
public enum WorkerFile {
    /// Opens a regular file for reading without following a final symbolic link or blocking
    /// on a FIFO (close-on-exec).
    /// The corresponding C functions are `open(2)` and `fstat(2)`.
    ///
    /// - Throws: ``ExtractionFailure/Reason-swift.enum/unreadable`` with the call and its errno.
    static func openRegular(_ path: [UInt8]) throws(ExtractionFailure) -> Int32 {
        let descriptor: Int32
        do {
            descriptor = try SystemCall.open(path, .readOnly, options: .readingSafely)
        } catch {
            throw ExtractionFailure(.unreadable, "open: \(error)")
        }
        let isRegularFile: Bool
        do {
            isRegularFile = try SystemCall.status(of: descriptor).isRegularFile
        } catch {
            SystemCall.close(descriptor)
            throw ExtractionFailure(.unreadable, "fstat: \(error)")
        }
        guard isRegularFile else {
            SystemCall.close(descriptor)
            throw ExtractionFailure(.unreadable, "open: not a regular file")
        }
        return descriptor
    }

    /// Opens the file of `request`: a descriptor of its own for the one that came with it
    /// (which stays the worker's, closed after the request), or the file its path names,
    /// opened as ``openRegular(_:)``, when none came (decoders run in process).
    /// The corresponding C function is `dup(2)`.
    static func openFile(_ request: ExtractionRequest) throws(ExtractionFailure) -> Int32 {
        guard let received = request.descriptor else { return try openRegular(request.path) }
        do {
            return try SystemCall.duplicate(received)
        } catch {
            throw ExtractionFailure(.unreadable, "dup: \(error)")
        }
    }

    /// Whether the file system is confined (Landlock): then a user's file cannot be opened again
    /// through `/proc/self/fd/N`, whose target Landlock checks by its real path, and the decoders
    /// that open their file by that name (libvips, Tesseract, ZIPFoundation, the converters) get
    /// a copy (``reopenable(_:)``). Set once by the worker before it reads its first request.
    ///
    /// Not synchronized: written once, before any request is read, and only read afterwards.
    nonisolated(unsafe) public static var isFileSystemConfined = false

    /// A descriptor for the same bytes as `descriptor` that a decoder can open again through
    /// `/proc/self/fd/N`: a duplicate, or under Landlock (``isFileSystemConfined``) an
    /// anonymous file (which Landlock does not confine) holding a copy made by the kernel.
    /// The caller closes it. The corresponding C functions are `memfd_create(2)` and `sendfile(2)`.
    ///
    /// Under Landlock the copy is the whole file, in memory: a request for a large file costs its
    /// size in the worker's memory while it is decoded.
    static func reopenable(_ descriptor: Int32) throws(ExtractionFailure) -> Int32 {
        guard isFileSystemConfined else {
            do {
                return try SystemCall.duplicate(descriptor)
            } catch {
                throw ExtractionFailure(.unreadable, "dup: \(error)")
            }
        }
        let copy: Int32
        do {
            copy = try SystemCall.makeMemoryFile(named: "searchlight-file")
        } catch {
            throw ExtractionFailure(.internalError, "memfd_create: \(error)")
        }
        do {
            try SystemCall.copy(from: descriptor, to: copy)
        } catch {
            SystemCall.close(copy)
            throw ExtractionFailure(.unreadable, "sendfile: \(error)")
        }
        return copy
    }

    /// Answers `request` with what `body` makes of its file (opened as ``openFile(_:)``, then
    /// made ``reopenable(_:)``, closed after), or with why that file cannot be opened.
    ///
    /// - Parameters:
    ///   - request: The request, with its file's descriptor or path.
    ///   - body: The decoder, given a descriptor it must not close.
    /// - Returns: What `body` answered, or a failure answer when the file cannot be opened.
    static func answering(_ request: ExtractionRequest, _ body: (Int32) -> ExtractionResponse) -> ExtractionResponse {
        let descriptor: Int32
        do {
            let opened = try openFile(request)
            defer { SystemCall.close(opened) }
            descriptor = try reopenable(opened)
        } catch {
            return ExtractionResponse(answering: request, failure: error)
        }
        defer { SystemCall.close(descriptor) }
        return body(descriptor)
    }

}

extension ExtractionResponse {
    /// The answer to `request` that it failed.
    ///
    /// Carries the request's job and kind, so the indexer matches it to what it asked.
    public init(answering request: ExtractionRequest, failure: ExtractionFailure) {
        self.init(jobID: request.jobID, kindRawValue: request.kindRawValue, outcome: .failure(failure))
    }
}
