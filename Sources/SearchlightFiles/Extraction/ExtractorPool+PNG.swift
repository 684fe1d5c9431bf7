import ExtractionProtocol
import Searchlight

extension ExtractorPool {
    /// Makes a PNG picture of the file at `path` (raw bytes, no NUL), its longest edge at most
    /// `edge` pixels (never upscaled), blocking until it is done or has failed: what the
    /// freedesktop thumbnail cache holds, for `searchlight-desktop`, which links no image library.
    public func pngThumbnail(ofFileAtPathBytes path: [UInt8], edge: Int) -> Result<ExtractedThumbnail, ExtractionFailure> {
        extract(.pngThumbnail, path: path, limit: UInt32(clamping: edge)).flatMap { response in
            switch response.outcome {
            case .thumbnail(let format, let width, let height, let bytes):
                return .success(ExtractedThumbnail(response, thumbnail: Thumbnail(format: format, width: width, height: height, bytes: bytes)))
            case .failure(let failure):
                return .failure(Self.reported(failure))
            case .document, .embeddings:
                return .failure(ExtractionFailure(.crashed, "extractor answered a thumbnail request with a document"))
            }
        }
    }
}
