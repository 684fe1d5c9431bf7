import ExtractionProtocol

/// The preview picture an iWork package carries, for its thumbnail: `preview.jpg` (2013+),
/// `QuickLook/Thumbnail.jpg` ('09), or a smaller one, read under ``ArchiveLimits``.
public enum IWorkPreview {
    /// The pictures looked for, best first.
    static let candidates = ["preview.jpg", "QuickLook/Thumbnail.jpg", "preview-web.jpg", "QuickLook/Preview.jpg",
                             "Thumbnail.jpg", "preview-micro.jpg"]

    /// The bytes of the package's preview picture, or nil when it has none.
    /// - Throws: ``ExtractionFailure`` when the file is not a ZIP package or the picture
    ///   breaks the limits.
    public static func image(descriptor: Int32, limits: ArchiveLimits = ArchiveLimits()) throws(ExtractionFailure) -> [UInt8]? {
        let package = try ZipPackage(descriptor: descriptor, limits: limits)
        for name in candidates {
            // At the package's root, or below the one folder some packages are zipped in.
            let path = package.contains(name) ? name : package.paths.first { $0.hasSuffix("/" + name) && $0.split(separator: "/").count == name.split(separator: "/").count + 1 }
            if let path, let bytes = try package.data(path), !bytes.isEmpty { return bytes }
        }
        return nil
    }
}
