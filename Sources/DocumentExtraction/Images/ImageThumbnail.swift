// Glibc for free(3) of what the C shim allocates.
import Glibc
import CShimVips
import ExtractionProtocol

/// Answers ``ExtractionKind/thumbnail`` and ``ExtractionKind/pngThumbnail`` requests: a small
/// picture of the file through libvips (an iWork document's is the preview its package holds).
public enum ImageThumbnail {
    /// What libvips may decode and how thumbnails are encoded (the worker's `--max-pixels`
    /// and `--quality`).
    public struct Options: Sendable {
        /// Raster images with more pixels than this are refused before decoding.
        public var maxPixels: Int64 = 256_000_000
        /// WebP quality of thumbnails.
        public var quality: Int32 = 75

        /// The worker's defaults: 256 million pixels at most, WebP quality 75.
        public init() {}
    }

    /// Starts libvips for this process (the photo reader needs it too); on failure, libvips' reason.
    public static func startLibVips(programName: UnsafePointer<CChar>) -> String? {
        cvips_initialize(programName) == 0 ? nil : vipsError()
    }

    /// A WebP thumbnail (PNG for ``ExtractionKind/pngThumbnail``) of the file `request` names.
    public static func response(to request: ExtractionRequest, options: Options) -> ExtractionResponse {
        WorkerFile.answering(request) { thumbnail(request, descriptor: $0, options: options) }
    }

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
    static func vipsError() -> String {
        guard let text = cvips_copy_error() else { return "unknown error" }
        defer { free(text) }
        return String(cString: text)
    }
}
