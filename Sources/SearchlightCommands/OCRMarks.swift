import Searchlight
import SearchlightFiles

/// Which items' text was recognised in a picture (OCR), for `show` and `status`: read from
/// the index's OCR store, when OCR ever ran for it.
struct OCRMarks {
    /// What `show` prints as `textContentSource` for such an item.
    static let label = "recognised (OCR)"

    let store: OCRStore?

    init(index: any IndexStore) {
        store = OCRStore.existing(for: index)
    }

    func isRecognized(_ item: SearchableItem) -> Bool {
        (try? store?.isRecognized(domain: item.domainIdentifier, identifier: item.uniqueIdentifier)) ?? false
    }

    /// Pictures waiting for OCR; nil when OCR never ran for this index.
    var pendingCount: Int? { try? store?.pendingCount() }

    /// `status --json`'s object with `"ocrQueue": N` (pictures waiting) when OCR ran for the index.
    func addingQueue(to object: [UInt8]) -> [UInt8] {
        guard let pending = pendingCount, object.last == UInt8(ascii: "}") else { return object }
        return object.dropLast() + Array(",\"ocrQueue\":\(pending)}".utf8)
    }
}
