import DocumentExtraction
import Glibc
import ExtractionProtocol
import SystemCalls

/// Where the thumbnail of an iWork document comes from: the preview picture inside its
/// package, held in an anonymous file for libvips.
enum IWorkThumbnail {
    /// The package's preview picture when the file at `path` is an iWork document (by its
    /// name and ZIP signature); nil for every other file, which libvips reads as it is.
    static func previewSource(descriptor: Int32, path: [UInt8]) throws(DocumentExtractionError) -> DocumentSource? {
        let name = path.split(separator: UInt8(ascii: "/")).last ?? []
        guard DocumentFormat(contentType: "application/zip", fileName: name) == .iWork else { return nil }
        guard (try? SystemCall.readBytes(descriptor, limit: 4, at: 0)) == [0x50, 0x4B, 0x03, 0x04] else { return nil }
        let image: [UInt8]?
        do {
            image = try IWorkPreview.image(descriptor: descriptor)
        } catch {
            throw DocumentExtractionError(error.failureCode, error.message)
        }
        guard let image else {
            throw DocumentExtractionError(.notAnImage, "an iWork document without a preview picture")
        }
        return try DocumentSource(bytes: image, path: path, textLimit: 0, contentType: "image/jpeg")
    }
}
