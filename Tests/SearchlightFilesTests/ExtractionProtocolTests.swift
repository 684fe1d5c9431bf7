import ExtractionProtocol
import SearchlightTestSupport
import Testing

@Suite("Extraction wire protocol", .ownThread)
struct ExtractionProtocolTests {
    /// Splits a frame into its announced length and its payload.
    func payload(of frame: [UInt8]) throws -> [UInt8] {
        let length = try ExtractionFrame.payloadLength(header: frame.prefix(ExtractionFrame.headerSize))
        #expect(length == frame.count - ExtractionFrame.headerSize)
        return Array(frame.dropFirst(ExtractionFrame.headerSize))
    }

    @Test("A request with a path that is not UTF-8 survives a round trip")
    func requestRoundTrip() throws {
        let request = ExtractionRequest(jobID: 0xdead_beef_0102, kind: .thumbnail, path: [0x2f, 0xff, 0xfe, 0x0a, 0x80], limit: 256)
        let decoded = try ExtractionRequest(payload: payload(of: request.encodedFrame()))
        #expect(decoded == request)
        #expect(decoded.kind == .thumbnail)
    }

    @Test("A text request carries libmagic's type")
    func textRequestRoundTrip() throws {
        let request = ExtractionRequest(jobID: 3, kind: .text, path: Array("/a/b.html".utf8), limit: 1 << 20, contentType: "text/html")
        let decoded = try ExtractionRequest(payload: payload(of: request.encodedFrame()))
        #expect(decoded == request)
        #expect(decoded.kind == .text && decoded.contentType == "text/html")
    }

    @Test("An embedding request carries its texts, role and format")
    func embeddingRequestRoundTrip() throws {
        let job = EmbeddingJob(role: .query, format: .int8, texts: ["how much room is left", "", "Сколько места 🔍\n\0"])
        let request = ExtractionRequest(jobID: 12, embedding: job)
        let decoded = try ExtractionRequest(payload: payload(of: request.encodedFrame()))
        #expect(decoded == request)
        #expect(decoded.kind == .embed && decoded.embedding == job && decoded.path.isEmpty)
        let body = Array(request.encodedFrame().dropFirst(ExtractionFrame.headerSize))
        #expect(throws: ExtractionProtocolError.self) { try ExtractionRequest(payload: Array(body.dropLast())) }
    }

    @Test("Vectors come back as floats or as int8 codes with a scale")
    func embeddedTexts() throws {
        let floats = EmbeddedTexts(format: .float32, dimensions: 2, bytes: [0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0])
        #expect(floats.count == 1 && floats.vectors == [[1, -2]])
        let codes = EmbeddedTexts(format: .int8, dimensions: 2, bytes: [0, 0, 0, 0x3f, 2, 0xfe, 0, 0, 0x80, 0x3f, 1, 0])
        #expect(codes.count == 2 && codes.vectors == [[1, -1], [1, 0]])
        let response = ExtractionResponse(jobID: 13, kindRawValue: 5, outcome: .embeddings(codes))
        #expect(try ExtractionResponse(payload: payload(of: response.encodedFrame())) == response)
        // A byte count that is no whole number of vectors is refused.
        let broken = ExtractionResponse(jobID: 14, kindRawValue: 5, outcome: .embeddings(
            EmbeddedTexts(format: .int8, dimensions: 2, bytes: [0, 0, 0x80])))
        #expect(throws: ExtractionProtocolError.self) { try ExtractionResponse(payload: payload(of: broken.encodedFrame())) }
    }

    static let fullDocument: ExtractedDocument = {
        var document = ExtractedDocument(
            title: "Réunion – 東京", authors: ["Zoë Müller <zoe@example.com>", ""], keywords: ["agenda.pdf", "plan"],
            subject: "A subject", text: "Hello\u{200B}world\n\0after a NUL", isTextTruncated: true, pageCount: 67,
            creationDate: 1_795_500_000.25, modificationDate: -86_400)
        document.pixelWidth = 6000
        document.pixelHeight = 4000
        document.acquisitionMake = "Canon"
        document.acquisitionModel = "EOS R5"
        document.latitude = 48.858_37
        document.longitude = -2.294_48
        return document
    }()

