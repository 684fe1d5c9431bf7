import ExtractionProtocol
import SystemCalls
import SystemPackage

/// Where the thumbnail of an iWork document comes from: the preview picture inside its
/// package, held in an anonymous file for libvips.
enum IWorkThumbnail {
    /// The package's preview picture when the file at `path` is an iWork document (by its
    /// name and ZIP signature); nil for every other file, which libvips reads as it is.
    static func previewSource(descriptor: Int32, path: [UInt8]) throws(ExtractionFailure) -> DocumentSource? {
        let name = path.split(separator: UInt8(ascii: "/")).last ?? []
        guard DocumentFormat(contentType: "application/zip", fileName: name) == .iWork else { return nil }
        var signature = [UInt8](repeating: 0, count: 4)
        let count = try? signature.withUnsafeMutableBytes { raw in
            Result { () throws(Errno) in try SystemCall.read(descriptor, into: raw, at: 0) }
        }.get()
        guard count == 4, signature == [0x50, 0x4B, 0x03, 0x04] else { return nil }
        guard let image = try IWorkPreview.image(descriptor: descriptor) else {
            throw ExtractionFailure(.notAnImage, "an iWork document without a preview picture")
        }
        return try DocumentSource(bytes: image, path: path, textLimit: 0, contentType: "image/jpeg")
    }
}
