import DocumentExtraction
import ExtractionProtocol
import SystemCalls

/// The request loop: one request in, one response out, until end of input.
struct ExtractorWorker {
    var options: ExtractorOptions
    var testMode: ExtractorTestMode
    var timings: ExtractorTimings?
    /// The embedding model, loaded on the first embedding request.
    let embedder: TextEmbedder

    /// Serves requests until `input` ends; returns the exit status.
    func run(input: Int32, output: Int32) -> Int32 {
        while true {
            var request: ExtractionRequest
            // The request's file comes with the frame's first bytes: the header's.
            var file: Int32?
            do {
                guard let (header, descriptor) = try receiveExactly(input, count: ExtractionFrame.headerSize) else { return 0 }
                file = descriptor
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
            request.descriptor = file
            let start = timings.map { _ in ExtractorTimings.Sample.now() }
            let response = handle(request)
            if let file { SystemCall.close(file) }
            if let timings, let start { timings.record(request, response, since: start) }
            do {
                try SystemCall.write(output, response.encodedFrame())
            } catch {
                // The supervisor is gone or gave up on us.
                return 1
            }
        }
    }

    /// Routes `request` to the decoder of its kind.
    func handle(_ request: ExtractionRequest) -> ExtractionResponse {
        testMode.apply(to: request.path)
        switch request.kind {
        case .thumbnail, .pngThumbnail:
            return ImageThumbnail.response(to: request, options: options.thumbnail)
        case .text:
            switch DocumentExtractor.extract(request) {
            case .success(let document):
                return ExtractionResponse(jobID: request.jobID, kindRawValue: request.kindRawValue, outcome: .document(document))
            case .failure(let failure):
                return ExtractionResponse(answering: request, failure: failure)
            }
        case .ocr:
            return TextRecognition.response(to: request, options: options.ocr)
        case .embed:
            return embedder.response(to: request)
        #if SEARCHLIGHT_TEST_HOOKS
        case nil where request.kindRawValue == ExtractorSandbox.probeKindRawValue:
            return ExtractorSandbox.probe(request)
        #endif
        case nil:
            return ExtractionResponse(answering: request, failure: ExtractionFailure(
                .unsupported, "extraction kind \(request.kindRawValue) is not supported by this worker"))
        }
    }
}
