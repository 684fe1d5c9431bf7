import CLibZlib
import Foundation
import SystemCalls
import SystemPackage

/// The freedesktop thumbnail cache (Thumbnail Managing Standard 0.9) at
/// `$XDG_CACHE_HOME/thumbnails/large` (256 pixels): a file's entry is the PNG named by the MD5
/// of its URI, valid while its `Thumb::MTime` text chunk is the file's modification time and its
/// `Thumb::URI` the file's URI. GNOME Shell loads a result's icon from there, and file
/// managers share the entries.
///
/// A valid entry is reused; otherwise ``make`` draws the PNG (the extraction worker: this
/// process links no image library) and the entry is written with its text chunks, in a folder
/// of mode 0700, as a file of mode 0600, renamed into place so no reader sees half of it.
/// Besides the standard's chunks, an entry of ours says whether the picture still reads at a
/// search row's icon size (``legibleKey``, judged by the worker on the pixels); an entry another
/// program made lacks it and is drawn again once.
final class ThumbnailCache {
    /// A valid entry: the PNG's path, and whether it reads as an icon.
    struct Entry: Equatable {
        var path: String
        var legibleAsIcon: Bool
    }

    /// A picture drawn by ``make``: the PNG, and whether it reads as an icon.
    struct Drawing {
        var png: [UInt8]
        var legibleAsIcon: Bool
    }

    /// The folder of the 256-pixel entries.
    let folder: String
    /// Draws a PNG of at most `edge` pixels of the file at a path; `nil` when it cannot.
    let make: (_ path: [UInt8], _ edge: Int) -> Drawing?

    /// The text chunk of ours: "1" when the picture reads at an icon's size, "0" when it is a
    /// page of text or blank there (the standard leaves `X-` keys to applications).
    static let legibleKey = "X-Searchlight::LegibleAsIcon"

    static let edge = 256

    init(environment: [String: String] = ProcessInfo.processInfo.environment,
         make: @escaping (_ path: [UInt8], _ edge: Int) -> Drawing?) {
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        folder = cache + "/thumbnails/large"
        self.make = make
    }

    /// The valid entry for the file at `path`, made when there is none (or when it does not say
    /// whether it reads as an icon); `nil` when the file is gone or no picture can be made of it.
    func thumbnail(ofFileAt path: [UInt8]) -> Entry? {
        guard let modified = Self.modificationTime(path) else { return nil }
        let uri = FileURI.string(path: path)
        let entry = folder + "/" + MD5.hex(Array(uri.utf8)) + ".png"
        if let existing = FileManager.default.contents(atPath: entry),
           let text = PNGText.chunks(of: Array(existing)),
           text["Thumb::URI"] == uri, text["Thumb::MTime"] == String(modified),
           let legible = text[Self.legibleKey] {
            return Entry(path: entry, legibleAsIcon: legible == "1")
        }
        guard let drawing = make(path, Self.edge),
              let annotated = PNGText.inserting(["Thumb::URI": uri, "Thumb::MTime": String(modified),
                                                 Self.legibleKey: drawing.legibleAsIcon ? "1" : "0"], into: drawing.png),
              write(annotated, to: entry) else { return nil }
        return Entry(path: entry, legibleAsIcon: drawing.legibleAsIcon)
    }

    private func write(_ bytes: [UInt8], to entry: String) -> Bool {
        do {
            // mkdir -p with mode 0700 for every folder it creates.
            try SystemCall.makeDirectories(folder)
            try SystemCall.replaceFile(entry, with: bytes)
            return true
        } catch {
            return false
        }
    }

    /// The file's modification time in whole seconds, as `Thumb::MTime` holds it.
    static func modificationTime(_ path: [UInt8]) -> Int? {
        (try? SystemCall.status(ofPath: path)).map { Int($0.modificationSeconds) }
    }
}

/// The `tEXt` chunks of a PNG: read them, and add some after the header chunk.
enum PNGText {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Keyword → text of every `tEXt` chunk (Latin-1); `nil` when `png` is not a well-formed PNG.
    static func chunks(of png: [UInt8]) -> [String: String]? {
        var text: [String: String] = [:]
        guard forEachChunk(png, { type, data in
            if type == "tEXt", let zero = data.firstIndex(of: 0) {
                let keyword = String(decoding: data[data.startIndex..<zero], as: UTF8.self)
                text[keyword] = String(data[(zero + 1)...].map { Character(Unicode.Scalar($0)) })
            }
        }) else { return nil }
        return text
    }

    /// `png` with a `tEXt` chunk per pair right after `IHDR`; `nil` when it is not a PNG.
    static func inserting(_ text: [String: String], into png: [UInt8]) -> [UInt8]? {
        guard png.count > 33, Array(png[0..<8]) == signature, String(decoding: png[12..<16], as: UTF8.self) == "IHDR",
              forEachChunk(png, { _, _ in }) else { return nil }
        let headerEnd = 8 + 12 + 13
        var output = Array(png[..<headerEnd])
        for (keyword, value) in text.sorted(by: { $0.key < $1.key }) {
            output += chunk(type: "tEXt", data: Array(keyword.utf8) + [0] + value.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
        }
        return output + png[headerEnd...]
    }

    static func chunk(type: String, data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let crc = UInt32(body.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) })
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc)
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    /// Calls `body` with each chunk's type and data up to `IEND`; false when the bytes are not a PNG.
    private static func forEachChunk(_ png: [UInt8], _ body: (String, ArraySlice<UInt8>) -> Void) -> Bool {
        guard png.count >= 8, Array(png[0..<8]) == signature else { return false }
        var at = 8
        while at + 12 <= png.count {
            let length = Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
            let type = String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self)
            guard at + 12 + length <= png.count else { return false }
            body(type, png[(at + 8)..<(at + 8 + length)])
            if type == "IEND" { return true }
            at += 12 + length
        }
        return false
    }
}
