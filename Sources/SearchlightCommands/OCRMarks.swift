import ExtractionProtocol
import Foundation
import Searchlight
import SearchlightFiles
import SearchlightJSON

/// Which items' text was recognised in a picture (OCR), for `show` and `status`: read from
/// the index's OCR store, when OCR ever ran for it.
struct OCRMarks {
    /// What `show` prints as `textContentSource` for such an item.
    static let label = "recognised (OCR)"

    let store: OCRStore?

    init(index: any IndexWriter) {
        store = OCRStore.existing(for: index)
    }

    /// How the item's text came from OCR, nil when it did not.
    func recognition(of item: SearchableItem) -> OCRStore.Recognition? {
        (try? store?.recognition(domain: item.domainIdentifier, identifier: item.uniqueIdentifier)) ?? nil
    }

    /// `show`'s `recognizedPages`: "3 of 3 scanned pages", or "10 of 14 scanned pages (ocr-page-limit = 10)".
    static func describe(_ pages: RecognizedText.Pages) -> String {
        var text = "\(pages.read) of \(pages.scanned) scanned page" + (pages.scanned == 1 ? "" : "s")
        if pages.read < pages.scanned { text += " (ocr-page-limit = \(pages.limit))" }
        return text
    }

    /// Pictures waiting for OCR; nil when OCR never ran for this index.
    var pendingCount: Int? { try? store?.pendingCount() }

    /// `status --json`'s object with `"ocrQueue": N` (pictures waiting) when OCR ran for the
    /// index, and `"ocrLanguages"`.
    func addingQueue(to object: [UInt8], languages: OCRLanguageStatus) -> [UInt8] {
        guard object.last == UInt8(ascii: "}") else { return object }
        var members = Array(",\"ocrLanguages\":".utf8) + languages.json.finished
        if let pending = pendingCount { members += Array(",\"ocrQueue\":\(pending)".utf8) }
        return object.dropLast() + members + [UInt8(ascii: "}")]
    }
}

/// Which of Tesseract's language packs OCR reads with, which are installed and which are
/// missing, for `status`: the configured languages (`ocr-languages`), the locale's, and the
/// installed languages of other scripts, which read pages in those scripts.
struct OCRLanguageStatus {
    /// The languages every page is read with.
    var configured: [String]
    /// Every installed language.
    var installed: [String]
    /// Configured or locale languages that are not installed, with their Debian packages.
    var missing: [(language: String, package: String)]

    init(configured: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
         installed: [String] = TesseractLanguages.installed()) {
        self.configured = configured
        self.installed = installed
        var wanted = configured
        for language in TesseractLanguages.ofLocale(environment) where !wanted.contains(language) { wanted.append(language) }
        missing = wanted.filter { !installed.contains($0) }.map { ($0, TesseractLanguages.debianPackage(of: $0)) }
    }

    /// The installed languages read only for pages in their script.
    var forOtherScripts: [String] { installed.filter { !configured.contains($0) } }

    /// `status`'s line.
    var line: String {
        let usable = configured.filter(installed.contains)
        var text = "ocr languages: " + (usable.isEmpty ? "none" : usable.joined(separator: ", "))
        if !forOtherScripts.isEmpty { text += "; for other scripts: " + forOtherScripts.joined(separator: ", ") }
        if !missing.isEmpty {
            text += "; missing: " + missing.map(\.language).joined(separator: ", ")
            text += " (apt install " + missing.map(\.package).joined(separator: " ") + ")"
        }
        return text + "\n"
    }

    /// `status --json`'s `"ocrLanguages"` member.
    var json: JSONLine {
        var object = JSONLine()
        object.add("configured", strings: configured)
        object.add("installed", strings: installed)
        object.add("missing", objects: missing.map { missing in
            var pack = JSONLine()
            pack.add("language", missing.language)
            pack.add("package", missing.package)
            return pack
        })
        return object
    }
}
