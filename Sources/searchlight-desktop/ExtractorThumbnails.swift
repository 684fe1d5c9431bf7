import Logging
import SearchlightFiles

/// PNG pictures of files drawn by one `searchlight-extractor` worker (libvips), started on the
/// first picture asked for and kept while the service runs: this process links no decoder.
final class ExtractorThumbnails {
    let logger: Logger
    private var pool: ExtractorPool?

    init(logger: Logger) {
        self.logger = logger
    }

    deinit { pool?.shutdown() }

    /// The PNG of the file at `path`, at most `edge` pixels, and whether it reads as an icon;
    /// `nil` when the worker cannot draw it.
    func png(_ path: [UInt8], edge: Int) -> ThumbnailCache.Drawing? {
        // Without a worker (the pool's outage, logged once by the pool) every result keeps its
        // type's icon, and the pool tries the executable again after its back-off.
        if pool == nil {
            pool = ExtractorPool(configuration: .init(workerCount: 1, deadline: .seconds(5)), logger: logger)
        }
        switch pool!.pngThumbnail(ofFileAtPathBytes: path, edge: edge) {
        case .success(let drawn): return ThumbnailCache.Drawing(png: drawn.thumbnail.bytes, legibleAsIcon: drawn.legibleAsIcon)
        case .failure(let failure):
            logger.debug("no thumbnail of \(String(decoding: path, as: UTF8.self)): \(failure)")
            return nil
        }
    }
}
