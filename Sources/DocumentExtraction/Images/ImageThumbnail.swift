// Glibc for free(3) of what the C shim allocates.
import Glibc
import CShimVips
import ExtractionProtocol

/// Answers ``ExtractionKind/thumbnail`` and ``ExtractionKind/pngThumbnail`` requests: a small
/// picture of the file through libvips (an iWork document's is the preview its package holds).
///
/// libvips decodes only what the thumbnail needs (shrink-on-load for JPEG and WebP, a page
/// of a PDF), refuses pictures above ``Options/maxPixels`` before decoding them, and encodes
/// the result in memory. Call ``startLibVips(programName:)`` once per process first.
///
/// ```swift
/// var options = ImageThumbnail.Options()
/// options.quality = 60
/// let response = ImageThumbnail.response(to: request, options: options)
/// ```
public enum ImageThumbnail {
    /// What libvips may decode and how thumbnails are encoded (the worker's `--max-pixels`
    /// and `--quality`).
    public struct Options: Sendable {
        /// Raster images with more pixels than this are refused before decoding.
        public var maxPixels: Int64 = 256_000_000
        /// WebP quality of thumbnails.
        ///
        /// From 1 to 100; PNG thumbnails, lossless, ignore it.
        public var quality: Int32 = 75

        /// The worker's defaults: 256 million pixels at most, WebP quality 75.
        public init() {}
    }

    /// Starts libvips for this process (the photo reader needs it too); on failure, libvips' reason.
    ///
    /// Unlike ``PhotoMetadataExtractor/startLibvips()``, nothing keeps two threads from calling
    /// it at once: the worker calls it once, at its start.
    ///
    /// - Parameter programName: The name libvips gives the process in its messages.
    /// - Returns: `nil` when libvips started, else its error.
    public static func startLibVips(programName: UnsafePointer<CChar>) -> String? {
        cvips_initialize(programName) == 0 ? nil : vipsError()
    }

    /// A WebP thumbnail (PNG for ``ExtractionKind/pngThumbnail``) of the file `request` names.
    ///
    /// The picture fits in a square of `request.limit` pixels a side (at least 1), its aspect
    /// kept. The response also carries the original's size and libvips' two judgements of the
    /// picture: whether it may hold text (worth OCR) and whether it is legible as an icon.
    ///
    /// - Parameters:
    ///   - request: A thumbnail request naming a file the worker may open.
    ///   - options: The pixel limit and the WebP quality.
    /// - Returns: The thumbnail's bytes and size, or the failure; never throws.
    public static func response(to request: ExtractionRequest, options: Options) -> ExtractionResponse {
        WorkerFile.answering(request) { thumbnail(request, descriptor: $0, options: options) }
    }

    /// Makes the thumbnail of the file open at `descriptor`, or of the preview inside an iWork
    /// package; the preview's descriptor is closed before returning, `descriptor` is not.
    static func thumbnail(_ request: ExtractionRequest, descriptor: Int32, options: Options) -> ExtractionResponse {
        // An iWork document's thumbnail is the preview picture its package carries.
        let preview: DocumentSource?
        do {
            preview = try IWorkThumbnail.previewSource(descriptor: descriptor, path: request.path)
        } catch {
            return ExtractionResponse(answering: request, failure: error)
        }
        defer { preview?.close() }

        var result = cvips_thumbnail_result()
        let format = request.kind == .pngThumbnail ? "png" : "webp"
        cvips_thumbnail_descriptor_as(preview?.descriptor ?? descriptor, Int32(clamping: max(request.limit, 1)), options.maxPixels,
                                      options.quality, "." + format, &result)
        defer { cvips_thumbnail_result_clear(&result) }

        var response = ExtractionResponse(
            jobID: request.jobID,
            kindRawValue: request.kindRawValue,
            originalWidth: Int(result.original_width),
            originalHeight: Int(result.original_height),
            outcome: .failure(ExtractionFailure(.internalError, ""))
        )
        response.mayHoldText = result.may_hold_text != 0
        response.legibleAsIcon = result.legible_as_icon != 0
        let message = result.error.map { String(cString: $0) } ?? ""
        switch result.status {
        case CVIPS_OK:
            let bytes = Array(UnsafeBufferPointer(start: result.bytes, count: result.length))
            response.outcome = .thumbnail(format: format, width: Int(result.width), height: Int(result.height), bytes: bytes)
        case CVIPS_NOT_AN_IMAGE:
            response.outcome = .failure(ExtractionFailure(.notAnImage, message))
        case CVIPS_TOO_LARGE:
            response.outcome = .failure(ExtractionFailure(.tooLarge, message))
        case CVIPS_DECODE_FAILED:
            response.outcome = .failure(ExtractionFailure(.decodeFailed, message))
        default:
            response.outcome = .failure(ExtractionFailure(.internalError, message))
        }
        return response
    }

    /// libvips' pending error text, as one line.
    ///
    /// Takes the text out of libvips' error buffer; `unknown error` when it is empty.
    static func vipsError() -> String {
        guard let text = cvips_copy_error() else { return "unknown error" }
        defer { free(text) }
        return String(cString: text)
    }
}
