import ExtractionProtocol
import Foundation
import Logging
import Searchlight
@testable import SearchlightFiles
import SearchlightTestSupport
import Testing

/// OCR decided page by page (issue 34): scanned PDFs whatever their metadata says, a scanned
/// page inside a PDF of text, the page limit, items indexed before OCR, pages in other
/// scripts — through real workers, a real index and real files the tests write.
@Suite("Scanned pages: OCR decided by each page", .serialized, .ownThread)
struct ScannedPageTests {
    let tree = TemporaryTree("scanned-pages")
    let scratch = TemporaryTree("scanned-pages-scratch")

    /// A scan as a scanner makes it: a page of `text` in a serif font, lightly speckled.
    static func scan(_ text: String) -> TextPictures.PDFPage {
        .scan(.init(text, font: "DejaVu Serif 12", dpi: 150, noise: 6))
    }

    /// Indexes `tree` (first pass, with the OCR queue), then reads the queue (second pass).
    func index(pageLimit: Int = 10, ocr: Bool = true) throws -> (SearchableIndex, OCRStore, TextRecognizer.Summary) {
        let indexPath = scratch.url("index.sqlite")
        let index = try SearchableIndex(path: indexPath)
        let queue = try OCRStore(path: indexPath + "-ocr", indexPath: indexPath)
        var configuration = ExtractorPool.Configuration(workerCount: 1)
        configuration.ocr = OCRSettings(pageLimit: pageLimit)
        let extraction = ItemExtraction(options: .init(thumbnails: false, ocrQueue: ocr ? queue : nil),
                                        pool: try ExtractorPool(configuration: configuration, logger: Logger(label: "test")),
                                        logger: Logger(label: "test"))
        defer { extraction.shutdown() }
        let scanner = FolderScanner(index: index, root: try RootFolder(path: tree.path), options: .init(domain: "scans", pipeline: .init(extraction: extraction)),
                                    logger: Logger(label: "test"))
        _ = try scanner.reconcile()
        let summary = TextRecognizer(store: queue, index: index, pool: extraction.pool, logger: Logger(label: "test"))
            .run(threads: 1)
        return (index, queue, summary)
    }

    static func found(_ word: String, in index: SearchableIndex) throws -> [String] {
        try index.searchIdentifiers(words: [word], domain: nil, limit: nil, scope: .all).map(\.lossyString).sorted()
    }

