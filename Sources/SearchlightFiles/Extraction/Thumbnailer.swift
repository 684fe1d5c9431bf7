import ExtractionProtocol
import Logging
import Searchlight

/// Gives images, PDFs and SVGs a thumbnail during a scan, through supervised extraction
/// workers: a file that hangs or crashes its decoder costs a worker, never the indexer.
///
/// Part of step ③, extraction (``ItemExtraction``): its ``enrich(_:in:)`` runs on the pipeline's inspector
/// threads and blocks on the pool, off the Swift cooperative pool.
///
/// ```swift
/// let thumbnailer = Thumbnailer(configuration: .init(thumbnailSize: 256), logger: logger)
/// defer { thumbnailer.shutdown() }
/// var item = SearchableItem(uniqueIdentifier: "photos/beach.jpg", domainIdentifier: domain, attributeSet: attributes)
/// let added = thumbnailer.enrich(&item, in: root)   // on an inspector thread: it waits for a worker
/// ```
public final class Thumbnailer: Sendable {
    /// The content types (libmagic's) whose files get a thumbnail: those of the loaders
    /// libvips is allowed to use.
    public static let contentTypes: Set<String> = [
        "image/jpeg", "image/png", "image/gif", "image/webp", "image/tiff", "image/heic", "image/heif",
        "image/avif", "image/jxl", "image/svg+xml", "application/pdf",
    ]

    let pool: ExtractorPool

    /// Starts the extraction workers.
    public init(configuration: ExtractorPool.Configuration, logger: Logger) {
        pool = ExtractorPool(configuration: configuration, logger: logger)
    }

    /// Makes thumbnails through workers started already (shared with a ``ContentReader``).
    public init(pool: ExtractorPool) {
        self.pool = pool
    }

    /// Whether files of `contentType` get a thumbnail.
    public static func makesThumbnail(for contentType: String?) -> Bool {
        contentType.map(contentTypes.contains) ?? false
    }

    /// Whether `item` is an iWork document, whose thumbnail is the preview its package carries.
    static func isIWorkDocument(_ item: SearchableItem) -> Bool {
        guard let type = item.attributeSet.contentType else { return false }
        let name = item.uniqueIdentifier.bytes.split(separator: 0x2F).last ?? []
        return DocumentFormat(contentType: type, fileName: name) == .iWork
    }

    /// Adds a thumbnail (and pixel size) to `item`, or records why there is none.
    /// - Returns: whether the picture looks like it may hold text (see ``ExtractedThumbnail/mayHoldText``).
    @discardableResult
    public func enrich(_ item: inout SearchableItem, in root: RootFolder) -> Bool {
        let isPicture = Self.makesThumbnail(for: item.attributeSet.contentType)
        guard isPicture || Self.isIWorkDocument(item) else { return false }
        switch pool.thumbnail(ofFileAtPathBytes: root.absolutePath(of: item.uniqueIdentifier)) {
        case .success(let extracted):
            item.attributeSet.thumbnail = extracted.thumbnail
            // A preview's size is not the document's.
            guard isPicture else { return false }
            item.attributeSet.pixelWidth = extracted.pixelWidth
            item.attributeSet.pixelHeight = extracted.pixelHeight
            return extracted.mayHoldText
        case .failure(let failure) where failure.isTransient:
            // Says nothing about the file: left without a thumbnail, not marked as failed, and
            // stored without a change stamp, so that a later scan or watch makes it.
            item.changeStamp = nil
            return false
        case .failure where !isPicture:
            // Of a document, only that its preview is missing or unreadable: left without a
            // thumbnail, not marked as failed.
            return false
        case .failure(let failure):
            item.failure = ExtractionFailure(failure.reason, "thumbnail: \(failure.message)").stored
            return false
        }
    }

    /// Stops the workers.
    public func shutdown() { pool.shutdown() }
}
