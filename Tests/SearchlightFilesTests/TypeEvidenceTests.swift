import ExtractionProtocol
import Foundation
import Testing

/// The rule by which a weak libmagic guess gives way to the name and the bytes
/// (``TypeEvidence``), as pure logic over bytes in memory.
@Suite("A weak libmagic guess gives way to strong evidence")
struct TypeEvidenceTests {
    /// "Έλα να δούμε…" in ISO-8859-7: its first byte, 0xB8, is libmagic's COM test.
    static let greek: [UInt8] = [0xB8, 0xEB, 0xE1, 0x20, 0xED, 0xE1, 0x20, 0xE4, 0xEF, 0xFD, 0xEC, 0xE5, 0x20, 0xF4, 0xE9, 0x0A]

    func decide(_ type: String, _ description: String?, _ name: String, _ bytes: [UInt8]) -> TypeEvidence? {
        TypeEvidence.decide(contentType: type, description: description, fileName: Array(name.utf8), size: bytes.count) {
            offset, length in offset <= bytes.count ? Array(bytes[offset..<min(bytes.count, offset + length)]) : nil
        }
    }

    @Test func aTextNamedSoThatLibmagicCallsADOSProgramIsText() throws {
        let evidence = try #require(decide("application/x-dosexec", "DOS executable (COM), start instruction 0xb8ebe120 ede120e4",
                                           "greek.txt", Self.greek))
        #expect(evidence.contentType == "text/plain")
        #expect(evidence.kind == "ISO-8859 text")
        #expect(evidence.description
            == "ISO-8859 text (typed by its .txt name and its bytes, over libmagic's weak guess: DOS executable (COM))")
        #expect(TypeEvidence.kind(of: evidence.description) == "ISO-8859 text")
        #expect(TypeEvidence.evidence(in: evidence.description)
            == "its .txt name and its bytes, over libmagic's weak guess: DOS executable (COM))".dropLast())
        #expect(DocumentFormat.describesText(evidence.description))
        // A CSV keeps its own type; bytes in 0x80–0x9F are libmagic's "Non-ISO extended-ASCII".
        let csv = try #require(decide("application/octet-stream", "data", "table.csv", Array("a;b\n".utf8) + [0x93, 0xE9, 0x0A]))
        #expect(csv.contentType == "text/csv" && csv.kind == "Non-ISO extended-ASCII text")
        #expect(decide("application/pgp-keys", "OpenPGP Secret Key", "notes.md", Array("# Über\n".utf8))?.kind
            == "Unicode text, UTF-8 text")
    }

    @Test func libmagicsAnswerStandsWithoutBothNameAndBytes() {
        // The name says nothing: libmagic's guess stands, and no byte is read.
        #expect(!TypeEvidence.mayOverrule(contentType: "application/x-dosexec", fileName: Array("greek".utf8)))
        #expect(!TypeEvidence.mayOverrule(contentType: "application/x-dosexec", fileName: Array("greek.com".utf8)))
        #expect(decide("application/x-dosexec", "DOS executable (COM)", "greek.bin", Self.greek) == nil)
        // A strong answer is not a guess: a PDF named .txt stays a PDF.
        #expect(!TypeEvidence.mayOverrule(contentType: "application/pdf", fileName: Array("a.txt".utf8)))
        #expect(!TypeEvidence.mayOverrule(contentType: "text/plain", fileName: Array("a.txt".utf8)))
        // Bytes that are not text: a program, binary data, a NUL.
        #expect(decide("application/x-dosexec", "DOS executable (COM)", "a.txt", [0xB8, 0x00, 0x4C, 0xCD, 0x21] + Self.greek) == nil)
        #expect(decide("application/x-dosexec", "MS-DOS executable", "a.txt", Array("MZ".utf8) + Self.greek) == nil)
        let random: [UInt8] = (0..<4096).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }
        #expect(decide("application/octet-stream", "data", "a.txt", random) == nil)
        // An armoured key block is what libmagic says it is.
        #expect(decide("application/pgp-keys", "PGP public key block", "key.txt", Array("-----BEGIN PGP PUBLIC KEY BLOCK-----\n".utf8))
            == nil)
        // Text with more than one control character in a thousand bytes is not text.
        #expect(decide("application/octet-stream", "data", "a.txt", Array(repeating: 0x41, count: 500) + [0x01]) == nil)
        #expect(decide("application/octet-stream", "data", "a.txt", Array(repeating: 0x41, count: 1500) + [0x01])?.kind == "ASCII text")
    }

    @Test func anRTFWithoutAVersionDigitIsRTF() throws {
        let rtf = Array("{\\rtf\\ansi\\ansicpg1251 \\u353?iaur\\'e5}".utf8)
        let evidence = try #require(decide("text/plain", "ASCII text, with no line terminators", "utf8.rtf", rtf))
        #expect(evidence.contentType == "text/rtf" && evidence.kind == "Rich Text Format data")
        #expect(DocumentFormat(contentType: evidence.contentType, fileName: Array("utf8.rtf".utf8)) == .rtf)
        // A member of an archive is typed by its MIME type alone.
        #expect(decide("text/plain", nil, "utf8.rtf", rtf)?.overruled == "text/plain")
        #expect(decide("text/plain", nil, "notes.txt", rtf) == nil)
        #expect(decide("text/plain", nil, "plain.rtf", Array("hello".utf8)) == nil)
        #expect(!TypeEvidence.mayOverrule(contentType: "text/rtf", fileName: Array("a.rtf".utf8)))
    }

    /// A ZIP of `names` (stored, empty members), with its central directory.
    static func zip(_ names: [String]) -> [UInt8] {
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16) }
        var local: [UInt8] = []
        var directory: [UInt8] = []
        for name in names {
            let offset = local.count
            local += [0x50, 0x4B, 0x03, 0x04] + le16(20) + le16(0) + le16(0) + le32(0) + le32(0) + le32(0) + le32(0)
                + le16(name.utf8.count) + le16(0) + Array(name.utf8)
            directory += [0x50, 0x4B, 0x01, 0x02] + le16(20) + le16(20) + le16(0) + le16(0) + le32(0) + le32(0) + le32(0)
                + le32(0) + le16(name.utf8.count) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(offset) + Array(name.utf8)
        }
        let end = [0x50, 0x4B, 0x05, 0x06] + le16(0) + le16(0) + le16(names.count) + le16(names.count)
            + le32(directory.count) + le32(local.count) + le16(0)
        return local + directory + end
    }

    @Test func aZIPHoldingADocumentsPartsIsThatDocument() throws {
        let docx = Self.zip(["docProps/app.xml", "_rels/.rels", "word/document.xml", "[Content_Types].xml"])
        let evidence = try #require(decide("application/zip", "Zip archive data, at least v2.0 to extract", "report.docx", docx))
        #expect(evidence.contentType == "application/vnd.openxmlformats-officedocument.wordprocessingml.document")
        #expect(evidence.kind == "Microsoft Word 2007+")
        #expect(evidence.overruled == "Zip archive data")
        #expect(decide("application/octet-stream", "data", "sheet.xlsx",
                       Self.zip(["xl/workbook.xml", "[Content_Types].xml"]))?.kind == "Microsoft Excel 2007+")
        #expect(decide("application/zip", nil, "book.epub", Self.zip(["META-INF/container.xml", "mimetype"]))?.contentType
            == "application/epub+zip")
        // The name and the parts must agree.
        #expect(decide("application/zip", nil, "report.docx", Self.zip(["xl/workbook.xml", "[Content_Types].xml"])) == nil)
        #expect(decide("application/zip", nil, "photos.docx", Self.zip(["a.jpg", "b.jpg"])) == nil)
        #expect(decide("application/zip", nil, "report.zip", docx) == nil)
        // A damaged directory is no evidence.
        #expect(decide("application/zip", nil, "report.docx", Array(docx.dropLast(30))) == nil)
    }

    @Test func textEvidenceNamesLibmagicsEncodings() {
        #expect(TextEvidence.encoding(of: Array("plain\twords\r\n".utf8)[...], isComplete: true) == .ascii)
        #expect(TextEvidence.encoding(of: Array("žvaigždė".utf8)[...], isComplete: true) == .utf8)
        // A character cut by the end of a prefix is not an error, but is at the end of a file.
        #expect(TextEvidence.encoding(of: Array("žvaigždė".utf8).dropLast(), isComplete: false) == .utf8)
        #expect(TextEvidence.encoding(of: Array("žvaigždė".utf8).dropLast(), isComplete: true) == .iso8859)
        #expect(TextEvidence.encoding(of: Self.greek[...], isComplete: true) == .iso8859)
        #expect(TextEvidence.encoding(of: [0x41, 0x00, 0x42], isComplete: true) == nil)
    }

    /// The committed Word, Excel and PowerPoint 97–2003 fixtures of DocumentExtractionTests.
    static func fixture(_ name: String) throws -> [UInt8] {
        let url = URL(filePath: #filePath).deletingLastPathComponent()
            .appending(path: "../DocumentExtractionTests/Fixtures/\(name)").standardized
        return Array(try Data(contentsOf: url))
    }

    @Test func aCompoundFileNamingADocumentsStreamIsThatDocument() throws {
        let unreadable = "Composite Document File V2 Document, Cannot read section info"
        let word = try #require(decide("application/CDFV2", unreadable, "report.doc", try Self.fixture("report.doc")))
        #expect(word.contentType == "application/msword" && word.kind == "Microsoft Word 97-2003 document")
        #expect(word.overruled == "Composite Document File V2 Document")
        #expect(decide("application/x-ole-storage", nil, "ledger.xls", try Self.fixture("ledger.xls"))?.contentType
            == "application/vnd.ms-excel")
        #expect(decide("application/octet-stream", nil, "talk.ppt", try Self.fixture("talk.ppt"))?.contentType
            == "application/vnd.ms-powerpoint")
        // The name and the streams must agree; libmagic's own name of a document stands.
        #expect(decide("application/CDFV2", unreadable, "report.xls", try Self.fixture("report.doc")) == nil)
        #expect(!TypeEvidence.mayOverrule(contentType: "application/msword", fileName: Array("report.doc".utf8)))
        #expect(decide("application/CDFV2", unreadable, "report.doc", Array(try Self.fixture("report.doc").prefix(600))) == nil)
    }
}
