import Foundation
import Glibc
import SearchlightTestSupport
import Testing

/// A folder of real PDFs, office documents, an EPUB and a photo through the built binary:
/// `scan` reads them, `show` gives their own titles and dates, `query` finds each by a phrase
/// of its body, and the ones that cannot be read are indexed by name with a quiet failure.
@Suite("searchlight on documents and photos", .serialized, .ownThread)
struct DocumentCommandTests {
    static let fixtures = ScannedFolder.fixtures
    let folder = ScannedFolder("documents-cli")
    var tree: TemporaryTree { folder.tree }

    func run(_ arguments: [String]) throws -> CommandResult { try folder.run(arguments) }
    func json(_ id: String) throws -> [String: Any] { try folder.json(id) }

    @Test func scanShowAndQueryDocuments() throws {
        let names = ["report.pdf", "report.docx", "report.odt", "report.rtf", "report.doc", "ledger.xlsx", "ledger.ods",
                     "talk.pptx", "talk.odp", "voyage.epub", "camera.jpg", "encrypted.pdf", "bomb.docx"]
        tree.mkdirs("papers")
        for name in names {
            // Names that do not give the contents away.
            try FileManager.default.copyItem(atPath: Self.fixtures.appending(path: name).path,
                                             toPath: tree.url("papers/file-\(names.firstIndex(of: name)!)-\(name)"))
        }
        let scan = try run(["scan", tree.path, "--no-thumbnails"])
        #expect(scan.status == 0)
        #expect(scan.stderr.isEmpty, "\(scan.stderr)")
        #expect(scan.output.contains("\(names.count) added"))
        #expect(scan.output.contains("2 without a preview"))

        let pdf = try json("papers/file-0-report.pdf")
        #expect(pdf["title"] as? String == "Migratory Patterns of the Arctic Tern")
        #expect(pdf["contentCreationDate"] as? String == "2026-11-24T07:02:51Z")
        #expect(try json("papers/file-9-voyage.epub")["title"] as? String == "The Cartographer’s Lantern")
        #expect(try json("papers/file-9-voyage.epub")["contentCreationDate"] as? String == "2018-09-02T00:00:00Z")
        #expect(try json("papers/file-7-talk.pptx")["title"] as? String == "Quarterly Beekeeping Review")
        #expect(try json("papers/file-10-camera.jpg")["title"] as? String == "Sunset over Lake Bled")

        for (phrase, expected) in [
            ("seventeen albatrosses", ["report.pdf", "report.docx", "report.odt", "report.rtf", "report.doc"]),
            ("Damson plums", ["ledger.xlsx", "ledger.ods"]),
            ("oxalic acid", ["talk.pptx", "talk.odp"]),
            ("narwhal tusk", ["voyage.epub"]),
        ] {
            let found = try run(["query", "kMDItemTextContent == \"*\(phrase)*\"c"])
            #expect(found.status == 0)
            let lines = Set(found.paths(under: tree.path).map { String($0.split(separator: "-", maxSplits: 2).last ?? "") })
            #expect(lines == Set(expected), "\(phrase): \(found.output)")
        }

        // Indexed by name, with the reason kept quietly.
        let encrypted = try json("papers/file-11-encrypted.pdf")
        #expect(encrypted["title"] as? String == "file-11-encrypted")
        #expect((encrypted["failure"] as? String)?.contains("encrypted PDF") == true)
        #expect((try json("papers/file-12-bomb.docx")["failure"] as? String)?.contains("content: too large") == true)
        #expect(try run(["search", "encrypted"]).output.contains("file-11-encrypted.pdf"))
    }
}
