#if canImport(Glibc)
import Glibc
#endif
import CVips
import ExtractionProtocol
import SystemCalls

/// The request loop: one request in, one response out, until end of input.
struct ExtractorWorker {
    var options: ExtractorOptions
    var testMode: ExtractorTestMode

    /// Serves requests until `input` ends; returns the exit status.
    func run(input: Int32, output: Int32) -> Int32 {
        while true {
            let request: ExtractionRequest
            do {
                guard let header = try readExactly(input, count: ExtractionFrame.headerSize) else { return 0 }
                let length = try ExtractionFrame.payloadLength(header: header)
                guard let payload = try readExactly(input, count: length) else {
                    printError("searchlight-extractor: input ended inside a frame\n")
                    return 1
                }
                request = try ExtractionRequest(payload: payload)
            } catch {
                printError("searchlight-extractor: \(error)\n")
                return 1
            }
            let response = handle(request)
            do {
                try writeAll(output, response.encodedFrame())
            } catch {
                // The supervisor is gone or gave up on us.
                return 1
            }
        }
    }

    func handle(_ request: ExtractionRequest) -> ExtractionResponse {
        testMode.apply(to: request.path)
        let failure = request.failure(_:_:)
        switch request.kind {
        case .thumbnail, .pngThumbnail:
            return thumbnail(request)
        case .text:
            switch DocumentExtractor.extract(request) {
            case .success(let document):
                return ExtractionResponse(jobID: request.jobID, kindRawValue: request.kindRawValue, outcome: .document(document))
            case .failure(let error):
                return failure(error.code, error.message)
            }
        case .ocr:
            return recognizeText(request)
        case nil:
            return failure(.unsupported, "extraction kind \(request.kindRawValue) is not supported by this worker")
        }
    }

    /// A WebP thumbnail through libvips (PNG for ``ExtractionKind/pngThumbnail``).
    func thumbnail(_ request: ExtractionRequest) -> ExtractionResponse {
        let failure = request.failure(_:_:)
        let descriptor: Int32
        do { descriptor = try request.openFile() } catch { return request.failure(opening: error) }
        defer { SystemCall.close(descriptor) }
        // An iWork document's thumbnail is the preview picture its package carries.
        let preview: DocumentSource?
        do {
            preview = try IWorkThumbnail.previewSource(descriptor: descriptor, path: request.path)
        } catch {
            return failure(error.code, error.message)
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
            outcome: .failure(.internalError, message: "")
        )
        response.mayHoldText = result.may_hold_text != 0
        let message = result.error.map { String(cString: $0) } ?? ""
        switch result.status {
        case CVIPS_OK:
            let bytes = Array(UnsafeBufferPointer(start: result.bytes, count: result.length))
            response.outcome = .thumbnail(format: format, width: Int(result.width), height: Int(result.height), bytes: bytes)
        case CVIPS_NOT_AN_IMAGE:
            response.outcome = .failure(.notAnImage, message: message)
        case CVIPS_TOO_LARGE:
            response.outcome = .failure(.tooLarge, message: message)
        case CVIPS_DECODE_FAILED:
            response.outcome = .failure(.decodeFailed, message: message)
        default:
            response.outcome = .failure(.internalError, message: message)
        }
        return response
    }
}

/// libvips' pending error text, as one line.
func takeVipsError() -> String {
    guard let text = cvips_copy_error() else { return "unknown error" }
    defer { free(text) }
    return String(cString: text)
}
