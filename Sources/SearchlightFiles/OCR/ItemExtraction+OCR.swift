import Foundation
import Logging
import Searchlight

extension ItemExtraction {
    /// The raster images OCR reads.
    public static let ocrImageTypes: Set<String> = [
        "image/jpeg", "image/png", "image/gif", "image/webp", "image/tiff", "image/heic", "image/heif",
        "image/avif", "image/jxl", "image/bmp",
    ]

    /// Whether the first pass queues `item` for OCR: an image that may hold text (the quick
    /// look at its thumbnail, `mayHoldText`, when thumbnails are made; else the worker looks
    /// itself), or a PDF whose text layer is empty or nearly so (fewer than 16 letters a page).
    static func wantsOCR(_ attributes: AttributeSet, mayHoldText: Bool?) -> Bool {
        guard let type = attributes.contentType else { return false }
        if ocrImageTypes.contains(type) {
            return mayHoldText ?? true
        }
        if type == "application/pdf" {
            let letters = attributes.textContent?.unicodeScalars.lazy.filter { !$0.properties.isWhitespace }.count ?? 0
            return letters < 16 * max(1, attributes.pageCount ?? 1)
        }
        return false
    }

    /// Queues `item` for the second pass when it is a picture that may hold text.
    func queueForOCR(_ item: SearchableItem, in root: RootFolder, mayHoldText: Bool?, queue: OCRStore) {
        guard item.failure == nil, Self.wantsOCR(item.attributeSet, mayHoldText: mayHoldText),
              let type = item.attributeSet.contentType else { return }
        do {
            try queue.enqueue([OCRStore.Entry(domain: item.domainIdentifier, identifier: item.uniqueIdentifier,
                                              root: root.path, contentType: type, changeStamp: item.changeStamp,
                                              queued: Date())])
        } catch {
            logger.warning("cannot queue for OCR: \(error)")
        }
    }
}
