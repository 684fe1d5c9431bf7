@testable import DocumentExtraction
import ExtractionProtocol
import SearchlightTestSupport
import Testing

@Suite("Document extraction helpers", .ownThread)
struct DocumentExtractionUnitTests {
    @Test("Text is capped in UTF-8 bytes at a character boundary, with single breaks")
    func textCollector() {
        var text = TextCollector(limit: 10)
        text.append("ab")
        text.appendBreak()
        text.appendBreak()
        text.append("ü€")
        #expect(text.text == "ab\nü€")
        #expect(!text.isTruncated)
        text.append("xyz")
        // 3 + 5 bytes used; "xy" fits, "z" does not.
        #expect(text.text == "ab\nü€xy")
        #expect(text.isTruncated && text.isFull)
        var cut = TextCollector(limit: 4)
        cut.append("aé€")
        #expect(cut.text == "aé")
    }

    @Test("Markup whitespace collapses to single spaces, never after a break")
    func collapsedWhitespace() {
        var text = TextCollector(limit: 100)
        text.appendCollapsingWhitespace("\n    The  cartographer\n   lit ")
        text.appendCollapsingWhitespace("her")
        text.appendBreak()
        text.appendCollapsingWhitespace("  \n  ")
        text.appendCollapsingWhitespace(" lantern")
        #expect(text.text == "The cartographer lit her\nlantern")
    }

    @Test("Dates: W3CDTF with zones and fractions, ODF without a zone, EXIF")
    func dates() {
        #expect(DocumentDate.parse("2021-03-14T09:26:53Z") == 1_615_714_013)
        #expect(DocumentDate.parse("2021-03-14T09:26:53") == 1_615_714_013)
        #expect(DocumentDate.parse("2021-03-14T11:26:53.5+02:00") == 1_615_714_013.5)
        #expect(DocumentDate.parse("2018-09-02") == 1_535_846_400)
        #expect(DocumentDate.parse("2016:01:30 07:05:00") == 1_454_137_500)
        #expect(DocumentDate.parse("0000:00:00 00:00:00") == nil)
        #expect(DocumentDate.parse("yesterday") == nil)
    }

    @Test("MIME types (and for ZIP and OLE2 files, names) choose a format")
    func formats() {
        func format(_ type: String, _ name: String = "file") -> DocumentFormat? {
            DocumentFormat(contentType: type, fileName: Array(name.utf8))
        }
        #expect(format("application/pdf") == .pdf)
        #expect(format("application/vnd.openxmlformats-officedocument.wordprocessingml.document") == .officeOpenXML)
        #expect(format("application/vnd.oasis.opendocument.spreadsheet-template") == .openDocument)
        #expect(format("text/rtf; charset=us-ascii") == .rtf)
        #expect(format("application/msword") == .word)
        #expect(format("image/jpeg") == .photo)
        #expect(format("image/png") == nil)
        #expect(format("application/zip", "report.DOCX") == .zipArchive)
        #expect(format("application/zip", "backup.zip") == .archive)
        #expect(format("application/gzip", "logs.tar.gz") == .archive)
        #expect(format("application/zip", "talk.KEY") == .iWork)
        // libmagic's "Microsoft OOXML" has no MIME type of its own.
        #expect(format("application/octet-stream", "report.docx") == .zipArchive)
        #expect(format("application/octet-stream", "blob.bin") == nil)
        #expect(format("application/octet-stream", "mail.HTM") == .html)
        #expect(format("application/encrypted", "report.docx") == .compoundFile)
        #expect(format("application/x-ole-storage", "setup.msi") == nil)
    }

    @Test("A ZIP that libmagic calls application/zip is read by what its parts are")
    func zipByParts() throws {
        let document = try #require(DocumentFixtures.document("report.docx", "application/zip"))
        #expect(document.title == "Migratory Patterns of the Arctic Tern")
        // What libmagic calls "Microsoft OOXML" (application/octet-stream) too.
        let untyped = try #require(DocumentFixtures.document("report.docx", "application/octet-stream"))
        #expect(untyped.title == "Migratory Patterns of the Arctic Tern")
        let book = try #require(DocumentFixtures.document("voyage.epub", "application/zip"))
        #expect(book.authors.count == 2)
    }

    @Test("RTF: code pages for \\'hh, \\uN with \\ucN fallbacks, destinations marked \\* skipped")
    func rtfTokens() throws {
        let source = #"{\rtf1\ansi\ansicpg1251{\fonttbl{\f0\fcharset0 Arial;}{\f1\fcharset238 Arial CE;}}"#
            + #"{\*\generator Hidden;}\f0 \'cf\'f0\'e8\'e2\'e5\'f2 {\f1 \'9ailha}\par"#
            + #"\uc2 caf\u233xx {\uc0 na\u239ve}\tab end\line{\info{\title T\'e8st}{\author A}}}"#
        let document = try RTFExtractor.extract(bytes: Array(source.utf8), textLimit: 1000)
        // \f0 is Western (1252) despite \ansicpg1251; \f1 is Central European (1250).
        #expect(document.text == "Ïðèâåò šilha\ncafé naïve\tend")
        #expect(document.title == "Tèst")
        #expect(document.authors == ["A"])
    }

    @Test("RTF: an \\info field's Unicode version (\\upr with \\*\\ud) replaces its ANSI version")
    func rtfUnicodeVersionOfInfo() throws {
        // As Word writes a Japanese title: ? for each character in the ANSI version.
        let source = #"{\rtf1\ansi\ansicpg1252\uc1{\info{\upr{\title ???}{\*\ud{\title \u26481\'3f\u20140\'3f\u12293\'3f}}}"#
            + #"{\author A}{\author B}}Body\par}"#
        let document = try RTFExtractor.extract(bytes: Array(source.utf8), textLimit: 1000)
        #expect(document.title == "東京々")
        #expect(document.authors == ["A"])
        #expect(document.text == "Body")
    }

    @Test("EPUB hrefs resolve against the package document's folder")
    func epubPaths() {
        #expect(EPUBExtractor.resolve("text/ch%2001.xhtml#top", against: "EPUB") == "EPUB/text/ch 01.xhtml")
        #expect(EPUBExtractor.resolve("../chapter.xhtml", against: "OPS/content") == "OPS/chapter.xhtml")
        #expect(EPUBExtractor.resolve("a.xhtml", against: "") == "a.xhtml")
    }
}
