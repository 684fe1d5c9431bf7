import Logging
import SearchlightFiles

/// PNG pictures of files drawn by one `searchlight-extractor` worker (libvips), started on the
/// first picture asked for and kept while the service runs: this process links no decoder.
final class ExtractorThumbnails {
    let logger: Logger
    private var pool: ExtractorPool?
    private var unavailable = false

    init(logger: Logger) {
        self.logger = logger
    }

    deinit { pool?.shutdown() }

    /// The PNG of the file at `path`, at most `edge` pixels; `nil` when the worker cannot draw it.
    func png(_ path: [UInt8], edge: Int) -> [UInt8]? {
        guard !unavailable else { return nil }
        if pool == nil {
            do {
                pool = try ExtractorPool(configuration: .init(workerCount: 1, deadline: .seconds(5)), logger: logger)
            } catch {
                // Without a worker every result keeps its type's icon; said once.
                logger.warning("no thumbnails: \(error)")
                unavailable = true
                return nil
            }
        }
        switch pool!.pngThumbnail(ofFileAtPathBytes: path, edge: edge) {
        case .success(let thumbnail): return thumbnail.bytes
        case .failure(let failure):
            logger.debug("no thumbnail of \(String(decoding: path, as: UTF8.self)): \(failure)")
            return nil
        }
    }
}