    @Test("Responses survive a round trip", arguments: [
        ExtractionResponse(jobID: 10, kindRawValue: 2, outcome: .document(ExtractionProtocolTests.fullDocument)),
        ExtractionResponse(jobID: 11, kindRawValue: 2, outcome: .document(ExtractedDocument())),
        ExtractionResponse(jobID: 7, kindRawValue: 1, originalWidth: 6000, originalHeight: 4000,
                           outcome: .thumbnail(format: "webp", width: 256, height: 171, bytes: [1, 2, 3, 0, 255])),
        ExtractionResponse(jobID: 8, kindRawValue: 1, outcome: .failure(ExtractionFailure(.tooLarge, "image of 50000x50000 pixels exceeds…"))),
        ExtractionResponse(jobID: 9, kindRawValue: 2, outcome: .failure(ExtractionFailure(.unsupported, ""))),
    ])
    func responseRoundTrip(response: ExtractionResponse) throws {
        #expect(try ExtractionResponse(payload: payload(of: response.encodedFrame())) == response)
    }

    @Test("Truncated, oversized and unknown messages are rejected")
    func malformed() throws {
        let frame = ExtractionRequest(jobID: 1, kind: .thumbnail, path: Array("/a.jpg".utf8), limit: 256).encodedFrame()
        let body = Array(frame.dropFirst(ExtractionFrame.headerSize))
        #expect(throws: ExtractionProtocolError.self) { try ExtractionRequest(payload: Array(body.dropLast())) }
        #expect(throws: ExtractionProtocolError.self) { try ExtractionRequest(payload: body + [0]) }
        #expect(throws: ExtractionProtocolError.self) { try ExtractionRequest(payload: [9] + body.dropFirst()) }
        #expect(throws: ExtractionProtocolError.self) { try ExtractionFrame.payloadLength(header: [0xff, 0xff, 0xff, 0xff]) }
        let response = ExtractionResponse(jobID: 1, kindRawValue: 1, outcome: .failure(ExtractionFailure(.decodeFailed, "x"))).encodedFrame()
        var broken = Array(response.dropFirst(ExtractionFrame.headerSize))
        broken[10] = 200 // the status byte
        #expect(throws: ExtractionProtocolError.self) { try ExtractionResponse(payload: broken) }

        // A document whose list count claims more strings than the payload holds, a bad
        // presence byte, an unknown outcome tag.
        let document = Array(ExtractionResponse(jobID: 1, kindRawValue: 2, outcome: .document(Self.fullDocument))
            .encodedFrame().dropFirst(ExtractionFrame.headerSize))
        let outcomeTag = 19 // version, kind, job, status, width, height
        #expect(document[outcomeTag] == 2)
        var lying = document
        let titleEnd = outcomeTag + 1 + 1 + 4 + Array("Réunion – 東京".utf8).count
        lying[titleEnd] = 0xff
        lying[titleEnd + 1] = 0xff
        #expect(throws: ExtractionProtocolError.self) { try ExtractionResponse(payload: lying) }
        var presence = document
        presence[outcomeTag + 1] = 7
        #expect(throws: ExtractionProtocolError.self) { try ExtractionResponse(payload: presence) }
        var tag = document
        tag[outcomeTag] = 9
        #expect(throws: ExtractionProtocolError.self) { try ExtractionResponse(payload: tag) }
        #expect(throws: ExtractionProtocolError.self) { try ExtractionResponse(payload: Array(document.dropLast())) }
    }

    @Test("Files are routed to a document format by libmagic's type and their name")
    func routing() {
        func format(_ type: String, _ name: String) -> DocumentFormat? { DocumentFormat(contentType: type, fileName: Array(name.utf8)) }
        #expect(format("text/plain", "notes.txt") == .plainText)
        #expect(format("text/x-c", "main.c") == .plainText)
        #expect(format("text/csv", "budget.csv") == .plainText)
        #expect(format("application/json", "data.json") == .plainText)
        #expect(format("text/plain", "README.MD") == .markdown)
        #expect(format("text/html", "index.htm") == .html)
        #expect(format("text/xml", "page.xhtml") == .html)
        #expect(format("text/xml", "feed.xml") == .xml)
        #expect(format("image/svg+xml", "drawing.svg") == .xml)
        #expect(format("message/rfc822", "mail") == .mail)
        #expect(format("text/plain", "saved.eml") == .mail)
        #expect(format("application/mbox", "inbox") == .mbox)
        #expect(format("text/plain; charset=utf-8", "a.txt") == .plainText)
        #expect(format("image/jpeg", "photo.jpg") == .photo)
        #expect(format("image/png", "screenshot.png") == nil)
        #expect(format("application/pdf", "paper.pdf") == .pdf)
        #expect(format("text/rtf", "letter.rtf") == .rtf)
        #expect(format("application/octet-stream", "notes.txt") == nil)
        #expect(format("", "notes.txt") == nil)
        // Text filed under application/ by libmagic or by other tools.
        #expect(format("application/x-subrip", "film.srt") == .plainText)
        #expect(format("application/x-shellscript", "build") == .plainText)
        #expect(format("application/x-perl", "notes.md") == .markdown)
        #expect(format("application/x-gettext-translation", "fr.mo") == nil)
    }

