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
    /// itself), or a PDF with a scanned page — a page with almost no text layer of its own,
    /// as the worker judged each page (`scannedPages`; the document's metadata never counts).
    /// A PDF whose content was not read (content off) is queued: the worker judges its pages then.
    static func wantsOCR(_ attributes: AttributeSet, mayHoldText: Bool?, scannedPages: Int?) -> Bool {
        guard let type = attributes.contentType else { return false }
        if ocrImageTypes.contains(type) {
            return mayHoldText ?? true
        }
        if type == "application/pdf" {
            return (scannedPages ?? 1) > 0
        }
        return false
    }

    /// Queues `item` for the second pass when it is a picture that may hold text.
    func queueForOCR(_ item: SearchableItem, in root: RootFolder, mayHoldText: Bool?, scannedPages: Int?, queue: OCRStore) {
        guard item.failure == nil, Self.wantsOCR(item.attributeSet, mayHoldText: mayHoldText, scannedPages: scannedPages),
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

extension ItemExtraction {
    /// Queues once the pictures and PDFs of `domain` that OCR never read
    /// (``OCRStore/queueOlderItems(of:domain:root:)``), when OCR is on; a failure is logged,
    /// never the reason a scan or a watch fails.
    /// - Parameter onlyIfEmpty: only records a domain with no items as done (cheap, before its
    ///   first scan: the first pass queues what it indexes).
    public func queueOlderItems(of index: any IndexWriter, domain: String, root: String, onlyIfEmpty: Bool = false) {
        guard let ocrQueue else { return }
        do {
            if onlyIfEmpty, try index.itemCount(domain: domain) > 0 { return }
            if let count = try ocrQueue.queueOlderItems(of: index, domain: domain, root: root), count > 0 {
                logger.notice("ocr: queued \(count) pictures and PDFs indexed before OCR", metadata: ["domain": "\(domain)"])
            }
        } catch {
            logger.warning("ocr: cannot queue the items indexed before OCR: \(error)")
        }
    }
}