    @Test("A scanned PDF is read whatever its metadata says (tiff2pdf's Subject, a title, keywords)")
    func metadataDoesNotHideAScan() throws {
        TextPictures.writePDF([Self.scan("Invoice 5521 for replacing the greenhouse glazing")],
                              info: ["Subject": "Converted: Tue Sep 28 17:32:00 1993", "Title": "scan0001",
                                     "Keywords": "scanner, flatbed, converted", "Producer": "tiff2pdf / libtiff"],
                              to: tree.url("converted.pdf"), scratch: scratch.path)
        let (index, queue, summary) = try index()
        #expect(summary.withText == 1, "\(summary)")
        #expect(try Self.found("greenhouse", in: index) == ["converted.pdf"])
        #expect(try Self.found("glazing", in: index) == ["converted.pdf"])
        // The metadata stays searchable too.
        #expect(try Self.found("converted", in: index) == ["converted.pdf"])
        #expect(try queue.recognition(domain: "scans", identifier: "converted.pdf")?.pages
            == .init(scanned: 1, read: 1, limit: 10))
    }

    @Test("A scanned page inside a PDF of text is read, and its text lands at the page's place")
    func scannedPageAmongTextPages() throws {
        TextPictures.writePDF([.text("Chapter one tells of the chandlery by the harbour."),
                               Self.scan("Receipt for seventeen herring boats"),
                               .text("Chapter three ends at the lighthouse.")],
                              to: tree.url("mixed.pdf"), scratch: scratch.path)
        let (index, queue, _) = try index()
        #expect(try Self.found("herring", in: index) == ["mixed.pdf"])
        #expect(try Self.found("chandlery", in: index) == ["mixed.pdf"])
        let text = try #require(try index.item("mixed.pdf", domain: "scans")?.item.attributeSet.textContent)
        let first = try #require(text.range(of: "chandlery")), scanned = try #require(text.range(of: "herring")),
            last = try #require(text.range(of: "lighthouse"))
        #expect(first.upperBound < scanned.lowerBound && scanned.upperBound < last.lowerBound, "\(text)")
        #expect(try queue.recognition(domain: "scans", identifier: "mixed.pdf")?.pages == .init(scanned: 1, read: 1, limit: 10))
    }

    @Test("A scan with an app's stamp in its text layer is still a scan")
    func stampedScan() throws {
        TextPictures.writePDF([.stampedScan(.init("Warranty card for the espresso grinder", font: "DejaVu Serif 12", dpi: 150),
                                            stamp: "Scanned by CamScanner Pro on 2024-03-02 with the app")],
                              to: tree.url("stamped.pdf"), scratch: scratch.path)
        let (index, _, _) = try index()
        #expect(try Self.found("camscanner", in: index) == ["stamped.pdf"])
        #expect(try Self.found("espresso", in: index) == ["stamped.pdf"])
    }

    @Test("Every page of a multi-page TIFF (a scanner's, a fax's) is read")
    func multiPageTIFF() throws {
        TextPictures.write(.init("Delivery note for twelve oak barrels"), to: scratch.url("one.png"), scratch: scratch.path)
        TextPictures.write(.init("Second sheet lists copper kettles"), to: scratch.url("two.png"), scratch: scratch.path)
        // Two sheets of one size, one above the other, saved as a TIFF of two pages.
        for name in ["one", "two"] {
            shell("vips", "gravity", scratch.url("\(name).png"), scratch.url("\(name).v"), "north-west", "1600", "400",
                  "--extend", "white")
        }
        shell("vips", "join", scratch.url("one.v"), scratch.url("two.v"), scratch.url("both.v"), "vertical")
        shell("vips", "tiffsave", scratch.url("both.v"), tree.url("fax.tif"), "--page-height", "400", "--compression", "lzw")
        let (index, _, _) = try index()
        #expect(try Self.found("barrels", in: index) == ["fax.tif"])
        #expect(try Self.found("kettles", in: index) == ["fax.tif"])
    }

    @Test("A PDF whose every page has text is never queued; the page limit is kept and recorded")
    func textPDFsAndThePageLimit() throws {
        TextPictures.writePDF([.text("Only text here, about quinces and marmalade, on a page of its own.")],
                              to: tree.url("text.pdf"), scratch: scratch.path)
        TextPictures.writePDF([Self.scan("First page about walnuts"), Self.scan("Second page about chestnuts"),
                               Self.scan("Third page about hazelnuts")],
                              to: tree.url("long.pdf"), scratch: scratch.path)
        let (index, queue, summary) = try index(pageLimit: 2)
        #expect(summary.processed == 1, "only the scan is queued: \(summary)")
        #expect(try Self.found("walnuts", in: index) == ["long.pdf"])
        #expect(try Self.found("chestnuts", in: index) == ["long.pdf"])
        #expect(try Self.found("hazelnuts", in: index).isEmpty, "past the page limit")
        #expect(try queue.recognition(domain: "scans", identifier: "long.pdf")?.pages == .init(scanned: 3, read: 2, limit: 2))
        #expect(try queue.recognition(domain: "scans", identifier: "text.pdf") == nil)
        #expect(try Self.found("marmalade", in: index) == ["text.pdf"])
    }

    @Test("Pictures and PDFs indexed before OCR are queued once, and read")
    func olderItemsAreQueuedOnce() throws {
        TextPictures.writePDF([Self.scan("Tenancy agreement for the flat above the bakery")],
                              to: tree.url("tenancy.pdf"), scratch: scratch.path)
        TextPictures.write(.init("Quince marmalade recipe"), to: tree.url("recipe.png"), scratch: scratch.path)
        try "plain words, and marmalade too".write(toFile: tree.url("notes.txt"), atomically: true, encoding: .utf8)
        // Indexed without OCR, as before OCR existed.
        let (index, queue, _) = try index(ocr: false)
        #expect(try Self.found("marmalade", in: index) == ["notes.txt"])
        #expect(try Self.found("bakery", in: index).isEmpty)
        #expect(try queue.pendingCount() == 0)
        let queued = try queue.queueOlderItems(of: index, domain: "scans", root: tree.path)
        #expect(queued == 2)
        #expect(try queue.queueOlderItems(of: index, domain: "scans", root: tree.path) == nil, "once only")
        let pool = try ExtractorPool(configuration: .init(workerCount: 1), logger: Logger(label: "test"))
        defer { pool.shutdown() }
        let summary = TextRecognizer(store: queue, index: index, pool: pool, logger: Logger(label: "test")).run(threads: 1)
        #expect(summary.withText == 2, "\(summary)")
        #expect(try Self.found("bakery", in: index) == ["tenancy.pdf"])
        #expect(try Self.found("marmalade", in: index) == ["notes.txt", "recipe.png"])
        // A domain with no items yet is only recorded: its first scan queues what it finds.
        #expect(try queue.queueOlderItems(of: index, domain: "new", root: tree.path) == 0)
        #expect(try queue.queueOlderItems(of: index, domain: "new", root: tree.path) == nil)
    }

    /// Greek and Russian scans, read with English configured: the script detector finds the
    /// page's script, and the installed languages of that script read it; the words are found
    /// as typed, with or without their accents.
    @Test("A Greek or a Russian scan is found by its words, English configured", arguments: [
        ("Ο φύλακας του φάρου μέτρησε δεκαεπτά αλιευτικά σκάφη", ["φύλακας", "φαρου", "σκαφη"], "ell"),
        ("Смотритель маяка насчитал семнадцать рыбацких лодок", ["смотритель", "маяка", "Лодок"], "rus"),
    ])
    func otherScripts(_ phrase: String, _ words: [String], _ language: String) throws {
        try #require(TesseractLanguages.installed().contains(language),
                     "install \(TesseractLanguages.debianPackage(of: language)) (.ci/install-dependencies does)")
        TextPictures.write(.init(phrase, font: "DejaVu Serif 14", dpi: 200), to: tree.url("page.png"), scratch: scratch.path)
        TextPictures.writePDF([Self.scan(phrase)], to: tree.url("scan.pdf"), scratch: scratch.path)
        let (index, _, summary) = try index()
        #expect(summary.withText == 2, "\(summary)")
        for word in words {
            #expect(try Self.found(word, in: index) == ["page.png", "scan.pdf"], "\(word)")
        }
    }
}

