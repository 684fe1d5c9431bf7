import ExtractionProtocol
import Searchlight

extension ExtractorPool {
    /// Makes a PNG picture of the file at `path` (raw bytes, no NUL), its longest edge at most
    /// `edge` pixels (never upscaled), blocking until it is done or has failed: what the
    /// freedesktop thumbnail cache holds, for `searchlight-desktop`, which links no image library.
    ///
    /// Never throws: a failure is the result's, with the reason as the pool reports it.
    ///
    /// - Parameters:
    ///   - path: An absolute path, as bytes.
    ///   - edge: The longest edge, in pixels (256 for the cache's large size).
    /// - Returns: The PNG picture and the original's size, or the reason for failure.
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