    @Test("A file libmagic describes as text is read as text when its type alone does not say so")
    func routingByDescription() {
        func readable(_ type: String, _ description: String, _ name: String = "file") -> String? {
            DocumentFormat.readableType(contentType: type, fileName: Array(name.utf8), description: description)
        }
        func format(_ type: String, _ description: String?, _ name: String = "file") -> DocumentFormat? {
            DocumentFormat(contentType: type, fileName: Array(name.utf8), description: description)
        }
        // libmagic 5.44's descriptions of real files, with a type that has no format.
        #expect(readable("application/x-unknown", "KDE desktop entry, ASCII text") == "text/plain")
        #expect(readable("application/x-unknown", "SubRip, Unicode text, UTF-8 (with BOM) text, with CRLF line terminators") == "text/plain")
        #expect(readable("application/x-unknown", "Python script, ISO-8859 text executable") == "text/plain")
        #expect(readable("application/x-unknown", "Non-ISO extended-ASCII text") == "text/plain")
        #expect(readable("application/x-unknown", "Unicode text, UTF-16, little-endian text") == "text/plain")
        #expect(readable("application/x-unknown", "UTF-8 Unicode text") == "text/plain")
        #expect(format("application/x-unknown", "ASCII text", "notes.md") == .markdown)
        // A type with a format of its own keeps it.
        #expect(readable("application/x-kdelnk", "KDE desktop entry, ASCII text") == "application/x-kdelnk")
        #expect(readable("text/html", "HTML document, ASCII text") == "text/html")
        #expect(format("application/pdf", "PDF document, version 1.4") == .pdf)
        // No verdict of text: no round trip.
        #expect(readable("application/x-unknown", "data") == nil)
        #expect(readable("application/x-unknown", "OpenDocument Text") == nil)
        #expect(readable("application/postscript", "PostScript document text conforming DSC level 3.0") == nil)
        #expect(readable("application/postscript", "PostScript document text conforming DSC level 3.0, ASCII text") == nil)
        #expect(readable("image/x-xpixmap", "X pixmap image text, 1 x 1 x 1, 1 chars/pixel") == nil)
        #expect(readable("image/x-portable-pixmap", "Netpbm image data, size = 2 x 1, pixmap, ASCII text") == nil)
        #expect(readable("application/x-unknown", "MS Windows 95 Internet shortcut text (URL=<http://x/>)") == nil)
        #expect(format("application/x-unknown", nil) == nil)
    }

    @Test("Every failure reason survives the wire, the index and the JSON name")
    func failureReasons() throws {
        for reason in ExtractionFailure.Reason.allCases {
            let failure = ExtractionFailure(reason, "why: \(reason.label)")
            let frame = ExtractionResponse(jobID: 5, kindRawValue: 2, outcome: .failure(failure)).encodedFrame()
            let decoded = try ExtractionResponse(payload: payload(of: frame))
            #expect(decoded.outcome == .failure(failure))
            #expect(ExtractionFailure(stored: failure.stored) == failure)
            #expect(ExtractionFailure.Reason(name: reason.name) == reason)
        }
        #expect(Set(ExtractionFailure.Reason.allCases.map(\.name)).count == ExtractionFailure.Reason.allCases.count)
    }

    @Test("Failures stored by older indexes keep their meaning")
    func olderStoredFailures() {
        #expect(ExtractionFailure(stored: "too-large: content: too large: 5 GB") == ExtractionFailure(.tooLarge, "content: too large: 5 GB"))
        #expect(ExtractionFailure(stored: "undecodable: thumbnail: cannot decode: x") == ExtractionFailure(.decodeFailed, "thumbnail: cannot decode: x"))
        #expect(ExtractionFailure(stored: "timed-out: timed out after 10 s").reason == .timedOut)
        #expect(ExtractionFailure(stored: "crashed: extractor crashed (signal 6)").reason == .crashed)
        #expect(ExtractionFailure(stored: "unreadable: open: Permission denied").isIndexed == false)
        // Before content failures had a kind, they were stored as "content: …": the item exists.
        let unnamed = ExtractionFailure(stored: "content: encrypted PDF: a password is needed to read it")
        #expect(unnamed == ExtractionFailure(.decodeFailed, "content: encrypted PDF: a password is needed to read it"))
        #expect(unnamed.isIndexed)
    }
}