@Suite("Tesseract's languages: locale, defaults, scripts, packages", .ownThread)
struct TesseractLanguagesTests {
    @Test func localeLanguages() {
        #expect(TesseractLanguages.ofLocale(["LANG": "de_AT.UTF-8"]) == ["deu"])
        #expect(TesseractLanguages.ofLocale(["LANGUAGE": "el:en_GB", "LANG": "el_GR.UTF-8"]) == ["ell", "eng"])
        #expect(TesseractLanguages.ofLocale(["LC_ALL": "zh_TW.UTF-8", "LANG": "zh_CN.UTF-8"]) == ["chi_tra", "chi_sim"])
        #expect(TesseractLanguages.ofLocale(["LANG": "sr_RS@latin"]) == ["srp"])
        #expect(TesseractLanguages.ofLocale(["LANG": "C.UTF-8"]).isEmpty)
        #expect(TesseractLanguages.ofLocale(["LANG": "POSIX"]).isEmpty)
        #expect(TesseractLanguages.ofLocale([:]).isEmpty)
    }

    @Test func defaultsAreEnglishAndTheInstalledLocaleLanguages() {
        #expect(TesseractLanguages.defaults(environment: ["LANG": "ru_RU.UTF-8"], installed: ["eng", "rus"]) == ["eng", "rus"])
        #expect(TesseractLanguages.defaults(environment: ["LANG": "fr_FR.UTF-8"], installed: ["eng", "rus"]) == ["eng"])
        #expect(TesseractLanguages.defaults(environment: ["LANG": "en_US.UTF-8"], installed: ["eng"]) == ["eng"])
    }

    @Test func scriptTableLeavesOutTheConfiguredScripts() {
        let installed = ["deu", "ell", "eng", "rus", "ukr"]
        #expect(TesseractLanguages.scriptTable(configured: ["eng"], installed: installed) == "Greek:ell,Cyrillic:rus+ukr")
        #expect(TesseractLanguages.scriptTable(configured: ["eng", "rus"], installed: installed) == "Greek:ell")
        #expect(TesseractLanguages.scriptTable(configured: ["eng"], installed: ["eng"]).isEmpty)
    }

    @Test func packages() {
        #expect(TesseractLanguages.debianPackage(of: "ell") == "tesseract-ocr-ell")
        #expect(TesseractLanguages.debianPackage(of: "chi_sim") == "tesseract-ocr-chi-sim")
    }

    @Test func installedLanguagesAreReadFromTheDataFolders() throws {
        let folder = TemporaryTree("tessdata")
        for name in ["eng.traineddata", "ell.traineddata", "osd.traineddata", "notes.txt"] {
            FileManager.default.createFile(atPath: folder.url(name), contents: Data())
        }
        #expect(TesseractLanguages.installed(in: [folder.path, folder.url("missing")]) == ["ell", "eng"])
    }
}
