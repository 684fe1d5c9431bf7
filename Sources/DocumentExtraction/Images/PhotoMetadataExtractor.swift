// Glibc for free(3) of what the C shim allocates.
import Glibc
import CShimVips
import ExtractionProtocol

/// Reads a photo's EXIF through libvips' metadata fields, without decoding a pixel: camera
/// make and model, date taken, GPS position, ImageDescription as title, Artist as author,
/// and the size in pixels.
///
/// libvips prints EXIF fields as `raw (human, type, count, size)`; the raw part is used.
/// A date without `OffsetTimeOriginal` is taken as UTC. Call `cvips_initialize` first.
///
/// Reads only the file's header, so it costs about the same for a 100-megapixel photo as for
/// a small one.
///
/// ```swift
/// try PhotoMetadataExtractor.startLibvips()
/// let photo = try PhotoMetadataExtractor.extract(descriptor: fd)
/// print(photo.acquisitionModel ?? "?", photo.latitude ?? 0, photo.longitude ?? 0)
/// ```
public enum PhotoMetadataExtractor {
    /// Reads the metadata of the photo open at `descriptor` (the worker's file); no text.
    ///
    /// The creation date is `DateTimeOriginal` (else `DateTime`), moved to UTC by
    /// `OffsetTimeOriginal`; the modification date is `DateTime`, moved by `OffsetTime`. A GPS
    /// position outside 0–90° or 0–180° before its hemisphere is applied is left out.
    ///
    /// - Throws: ``ExtractionFailure/Reason-swift.enum/decodeFailed`` when libvips cannot read the
    ///   image's header.
    /// - Parameter descriptor: An image open for reading; it is not closed.
    /// - Returns: The size, camera, dates, position, title and author found; fields the photo
    ///   lacks stay `nil`.
    public static func extract(descriptor: Int32) throws(ExtractionFailure) -> ExtractedDocument {
        var message: UnsafeMutablePointer<CChar>?
        guard let image = cvips_header_open(descriptor, &message) else {
            defer { free(message) }
            throw ExtractionFailure(.decodeFailed, message.map { String(cString: $0) } ?? "cannot read the image's header")
        }
        defer { cvips_header_close(image) }
        func field(_ name: String) -> String? {
            guard let value = cvips_header_field(image, name) else { return nil }
            defer { free(value) }
            return rawValue(String(cString: value))
        }

        var result = ExtractedDocument()
        result.pixelWidth = Int(cvips_header_width(image))
        result.pixelHeight = Int(cvips_header_height(image))
        result.acquisitionMake = field("exif-ifd0-Make").nonBlank
        result.acquisitionModel = field("exif-ifd0-Model").nonBlank
        result.title = field("exif-ifd0-ImageDescription").nonBlank
        if let artist = field("exif-ifd0-Artist").nonBlank { result.authors = [artist] }
        if let taken = (field("exif-ifd2-DateTimeOriginal") ?? field("exif-ifd0-DateTime")).flatMap(exifDate) {
            let offset = field("exif-ifd2-OffsetTimeOriginal").flatMap(zoneOffset) ?? 0
            result.creationDate = taken - offset
        }
        if let modified = field("exif-ifd0-DateTime").flatMap(exifDate) {
            result.modificationDate = modified - (field("exif-ifd2-OffsetTime").flatMap(zoneOffset) ?? 0)
        }
        if let latitude = field("exif-ifd3-GPSLatitude").flatMap(degrees),
           let longitude = field("exif-ifd3-GPSLongitude").flatMap(degrees),
           (0...90).contains(latitude), (0...180).contains(longitude) {
            let south = field("exif-ifd3-GPSLatitudeRef")?.hasPrefix("S") == true
            let west = field("exif-ifd3-GPSLongitudeRef")?.hasPrefix("W") == true
            result.latitude = south ? -latitude : latitude
            result.longitude = west ? -longitude : longitude
        }
        return result
    }

    /// The raw part of a libvips EXIF string: what comes before ` (`.
    ///
    /// A value that itself holds ` (` is cut there: libvips gives no way to tell.
    static func rawValue(_ printed: String) -> String {
        guard let range = printed.range(of: " (") else { return printed }
        return String(printed[..<range.lowerBound])
    }

    /// EXIF's `YYYY:MM:DD HH:MM:SS`, as if UTC; nil for the blank `0000:00:00 00:00:00`.
    static func exifDate(_ text: String) -> Double? {
        DocumentDate.parse(text)
    }

    /// `+02:00` as seconds east of UTC.
    ///
    /// - Returns: The offset, or `nil` for text that is not `±HH:MM` at its start.
    static func zoneOffset(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 6, bytes[0] == 0x2B || bytes[0] == 0x2D,
              let hours = Int(String(decoding: bytes[1..<3], as: UTF8.self)),
              let minutes = Int(String(decoding: bytes[4..<6], as: UTF8.self))
        else { return nil }
        let seconds = Double(hours * 3600 + minutes * 60)
        return bytes[0] == 0x2D ? -seconds : seconds
    }

    /// Three rationals `d/1 m/1 s/100` as decimal degrees.
    ///
    /// A part without `/` is taken as a whole number; a zero denominator makes the whole value
    /// `nil`.
    static func degrees(_ text: String) -> Double? {
        let parts = text.split(separator: " ").map { part -> Double? in
            let fraction = part.split(separator: "/")
            guard let numerator = Double(fraction[0]) else { return nil }
            guard fraction.count == 2 else { return numerator }
            guard let denominator = Double(fraction[1]), denominator != 0 else { return nil }
            return numerator / denominator
        }
        guard parts.count == 3, let d = parts[0], let m = parts[1], let s = parts[2] else { return nil }
        return d + m / 60 + s / 3600
    }
}

extension PhotoMetadataExtractor {
    /// Starts libvips for this process (once; later calls do nothing) with the worker's
    /// settings: needed before ``extract(descriptor:)`` outside the worker, as in tests.
    /// The corresponding C function is `cvips_initialize`.
    ///
    /// Safe to call from any number of threads at once.
    ///
    /// - Throws: ``ExtractionFailure`` `internalError` with libvips' reason when it cannot start;
    ///   every later call throws the same.
    public static func startLibvips() throws(ExtractionFailure) {
        try libvipsStart.get()
    }

    /// Whether libvips started: computed once per process (a static is initialized once, under
    /// a lock), so that threads starting it at the same time (parallel tests) do not race
    /// through its class set-up, which crashed inside GLib.
    private static let libvipsStart: Result<Void, ExtractionFailure> = {
        guard cvips_initialize("searchlight-extractor") == 0 else {
            let text = cvips_copy_error()
            defer { free(text) }
            return .failure(ExtractionFailure(.internalError, "cannot start libvips: \(text.map { String(cString: $0) } ?? "")"))
        }
        return .success(())
    }()
}
