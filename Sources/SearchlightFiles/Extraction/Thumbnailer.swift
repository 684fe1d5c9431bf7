import Logging
import Searchlight

/// Gives images, PDFs and SVGs a thumbnail during a scan, through supervised extraction
/// workers: a file that hangs or crashes its decoder costs a worker, never the indexer.
///
/// Its ``enrich(_:in:)`` is a ``FolderScanner/Enricher``: it runs on the scanner's inspector
/// threads and blocks on the pool, off the Swift cooperative pool.
public final class Thumbnailer: Sendable {
    /// The content types (libmagic's) whose files get a thumbnail: those of the loaders
    /// libvips is allowed to use.
    public static let contentTypes: Set<String> = [
        "image/jpeg", "image/png", "image/gif", "image/webp", "image/tiff", "image/heic", "image/heif",
        "image/avif", "image/jxl", "image/svg+xml", "application/pdf",
    ]

    let pool: ExtractorPool

    /// Starts the extraction workers.
    /// - Throws: ``ExtractorSystemError`` when the worker executable cannot be started.
    public init(configuration: ExtractorPool.Configuration, logger: Logger) throws {
        pool = try ExtractorPool(configuration: configuration, logger: logger)
    }

    /// Makes thumbnails through workers started already (shared with a ``ContentReader``).
    public init(pool: ExtractorPool) {
        self.pool = pool
    }

    /// Whether files of `contentType` get a thumbnail.
    public static func makesThumbnail(for contentType: String?) -> Bool {
        contentType.map(contentTypes.contains) ?? false
    }

    /// Adds a thumbnail (and pixel size) to `item`, or records why there is none.
    /// - Returns: whether the picture looks like it may hold text (see ``ExtractedThumbnail/mayHoldText``).
    @discardableResult
    public func enrich(_ item: inout SearchableItem, in root: RootFolder) -> Bool {
        guard Self.makesThumbnail(for: item.attributeSet.contentType) else { return false }
        switch pool.thumbnail(ofFileAtPathBytes: root.absolutePath(of: item.uniqueIdentifier)) {
        case .success(let extracted):
            item.attributeSet.thumbnail = extracted.thumbnail
            item.attributeSet.pixelWidth = extracted.pixelWidth
            item.attributeSet.pixelHeight = extracted.pixelHeight
            return extracted.mayHoldText
        case .failure(let failure) where failure.isTransient:
            // Says nothing about the file: left without a thumbnail, not marked as failed.
            return false
        case .failure(let failure):
            item.failure = FileFailure(failure.fileFailureKind, "thumbnail: \(failure.message)").stored
            return false
        }
    }

    /// The enricher to give a ``FolderScanner`` or a ``FolderWatcher``.
    public var enricher: FolderScanner.Enricher {
        { [self] item, root in enrich(&item, in: root) }
    }

    /// Stops the workers.
    public func shutdown() { pool.shutdown() }
}
