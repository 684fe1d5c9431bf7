import ExtractionProtocol
import Foundation
import Logging
import SearchlightFiles
import SearchlightTestSupport
import SystemPackage
import Testing

/// PDFs, office documents, EPUBs and photos through real, supervised workers (the fixtures of
/// DocumentExtractionTests, read by the built `searchlight-extractor`). Serialized: each test
/// starts a worker, and a dozen at once would crowd the suites whose deadlines are 1 s.
@Suite("Documents and photos through extraction workers", .serialized, .ownThread)
final class ExtractorPoolRichDocumentTests: Sendable {
    static let fixtures = URL(filePath: #filePath).deletingLastPathComponent()
        .appending(path: "../DocumentExtractionTests/Fixtures").standardized

    static func path(_ name: String) -> [UInt8] { Array(fixtures.appending(path: name).path.utf8) }

    let pool: ExtractorPool

    init() throws {
        pool = ExtractorPool(configuration: .init(workerCount: 1, deadline: .seconds(20), memoryLimit: 2 << 30),
                                 logger: Logger(label: "test"))
    }

    deinit { pool.shutdown() }

    /// The pool's answer, awaited off the concurrency pool (the call blocks on the worker).
    func answer(_ name: String, _ type: String) async throws -> Result<ExtractedDocument, ExtractionFailure> {
        try await blocking { [pool] in pool.document(ofFileAtPathBytes: Self.path(name), contentType: type) }
    }

    func document(_ name: String, _ type: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> ExtractedDocument {
        switch try await answer(name, type) {
        case .success(let document): return document
        case .failure(let failure):
            Issue.record("\(name): \(failure)", sourceLocation: sourceLocation)
            throw failure
        }
    }

    func failure(_ name: String, _ type: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> ExtractionFailure? {
        guard case .failure(let failure) = try await answer(name, type) else {
            Issue.record("\(name) was read", sourceLocation: sourceLocation)
            return nil
        }
        #expect(!failure.message.contains("\n"), sourceLocation: sourceLocation)
        return failure
    }

    @Test("A PDF: title, authors, pages, date and text")
    func pdf() async throws {
        let document = try await document("report.pdf", "application/pdf")
        #expect(document.title == "Migratory Patterns of the Arctic Tern")
        #expect(document.authors == ["Ingrid Solberg"])
        #expect(document.pageCount == 3)
        #expect(document.creationDate == 1_795_503_771)
        #expect(document.text.contains("seventeen albatrosses"))
    }

    @Test("Office documents and a book", arguments: [
        ("report.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "volcanic boulders"),
        ("report.odt", "application/vnd.oasis.opendocument.text", "volcanic boulders"),
        ("report.rtf", "text/rtf", "volcanic boulders"),
        ("report.doc", "application/msword", "volcanic boulders"),
        ("ledger.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "Damson plums"),
        ("ledger.xls", "application/vnd.ms-excel", "Damson plums"),
        ("talk.pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation", "oxalic acid"),
        ("voyage.epub", "application/epub+zip", "narwhal tusk"),
    ])
    func officeDocuments(name: String, type: String, phrase: String) async throws {
        let document = try await document(name, type)
        #expect(document.text.contains(phrase), "\(document.text)")
    }

    @Test("A photo's camera, date and position")
    func photo() async throws {
        let document = try await document("camera.jpg", "image/jpeg")
        #expect(document.acquisitionModel == "X-T30")
        #expect(document.creationDate == 1_692_117_727)
        #expect(document.latitude != nil && document.longitude != nil)
        #expect(document.pixelWidth == 400)
    }

    @Test("Encrypted documents and zip bombs are the file's failures, said in one line")
    func failures() async throws {
        let encrypted = try #require(try await failure("encrypted.pdf", "application/pdf"))
        #expect(encrypted.reason == .encrypted && encrypted.message.contains("encrypted"))
        let protected = try #require(try await failure("encrypted.docx", "application/encrypted"))
        #expect(protected.message.contains("encrypted"))
        let bomb = try #require(try await failure("bomb-lying.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"))
        #expect(bomb.reason == .tooLarge)
        #expect(!bomb.isTransient)
    }

    @Test("EXIF orientation is applied to the thumbnail: stored 400×300, shown 300×400")
    func rotatedThumbnail() async throws {
        let path = FilePath(Self.fixtures.appending(path: "rotated.jpg").path)
        let result = try await blocking { [pool] in pool.thumbnail(ofFileAt: path) }
        let thumbnail = try result.get().thumbnail
        #expect(thumbnail.width == 192 && thumbnail.height == 256)
    }
}
