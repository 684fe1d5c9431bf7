import ExtractionProtocol
import Foundation
import Logging
import Searchlight
@testable import SearchlightFiles
import SearchlightTestSupport
import SystemPackage
import Testing

/// OCR through real workers (Tesseract in `searchlight-extractor`) on pictures of text the
/// tests write: fonts, sizes, quarter and half turns, speckle; image-only PDFs; pictures
/// without text; hostile files.
@Suite("Text in pictures (OCR) through the extraction workers", .serialized, .ownThread)
struct TextRecognitionTests {
    let tree = TemporaryTree("ocr-pictures")
    let scratch = TemporaryTree("ocr-scratch")

    static func makePool(workers: Int = 1) throws -> ExtractorPool {
        try ExtractorPool(configuration: .init(workerCount: workers), logger: Logger(label: "test"))
    }

    func recognize(_ name: String, _ pool: ExtractorPool, contentType: String = "image/png") throws -> RecognizedText {
        try pool.recognizedText(ofFileAtPathBytes: Array(tree.url(name).utf8), contentType: contentType).get()
    }

    /// The words of `text`, lowercased, without punctuation.
    static func words(_ text: String) -> Set<String> {
        Set(text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init))
    }

    static let phrase = "The lighthouse keeper counted seventeen herring boats before breakfast"

    @Test("A phrase is read in several fonts, sizes, turns and with speckle", arguments: [
        TextPictures.Page(phrase, font: "DejaVu Sans 12", dpi: 200),
        TextPictures.Page(phrase, font: "DejaVu Serif 10", dpi: 300),
        TextPictures.Page(phrase, font: "DejaVu Sans Mono 16", dpi: 150, noise: 18),
        TextPictures.Page(phrase, font: "DejaVu Serif Bold 12", dpi: 200, rotation: 90),
        TextPictures.Page(phrase, font: "DejaVu Sans 14", dpi: 200, rotation: 180),
    ])
    func readsPictures(_ page: TextPictures.Page) throws {
        TextPictures.write(page, to: tree.url("page.png"), scratch: scratch.path)
        let pool = try Self.makePool()
        defer { pool.shutdown() }
        let found = Self.words(try recognize("page.png", pool).text)
        let expected = Self.words(Self.phrase)
        let missing = expected.subtracting(found)
        // At most one word of ten misread, whatever the font, turn or speckle.
        #expect(missing.count <= 1, "missing \(missing.sorted()) from \(found.sorted())")
        #expect(found.contains("lighthouse") && found.contains("herring"), "\(found.sorted())")
    }

    @Test("A scanned PDF page is read; a PDF with a text layer never is")
    func readsScannedPDFs() throws {
        TextPictures.writeScannedPDF(.init("Invoice 5521 for replacing the greenhouse glazing", font: "DejaVu Serif 12",
                                           dpi: 150, noise: 8),
                                     to: tree.url("scan.pdf"), scratch: scratch.path)
        let pool = try Self.makePool()
        defer { pool.shutdown() }
        let scan = Self.words(try recognize("scan.pdf", pool, contentType: "application/pdf").text)
        #expect(scan.isSuperset(of: ["invoice", "5521", "greenhouse", "glazing"]), "\(scan.sorted())")
        // A PDF whose pages carry text (the fixture of the thumbnail tests): nothing is read.
        let fixture = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Fixtures/document.pdf").path
        try FileManager.default.copyItem(atPath: fixture, toPath: tree.url("text.pdf"))
        #expect(try recognize("text.pdf", pool, contentType: "application/pdf").text.isEmpty)
    }

    @Test("A picture without text gives no text, and the thumbnail's quick look says so")
    func photosWithoutText() throws {
        // A grainy gradient: what a photo of the sky or a wall looks like to a text detector.
        shell("vips", "xyz", scratch.url("xy.v"), "1200", "800")
        shell("vips", "linear", scratch.url("xy.v"), scratch.url("g.v"), "0.1 0.12", "10 0", "--uchar")
        shell("vips", "gaussnoise", scratch.url("n.v"), "1200", "800", "--sigma", "12", "--mean", "0", "--seed", "3")
        shell("vips", "add", scratch.url("g.v"), scratch.url("n.v"), scratch.url("s.v"))
        shell("vips", "cast", scratch.url("s.v"), tree.url("photo.jpg"), "uchar")
        TextPictures.write(.init(Self.phrase), to: tree.url("page.png"), scratch: scratch.path)
        let pool = try Self.makePool()
        defer { pool.shutdown() }
        #expect(try recognize("photo.jpg", pool, contentType: "image/jpeg").text.isEmpty)
        let photo = try pool.thumbnail(ofFileAtPathBytes: Array(tree.url("photo.jpg").utf8)).get()
        let page = try pool.thumbnail(ofFileAtPathBytes: Array(tree.url("page.png").utf8)).get()
        #expect(!photo.mayHoldText)
        #expect(page.mayHoldText)
    }

    @Test("Hostile pictures fail at once: a decompression bomb, a truncated file")
    func hostilePictures() throws {
        let fixtures = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Fixtures")
        for name in ["bomb.png", "truncated.png", "corrupt.png"] {
            try FileManager.default.copyItem(atPath: fixtures.appending(path: name).path, toPath: tree.url(name))
        }
        let pool = try Self.makePool()
        defer { pool.shutdown() }
        let bomb = pool.recognizedText(ofFileAtPathBytes: Array(tree.url("bomb.png").utf8), contentType: "image/png")
        #expect(throws: ExtractionFailure.self) { try bomb.get() }
        if case .failure(let failure) = bomb { #expect(failure.reason == .tooLarge, "\(failure)") }
        for name in ["truncated.png", "corrupt.png"] {
            let result = pool.recognizedText(ofFileAtPathBytes: Array(tree.url(name).utf8), contentType: "image/png")
            guard case .failure(let failure) = result else {
                Issue.record("\(name) gave \(result)")
                continue
            }
            #expect(failure.reason == .decodeFailed, "\(name): \(failure)")
        }
        // The worker is still there for the next picture.
        TextPictures.write(.init("Quince marmalade"), to: tree.url("after.png"), scratch: scratch.path)
        #expect(Self.words(try recognize("after.png", pool).text).contains("marmalade"))
    }

    @Test("SHA-256 of files: the key of the cache")
    func digests() throws {
        tree.write("empty", "")
        tree.write("abc", "abc")
        tree.write("long", String(repeating: "a", count: 1_000_000))
        #expect(ContentDigest.ofFile(atPath: Array(tree.url("empty").utf8))
            == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(ContentDigest.ofFile(atPath: Array(tree.url("abc").utf8))
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(ContentDigest.ofFile(atPath: Array(tree.url("long").utf8))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(ContentDigest.ofFile(atPath: Array(tree.url("missing").utf8)) == nil)
    }

    @Test("The queue and cache file is owner-only, as the index is, even one an older version left 0644")
    func storeIsOwnerOnly() throws {
        func mode(_ path: String) throws -> Int {
            try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        }
        let indexPath = scratch.url("private/index.sqlite")
        _ = try SearchableIndex(path: indexPath)
        var store: OCRStore? = try OCRStore(path: indexPath + "-ocr", indexPath: indexPath)
        _ = try store?.pendingCount()
        #expect(try mode(indexPath) == 0o600)
        #expect(try mode(indexPath + "-ocr") == 0o600)
        // SQLite gives the write-ahead log and its index the database's mode.
        for side in ["-ocr-wal", "-ocr-shm"] where FileManager.default.fileExists(atPath: indexPath + side) {
            #expect(try mode(indexPath + side) == 0o600, "\(side)")
        }
        store = nil
        chmod(indexPath + "-ocr", 0o644)
        store = try OCRStore(path: indexPath + "-ocr", indexPath: indexPath)
        #expect(try mode(indexPath + "-ocr") == 0o600)
    }

    @Test("The queue survives a restart; copies come from the cache; a changed file's entry is dropped")
    func queueResumesAfterRestart() throws {
        TextPictures.write(.init("Seventeen herring boats"), to: tree.url("first.png"), scratch: scratch.path)
        TextPictures.write(.init("Quince marmalade recipe"), to: tree.url("second.png"), scratch: scratch.path)
        let indexPath = scratch.url("index.sqlite")
        let index = try SearchableIndex(path: indexPath)
        let root = try RootFolder(path: tree.path)
        // The first pass queues the pictures; this process then "stops" before the second.
        do {
            let queue = try OCRStore(path: indexPath + "-ocr", indexPath: indexPath)
            let extraction = try ItemExtraction(options: .init(ocrQueue: queue), configuration: .init(workerCount: 1),
                                                logger: Logger(label: "test"))
            defer { extraction.shutdown() }
            let scanner = FolderScanner(index: index, root: root, options: .init(domain: "pictures", pipeline: .init(extraction: extraction)),
                                        logger: Logger(label: "test"))
            _ = try scanner.reconcile()
            #expect(try queue.pendingCount() == 2)
        }
        #expect(try index.searchIdentifiers(words: ["marmalade"], domain: nil, limit: nil, scope: .all).isEmpty)
        // A new process opens the same queue and reads what was left.
        let queue = try OCRStore(path: indexPath + "-ocr", indexPath: indexPath)
        #expect(try queue.pendingCount() == 2)
        let pool = try Self.makePool()
        defer { pool.shutdown() }
        let recognizer = TextRecognizer(store: queue, index: index, pool: pool, logger: Logger(label: "test"))
        var summary = recognizer.run(threads: 2)
        #expect(summary.processed == 2 && summary.withText == 2 && summary.fromCache == 0, "\(summary)")
        #expect(try queue.pendingCount() == 0)
        #expect(try index.searchIdentifiers(words: ["marmalade"], domain: nil, limit: nil, scope: .all).map(\.lossyString)
            == ["second.png"])
        #expect(try queue.isRecognized(domain: "pictures", identifier: "second.png"))

        // A copy: its bytes were read already.
        shell("cp", tree.url("first.png"), tree.url("copy.png"))
        let copyStamp = try RootFolder(path: tree.path).status(of: "copy.png").changeStamp
        var copy = SearchableItem(uniqueIdentifier: "copy.png", domainIdentifier: "pictures",
                                  attributeSet: AttributeSet(contentType: "image/png"), changeStamp: copyStamp,
                                  identifierIsPath: true)
        copy.attributeSet.displayName = "copy.png"
        var batch = IndexBatch()
        batch.upsert(copy)
        try index.apply(batch)
        try queue.enqueue([.init(domain: "pictures", identifier: "copy.png", root: tree.path, contentType: "image/png",
                                 changeStamp: copyStamp, queued: Date())])
        // An entry whose file changed since it was queued: dropped, not read.
        try queue.enqueue([.init(domain: "pictures", identifier: "first.png", root: tree.path, contentType: "image/png",
                                 changeStamp: [1, 2, 3], queued: Date())])
        summary = recognizer.run(threads: 1)
        #expect(summary.processed == 1 && summary.fromCache == 1 && summary.stale == 1, "\(summary)")
        #expect(try index.searchIdentifiers(words: ["herring"], domain: nil, limit: nil, scope: .all).map(\.lossyString).sorted()
            == ["copy.png", "first.png"])
    }
}
