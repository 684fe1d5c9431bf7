// Glibc for free(3) of what the C shim allocates.
import Glibc
import CShimGsf
import ExtractionProtocol

/// The summary information of a Word, Excel or PowerPoint 97–2003 file (OLE2's
/// `\005SummaryInformation` and `\005DocumentSummaryInformation`), through libgsf.
enum CompoundFileSummary {
    /// Fills title, author, subject, keywords, dates and page or slide count into `document`.
    /// A file without summary streams leaves it as it is.
    /// The corresponding C function is `cole2_read_summary`.
    static func read(descriptor: Int32, into document: inout ExtractedDocument) throws(ExtractionFailure) {
        var summary = cole2_summary()
        var message: UnsafeMutablePointer<CChar>?
        guard cole2_read_summary(descriptor, &summary, &message) == 0 else {
            defer { free(message) }
            throw ExtractionFailure(.decodeFailed, message.map { String(cString: $0) } ?? "not an OLE2 compound file")
        }
        defer { cole2_summary_clear(&summary) }
        func string(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
            pointer.map { String(cString: $0) }.nonBlank
        }
        document.title = string(summary.title) ?? document.title
        if let author = string(summary.author) { document.authors = MetadataList.authors(author) }
        document.subject = string(summary.subject) ?? string(summary.comments) ?? document.subject
        if let keywords = string(summary.keywords) { document.keywords = MetadataList.keywords(keywords) }
        if summary.created > 0 { document.creationDate = Double(summary.created) }
        if summary.modified > 0 { document.modificationDate = Double(summary.modified) }
        if summary.slide_count > 0 {
            document.pageCount = Int(summary.slide_count)
        } else if summary.page_count > 0 {
            document.pageCount = Int(summary.page_count)
        }
    }

    /// The first `limit` bytes of a root stream, such as `PowerPoint Document`.
    /// The corresponding C function is `cole2_read_stream`.
    static func stream(_ name: String, descriptor: Int32, limit: Int) throws(ExtractionFailure) -> [UInt8] {
        var length = 0
        var message: UnsafeMutablePointer<CChar>?
        guard let bytes = cole2_read_stream(descriptor, name, limit, &length, &message) else {
            defer { free(message) }
            throw ExtractionFailure(.decodeFailed, "\(name): \(message.map { String(cString: $0) } ?? "cannot read")")
        }
        defer { free(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: length))
    }
}
