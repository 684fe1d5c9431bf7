import DocumentExtraction
import ExtractionProtocol
import SearchlightTestSupport
import Testing

/// The same report, written by LibreOffice from Fixtures/Sources/report.fodt in each format.
@Suite("Documents: PDF, DOCX, ODT, RTF, DOC, EPUB", .ownThread)
struct OfficeDocumentTests {
    static let title = "Migratory Patterns of the Arctic Tern"
    static let phrases = [
        "The lighthouse keeper counted seventeen albatrosses before breakfast.",
        "the tern colony on Grimsey nests among volcanic boulders",
        "Zürich café, naïve façade and Ærøskøbing survive conversion",
    ]
    /// 2021-03-14T09:26:53 and 2022-07-01T12:00:00 (UTC).
    static let created = 1_615_714_013.0
    static let modified = 1_656_676_800.0

    static func expectReportText(_ document: ExtractedDocument, sourceLocation: SourceLocation = #_sourceLocation) {
        for phrase in phrases {
            #expect(document.text.contains(phrase), "\(phrase) not in \(document.text)", sourceLocation: sourceLocation)
        }
        // Phrases come in the document's order, each page's text after the one before.
        let positions = phrases.compactMap { document.text.range(of: $0)?.lowerBound }
        #expect(positions == positions.sorted(), sourceLocation: sourceLocation)
        #expect(!document.isTextTruncated, sourceLocation: sourceLocation)
    }

    /// What LibreOffice carried from report.fodt into DOCX and ODT.
    static func expectReportMetadata(_ document: ExtractedDocument, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(document.title == title, sourceLocation: sourceLocation)
        #expect(document.authors == ["Ingrid Solberg"], sourceLocation: sourceLocation)
        #expect(document.keywords == ["terns", "migration"], sourceLocation: sourceLocation)
        #expect(document.subject == "Ornithology field report", sourceLocation: sourceLocation)
        #expect(document.creationDate == created, sourceLocation: sourceLocation)
        #expect(document.modificationDate == modified, sourceLocation: sourceLocation)
        #expect(document.text.contains("Columns\tseparated by a tab\nand a line break."), sourceLocation: sourceLocation)
        expectReportText(document, sourceLocation: sourceLocation)
    }

    @Test("PDF: Info title, author, keywords, subject, page count, creation date and every page's text")
    func pdf() throws {
        let document = try #require(DocumentFixtures.document("report.pdf", "application/pdf"))
        #expect(document.title == Self.title)
        #expect(document.authors == ["Ingrid Solberg"])
        #expect(document.keywords == ["terns", "migration"])
        #expect(document.subject == "Ornithology field report")
        #expect(document.pageCount == 3)
        // LibreOffice stamps the PDF with the export's time (pdfinfo: 2026-11-24T07:02:51Z).
        #expect(document.creationDate == 1_795_503_771)
        Self.expectReportText(document)
    }

