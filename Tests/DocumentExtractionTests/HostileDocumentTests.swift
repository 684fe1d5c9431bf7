@testable import DocumentExtraction
import ExtractionProtocol
import Foundation
import SearchlightTestSupport
import Testing

/// Documents made to hurt: each must end in a clear failure or a bounded result, quickly and
/// without exhausting memory.
@Suite("Hostile documents", .ownThread)
struct HostileDocumentTests {
    @Test("A zip bomb disguised as a DOCX is refused from its header, before inflating")
    func honestZipBomb() {
        let result = DocumentFixtures.extract("bomb.docx", contentType: DocumentFixtures.docx)
        DocumentFixtures.expectFailure(result, .tooLarge, containing: "word/document.xml inflates to 209715367 bytes")
        if case .failure(let error) = result { #expect(error.reason == .tooLarge) }
    }

    @Test("A zip bomb whose headers lie is stopped while inflating, at the size it declared")
    func lyingZipBomb() {
        DocumentFixtures.expectFailure(
            DocumentFixtures.extract("bomb-lying.docx", contentType: DocumentFixtures.docx), .tooLarge,
            containing: "more than the 2000 bytes its header declares")
    }

    @Test("An entry above the compression-ratio limit is refused before inflating")
    func compressionRatio() {
        // report.docx's largest part is 2.7 KB, compressed about 3×: with the ratio checked from
        // 1 KB and at most 2×, it is refused.
        let limits = ArchiveLimits(maximumCompressionRatio: 2, ratioThreshold: 1024)
        DocumentFixtures.expectFailure(
            DocumentFixtures.extract("report.docx", contentType: DocumentFixtures.docx, extractor: RichDocumentExtractor(archiveLimits: limits)),
            .tooLarge, containing: "times its compressed size")
    }

    @Test("Archives with more entries than allowed, or more inflated bytes in all, are refused")
    func entryAndTotalLimits() {
        DocumentFixtures.expectFailure(
            DocumentFixtures.extract("report.docx", contentType: DocumentFixtures.docx,
                                     extractor: RichDocumentExtractor(archiveLimits: ArchiveLimits(maximumEntries: 9))),
            .tooLarge, containing: "more than 9 entries")
        DocumentFixtures.expectFailure(
            DocumentFixtures.extract("report.odt", contentType: DocumentFixtures.odt,
                                     extractor: RichDocumentExtractor(archiveLimits: ArchiveLimits(maximumTotalSize: 4000))),
            .tooLarge, containing: "allowed")
    }

    @Test("Billion laughs in a DOCX: the entities are not expanded")
    func billionLaughs() {
        switch DocumentFixtures.extract("laughs.docx", contentType: DocumentFixtures.docx) {
        case .success(let document):
            #expect(document.text.utf8.count < 100, "\(document.text.prefix(200))")
            #expect(!document.text.contains("lollol"))
        case .failure(let error):
            #expect(error.reason == .decodeFailed, "\(error)")
        }
    }

    @Test("A truncated DOCX fails as a decoding failure")
    func truncatedDOCX() {
        DocumentFixtures.expectFailure(DocumentFixtures.extract("truncated.docx", contentType: DocumentFixtures.docx), .decodeFailed)
    }

    @Test("Password-protected DOCX (an OLE2 EncryptedPackage) and ODT fail as encrypted",
          arguments: [("encrypted.docx", DocumentFixtures.docx), ("encrypted.docx", "application/encrypted"), ("encrypted.odt", DocumentFixtures.odt)])
    func encryptedOffice(name: String, contentType: String) {
        DocumentFixtures.expectFailure(DocumentFixtures.extract(name, contentType: contentType), .encrypted, containing: "encrypted")
    }

    @Test("A PDF with 100 000 pages: every page counted, text read only up to the limit")
    func hundredThousandPages() async throws {
        // Poppler's work runs on a thread of its own, off the concurrency pool.
        let (document, partial) = try await blocking { () throws -> (ExtractedDocument, ExtractedDocument) in
            let tree = TemporaryTree("pdf")
            let path = tree.url("pages.pdf")
            try Data(GeneratedPDF.make(pages: 100_000, text: "Lighthouse logbook entry")).write(to: URL(filePath: path))
            let document = try DocumentFixtures.withDescriptor(path) { descriptor in
                try RichDocumentExtractor(textLimit: 64 << 10).extract(descriptor: descriptor, format: .pdf)
            }
            // Out of time for pages: the metadata is kept, the text marked truncated.
            var hurried = RichDocumentExtractor()
            hurried.pdfTimeBudget = .zero
            let partial = try DocumentFixtures.withDescriptor(path) { try hurried.extract(descriptor: $0, format: .pdf) }
            return (document, partial)
        }
        #expect(document.pageCount == 100_000)
        #expect(document.isTextTruncated)
        #expect(document.text.utf8.count <= 64 << 10)
        #expect(document.text.hasPrefix("Lighthouse logbook entry\nLighthouse logbook entry"))
        #expect(partial.pageCount == 100_000)
        #expect(partial.isTextTruncated)
        #expect(partial.text.isEmpty)
    }

    @Test("RTF nested 100 000 groups deep, with a \\bin claiming more than the file, ends quickly")
    func deepRTF() {
        let bytes = Array("{\\rtf1\\ansi ".utf8) + Array(repeating: UInt8(ascii: "{"), count: 100_000)
            + Array("deep text".utf8) + Array(repeating: UInt8(ascii: "}"), count: 100_000) + Array("\\bin999999999 x}".utf8)
        let document = try? RTFExtractor.extract(bytes: bytes, textLimit: 1 << 20)
        #expect(document?.text == "deep text")
        // Out-of-range characters, a cut \' escape and a cut control word end as U+FFFD or nothing.
        let odd = Array(#"{\rtf1 a\u-99999?b\u9999999999c\u55296?d\'"#.utf8)
        #expect((try? RTFExtractor.extract(bytes: odd, textLimit: 100))?.text == "a\u{FFFD}b\u{FFFD}\u{FFFD}d")
    }

    @Test("A converter that hangs is killed at its deadline; one that talks forever is cut at the cap")
    func converterLimits() async throws {
        let hanging = ConverterProcess(program: "sleep", arguments: ["600"], deadline: .milliseconds(300), outputLimit: 100)
        let stopped = try await blocking { () -> Result<ConverterProcess.Output, ExtractionFailure> in
            Result { () throws(ExtractionFailure) in try hanging.run() }
        }
        #expect(throws: ExtractionFailure.self) { try stopped.get() }
        let talking = ConverterProcess(program: "yes", arguments: ["lighthouse"], deadline: .seconds(60), outputLimit: 10_000)
        let output = try await blocking { try talking.run() }
        #expect(output.bytes.count == 10_000)
        #expect(output.isTruncated)
    }
}

/// A minimal valid PDF whose pages all show the same line (a balanced page tree, one shared
/// content stream), written in memory.
enum GeneratedPDF {
    static func make(pages: Int, text: String) -> [UInt8] {
        var output: [UInt8] = Array("%PDF-1.4\n".utf8)
        var offsets: [Int] = [0]
        func object(_ body: String) {
            offsets.append(output.count)
            output += Array("\(offsets.count - 1) 0 obj\n\(body)\nendobj\n".utf8)
        }
        let perNode = 1000
        let nodes = (pages + perNode - 1) / perNode
        let firstNode = 5
        let firstPage = firstNode + nodes
        let stream = "BT /F1 12 Tf 20 100 Td (\(text)) Tj ET"
        object("<< /Type /Catalog /Pages 2 0 R >>")
        let kids = (0..<nodes).map { "\(firstNode + $0) 0 R" }.joined(separator: " ")
        object("<< /Type /Pages /Kids [\(kids)] /Count \(pages) /MediaBox [0 0 300 200] /Resources << /Font << /F1 3 0 R >> >> >>")
        object("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
        object("<< /Length \(stream.utf8.count) >>\nstream\n\(stream)\nendstream")
        for node in 0..<nodes {
            let range = (node * perNode)..<min(pages, (node + 1) * perNode)
            let kids = range.map { "\(firstPage + $0) 0 R" }.joined(separator: " ")
            object("<< /Type /Pages /Parent 2 0 R /Kids [\(kids)] /Count \(range.count) >>")
        }
        for page in 0..<pages {
            object("<< /Type /Page /Parent \(firstNode + page / perNode) 0 R /Contents 4 0 R >>")
        }
        let xref = output.count
        var table = "xref\n0 \(offsets.count)\n0000000000 65535 f \n"
        for offset in offsets.dropFirst() {
            let digits = String(offset)
            table += String(repeating: "0", count: 10 - digits.count) + digits + " 00000 n \n"
        }
        table += "trailer\n<< /Size \(offsets.count) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        output += Array(table.utf8)
        return output
    }
}

/// Every reader on damaged copies of the fixtures: bytes overwritten at random, files cut
/// short. Each must give a document or a one-line failure, never a crash.
@Suite("Damaged documents", .serialized, .ownThread)
struct DamagedDocumentTests {
    static let fixtures: [(String, String)] = [
        ("report.pdf", "application/pdf"), ("report.docx", DocumentFixtures.docx), ("report.odt", DocumentFixtures.odt),
        ("report.rtf", "text/rtf"), ("voyage.epub", "application/epub+zip"), ("ledger.xlsx", DocumentFixtures.xlsx),
        ("ledger.ods", DocumentFixtures.ods), ("talk.pptx", DocumentFixtures.pptx), ("talk.ppt", "application/vnd.ms-powerpoint"),
        ("ledger.xls", "application/vnd.ms-excel"), ("report.doc", "application/msword"), ("camera.jpg", "image/jpeg"),
    ]

    @Test("Damaged copies of every format end in a document or a clear failure", arguments: fixtures)
    func damaged(name: String, contentType: String) async throws {
        try PhotoMetadataExtractor.startLibvips()
        let original = try Data(contentsOf: URL(filePath: DocumentFixtures.path(name)))
        let messages = try await blocking { () throws -> [String] in
            let tree = TemporaryTree("damaged")
            var random = SeededGenerator(seed: UInt64(name.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }))
            var messages: [String] = []
            for copy in 0..<20 {
                var bytes = [UInt8](original)
                for _ in 0..<[1, 4, 16, 64][copy % 4] {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
                if copy % 5 == 4 { bytes.removeLast(Int.random(in: 1..<bytes.count, using: &random)) }
                let path = tree.url("copy-\(copy)-\(name)")
                try Data(bytes).write(to: URL(filePath: path))
                if case .failure(let error) = DocumentFixtures.extract(path, contentType: contentType) {
                    messages.append(error.message)
                }
            }
            return messages
        }
        for message in messages {
            #expect(!message.isEmpty && !message.contains("\n"), "\(message)")
        }
    }
}