    @Test("PDF text stops at the limit without splitting a character")
    func pdfTextLimit() throws {
        for limit in [0, 1, 75, 200, 236, 237, 238] {
            let document = try #require(DocumentFixtures.document(
                "report.pdf", "application/pdf", extractor: RichDocumentExtractor(textLimit: limit)))
            #expect(document.text.utf8.count <= limit)
            #expect(document.isTextTruncated)
            #expect(document.pageCount == 3, "metadata is read whatever the limit")
        }
    }

    @Test("A password-protected PDF fails as encrypted")
    func encryptedPDF() {
        DocumentFixtures.expectFailure(DocumentFixtures.extract("encrypted.pdf", contentType: "application/pdf"), .encrypted, containing: "encrypted")
    }

    @Test("DOCX: core properties, body runs with tabs and line breaks")
    func docx() throws {
        let document = try #require(DocumentFixtures.document("report.docx", DocumentFixtures.docx))
        Self.expectReportMetadata(document)
        // LibreOffice writes no page count into docProps/app.xml (Word does).
        #expect(document.pageCount == nil)
        #expect(document.text.hasPrefix("Migratory Patterns\nThe lighthouse keeper"))
    }

    @Test("ODT: meta.xml with its page count, content.xml's headings, spans, tabs, spaces and line breaks")
    func odt() throws {
        let document = try #require(DocumentFixtures.document("report.odt", DocumentFixtures.odt))
        Self.expectReportMetadata(document)
        #expect(document.pageCount == 3)
    }

    @Test("RTF: \\info fields and dates, \\uN characters with their fallbacks, tables skipped")
    func rtf() throws {
        let document = try #require(DocumentFixtures.document("report.rtf", "text/rtf"))
        #expect(document.title == Self.title)
        #expect(document.authors == ["Ingrid Solberg"])
        #expect(document.keywords == ["terns", "migration"])
        #expect(document.subject == "Ornithology field report")
        // \creatim has no seconds.
        #expect(document.creationDate == Self.created - 53)
        #expect(document.modificationDate == Self.modified)
        #expect(!document.text.contains("Times New Roman"), "the font table is skipped")
        #expect(!document.text.contains("Heading 1"), "the style sheet is skipped")
        Self.expectReportText(document)
    }

    @Test("DOC: summary information through libgsf, text through catdoc")
    func doc() throws {
        let document = try #require(DocumentFixtures.document("report.doc", "application/msword"))
        #expect(document.title == Self.title)
        #expect(document.authors == ["Ingrid Solberg"])
        #expect(document.subject == "Ornithology field report")
        #expect(document.creationDate == Self.created)
        Self.expectReportText(document)
    }

    @Test("EPUB: OPF metadata, spine documents in reading order, no markup or style sheet")
    func epub() throws {
        let document = try #require(DocumentFixtures.document("voyage.epub", "application/epub+zip"))
        #expect(document.title == "The Cartographer’s Lantern")
        #expect(document.authors == ["Wilhelmina Ashcombe", "Rafael Quintero"])
        #expect(document.keywords == ["Maritime fiction"])
        #expect(document.subject == "A lighthouse, a storm and a map.")
        #expect(document.creationDate == 1_535_846_400)
        let first = try #require(document.text.range(of: "The cartographer lit her brass lantern above the harbour of Valparaíso."))
        let second = try #require(document.text.range(of: "A narwhal tusk was found wrapped in sailcloth beneath the floorboards."))
        #expect(first.upperBound < second.lowerBound)
        #expect(document.text.contains("Chapter Two\nA narwhal tusk"))
        #expect(!document.text.contains("  ") && !document.text.contains("\n\n") && !document.text.contains("\n "))
        #expect(!document.text.contains("<"))
        #expect(!document.text.contains("font-family"))
    }
}

@Suite("Spreadsheets and presentations: XLSX, ODS, XLS, PPTX, ODP", .ownThread)
struct SpreadsheetAndPresentationTests {
    @Test("Every sheet's cells, shared strings looked up, numbers kept", arguments: [
        ("ledger.xlsx", DocumentFixtures.xlsx), ("ledger.ods", DocumentFixtures.ods), ("ledger.xls", "application/vnd.ms-excel"),
    ])
    func spreadsheet(name: String, contentType: String) throws {
        let document = try #require(DocumentFixtures.document(name, contentType))
        for phrase in ["Variety", "Bramley quince marmalade apples", "42", "Damson plums sold at the Tuesday market", "3.75"] {
            #expect(document.text.contains(phrase), "\(phrase) not in \(document.text)")
        }
        #expect(document.title == "Orchard Harvest Ledger")
        #expect(document.authors == ["Tomasz Wierzbicki"])
        #expect(document.keywords == ["orchard"])
        #expect(document.creationDate == 1_601_916_300)
    }

    @Test("XLSX: sheet names, a row per line, cells apart")
    func xlsxLayout() throws {
        let document = try #require(DocumentFixtures.document("ledger.xlsx", DocumentFixtures.xlsx))
        #expect(document.text.hasPrefix("Harvest\nPrices\n"))
        #expect(document.text.contains("Bramley quince marmalade apples 42\n"))
    }

    @Test("Slides' text in order, and the number of slides", arguments: [
        ("talk.pptx", DocumentFixtures.pptx), ("talk.odp", DocumentFixtures.odp), ("talk.ppt", "application/vnd.ms-powerpoint"),
    ])
    func presentation(name: String, contentType: String) throws {
        let document = try #require(DocumentFixtures.document(name, contentType))
        #expect(document.title == "Quarterly Beekeeping Review")
        #expect(document.authors == ["Amara Okonkwo"])
        #expect(document.pageCount == 3)
        #expect(document.creationDate == 1_561_104_000)
        let phrases = ["Hive seven produced lavender honey", "Varroa mites were treated with oxalic acid", "Next season we split the swarm in April"]
        let positions = phrases.compactMap { document.text.range(of: $0)?.lowerBound }
        #expect(positions.count == 3, "\(document.text)")
        #expect(positions == positions.sorted())
        #expect(!document.text.contains("Click to"), "master slides' placeholders are skipped")
    }
}
