import ExtractionProtocol
import Foundation
import Logging
import Searchlight
import SearchlightFiles
import SearchlightTestSupport
import Testing

/// Documents read by real `searchlight-extractor` workers through the pool: every text-like
/// format, encodings produced by iconv, and the limit.
@Suite("Documents read by the extraction workers", .ownThread)
struct ExtractorPoolDocumentTests: @unchecked Sendable {
    // Each test's body runs on a thread of its own (`blocking`), off the shared concurrency pool.
    let tree = TemporaryTree("documents")

    static func makePool(textLimit: Int = 1 << 20, memoryLimit: Int? = 2 << 30, deadline: Duration = .seconds(20)) throws -> ExtractorPool {
        ExtractorPool(configuration: .init(workerCount: 1, deadline: deadline, memoryLimit: memoryLimit, textLimit: textLimit),
                          logger: Logger(label: "test"))
    }

    /// Writes `bytes` as `name` and reads it as libmagic's `type` would route it.
    func read(_ name: String, _ bytes: [UInt8], type: String = "text/plain", pool: ExtractorPool? = nil,
              sourceLocation: SourceLocation = #_sourceLocation) throws -> ExtractedDocument {
        FileManager.default.createFile(atPath: tree.url(name), contents: Data(bytes))
        let owned = pool == nil ? try Self.makePool() : nil
        defer { owned?.shutdown() }
        let pool = try #require(pool ?? owned)
        switch pool.document(ofFileAtPathBytes: Array(tree.url(name).utf8), contentType: type) {
        case .success(let document): return document
        case .failure(let failure):
            Issue.record("\(name): \(failure.message)", sourceLocation: sourceLocation)
            throw failure
        }
    }

    func read(_ name: String, _ text: String, type: String = "text/plain") throws -> ExtractedDocument {
        try read(name, Array(text.utf8), type: type)
    }

    /// `text` in `charset`, converted by iconv.
    static func iconv(_ text: String, to charset: String) throws -> [UInt8] {
        let result = try ChildProcess.run(["/usr/bin/iconv", "-f", "UTF-8", "-t", charset], input: Array(text.utf8))
        #expect(result.status == 0)
        return result.stdout
    }

    // MARK: Encodings

    static let french = "Le château de la Loire, où l'été dure, a vu naître un garçon. Crème brûlée, déjà vu, naïveté.\n"
    static let japanese = "東京都庁の写真を見た。今日は天気がとても良いので、公園を散歩しました。桜の花がきれいに咲いています。\n"

    @Test("Plain text in Latin-1, Windows-1252, UTF-16 with a BOM and Shift-JIS becomes UTF-8", arguments: [
        ("latin1.txt", french, "ISO-8859-1"),
        ("cp1252.txt", "Price: 5 € — “quoted” text… " + french, "WINDOWS-1252"),
        ("utf16.txt", french + japanese, "UTF-16"),
        ("sjis.txt", String(repeating: japanese, count: 3), "SHIFT_JIS"),
        ("utf8.txt", french + japanese, "UTF-8"),
    ])
    func encodings(name: String, text: String, charset: String) async throws {
        try await blocking { [self] in try encodingsBody(name: name, text: text, charset: charset) }
    }

    func encodingsBody(name: String, text: String, charset: String) throws {
        let bytes = try Self.iconv(text, to: charset)
        if charset != "UTF-8" { #expect(bytes != Array(text.utf8)) }
        let document = try read(name, bytes)
        #expect(document.text.replacing("\u{200B}", with: "") == text)
        #expect(!document.isTextTruncated)
    }

    @Test("Invalid UTF-8 keeps its valid text, with replacement characters for the rest")
    func invalidUTF8() async throws {
        try await blocking { [self] in try invalidUTF8Body() }
    }

    func invalidUTF8Body() throws {
        // A stray byte and a character cut in two, in otherwise valid UTF-8.
        let bytes = Array("Déjà vu: the lighthouse keeper’s log.\n".utf8) + [0xFF]
            + Array(" Über alles, naïve café.\n".utf8) + [0xC3, 0x28] + Array(" Fin.\n".utf8)
        let document = try read("broken.txt", bytes)
        #expect(document.text.contains("lighthouse keeper’s log."))
        #expect(document.text.contains("naïve café."))
        #expect(document.text.contains("\u{FFFD}"))
    }

    @Test("Binary data called text is refused as undecodable, not read")
    func binary() async throws {
        try await blocking { [self] in try binaryBody() }
    }

    func binaryBody() throws {
        var generator = SeededGenerator(seed: 7)
        let bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        FileManager.default.createFile(atPath: tree.url("noise.txt"), contents: Data(bytes))
        let pool = try Self.makePool()
        defer { pool.shutdown() }
        guard case .failure(let failure) = pool.document(ofFileAtPathBytes: Array(tree.url("noise.txt").utf8), contentType: "text/plain") else {
            Issue.record("random bytes were read as text")
            return
        }
        #expect(failure.reason == .decodeFailed)
        #expect(failure.message.contains("not text"))
    }

    @Test("Japanese text is split into words with U+200B; titles are left as written")
    func wordBreaks() async throws {
        try await blocking { [self] in try wordBreaksBody() }
    }

    func wordBreaksBody() throws {
        let document = try read("tokyo.md", "# 東京の旅\n\n東京都庁の写真を見た\n", type: "text/plain")
        #expect(document.title == "東京の旅")
        #expect(document.text.contains("東京\u{200B}都庁\u{200B}の\u{200B}写真\u{200B}を\u{200B}見\u{200B}た"))
        // Latin words and spaces are untouched.
        let mixed = try read("mixed.txt", "Visit 東京都庁 today")
        #expect(mixed.text.hasPrefix("Visit 東京\u{200B}都庁 today"))
    }

    @Test("Text is cut at the limit on a character boundary and marked truncated")
    func limit() async throws {
        try await blocking { [self] in try limitBody() }
    }

    func limitBody() throws {
        let pool = try Self.makePool(textLimit: 1000)
        defer { pool.shutdown() }
        let text = String(repeating: "é", count: 400) + String(repeating: "a", count: 199) + "€" + String(repeating: "z", count: 5000)
        let document = try read("long.txt", Array(text.utf8), pool: pool)
        #expect(document.isTextTruncated)
        // The limit falls inside "€" (bytes 999–1001): the text stops before it.
        #expect(document.text.utf8.count == 999)
        #expect(document.text == String(repeating: "é", count: 400) + String(repeating: "a", count: 199))
        let short = try read("short.txt", Array("short\n".utf8), pool: pool)
        #expect(!short.isTextTruncated && short.text == "short\n")
    }

    // MARK: Formats

    @Test("CSV and JSON are read as text")
    func csvAndJSON() async throws {
        try await blocking { [self] in try csvAndJSONBody() }
    }

    func csvAndJSONBody() throws {
        #expect(try read("budget.csv", "item,amount\nlighthouse paint,120\n", type: "text/csv").text.contains("lighthouse paint"))
        #expect(try read("data.json", #"{"place": "Brest", "note": "lighthouse"}"#, type: "application/json").text.contains("lighthouse"))
    }

    @Test("What libmagic calls text is read as text, whatever its type; pictures written in text are not")
    func textByDescription() async throws {
        try await blocking { [self] in try textByDescriptionBody() }
    }

    func textByDescriptionBody() throws {
        // libmagic 5.44 says: application/x-subrip, "SubRip, ISO-8859 text"; application/x-kdelnk,
        // "KDE desktop entry, ASCII text"; application/x-mswinurl, "MS Windows 95 Internet shortcut
        // text (URL=<…>), ASCII text, with CRLF line terminators"; image/x-xpixmap, "X pixmap image
        // text, …"; application/postscript, "PostScript document text conforming DSC level 3.0".
        let subtitles = "1\n00:00:01,000 --> 00:00:04,000\nL'été dernier, au château du phare.\n\n"
            + "2\n00:00:05,000 --> 00:00:07,000\nUne crème brûlée, s'il vous plaît.\n"
        let files: [(name: String, bytes: [UInt8], words: [String])] = [
            ("film.srt", try Self.iconv(subtitles, to: "ISO-8859-1"),
             ["L'été dernier, au château du phare.", "Une crème brûlée, s'il vous plaît."]),
            ("logbook.desktop", Array("[KDE Desktop Entry]\nName=Lighthouse logbook\nExec=logbook\n".utf8), ["Name=Lighthouse logbook"]),
            ("harbour.url", Array("[InternetShortcut]\r\nURL=https://example.com/harbour-tides\r\n".utf8), ["harbour-tides"]),
            ("icon.xpm", Array("/* XPM */\nstatic char * icon[] = {\n\"1 1 1 1\",\n\"a c #FF0000\",\n\"a\"};\n".utf8), []),
            ("poster.ps", Array("%!PS-Adobe-3.0\n%%Title: poster\n/Times findfont 12 scalefont setfont (Harbour) show showpage\n".utf8), []),
        ]
        for file in files { FileManager.default.createFile(atPath: tree.url(file.name), contents: Data(file.bytes)) }
        let root = try RootFolder(path: tree.path)
        let inspector = try FileInspector()
        let pool = try Self.makePool()
        defer { pool.shutdown() }
        let reader = ContentReader(pool: pool, logger: Logger(label: "test"))
        for file in files {
            guard case .item(var item, _) = inspector.inspect(ItemIdentifier(file.name), in: root, domain: "files") else {
                Issue.record("\(file.name): not inspected")
                continue
            }
            let type = item.attributeSet.contentType ?? ""
            #expect(!type.hasPrefix("text/"), "\(file.name) is \(type): the test needs a type outside text/")
            let document = reader.enrich(&item, in: root)
            #expect(item.failure == nil, "\(file.name): \(item.failure ?? "")")
            for words in file.words {
                #expect(item.attributeSet.textContent?.contains(words) == true,
                        "\(file.name) (\(type), \(item.attributeSet.contentDescription ?? "")): \(item.attributeSet.textContent ?? "no text")")
            }
            if file.words.isEmpty {
                #expect(document == nil && item.attributeSet.textContent == nil, "\(file.name) (\(type)) was read")
            }
        }
    }

    @Test("Markdown: front matter or first heading as title, text without markup")
    func markdown() async throws {
        try await blocking { [self] in try markdownBody() }
    }

    func markdownBody() throws {
        let document = try read("trip.md", """
            ---
            title: "Notes from Brittany"
            author: Zoë Müller
            tags: [travel, coast]
            ---
            # A heading that is not the title

            We walked to the **lighthouse** at _dawn_ and saw [the harbour](https://example.com/harbour).
            ![A red boat](boat.jpg) and `snake_case` code.

            > quoted line
            - listed item
            | col a | col b |
            |-------|-------|
            """)
        #expect(document.title == "Notes from Brittany")
        #expect(document.authors == ["Zoë Müller"])
        #expect(document.keywords == ["travel", "coast"])
        #expect(document.text.contains("We walked to the lighthouse at dawn and saw the harbour."))
        #expect(document.text.contains("A red boat and snake_case code."))
        #expect(document.text.contains("quoted line\nlisted item"))
        #expect(!document.text.contains("https://") && !document.text.contains("**") && !document.text.contains("title:"))

        #expect(try read("a.md", "Intro line\n\n## Second level ##\n").title == "Second level")
        #expect(try read("b.md", "```\n# not a title\n```\n# Real one\n").title == "Real one")
        #expect(try read("c.md", "Setext Title\n=====\nbody").title == "Setext Title")
        #expect(try read("d.md", "#hashtag is not a heading\nplain").title == nil)
    }

    @Test("HTML: title, meta author, keywords and description, visible text without script or style")
    func html() async throws {
        try await blocking { [self] in try htmlBody() }
    }

    func htmlBody() throws {
        let document = try read("page.html", """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8">
            <TITLE lang=en>Crème &amp; brûlée
              recipe</TITLE>
            <meta name="author" content="Ann Lee">
            <meta name="keywords" content="dessert, custard">
            <meta name="description" content="How to caramelise sugar.">
            <style>body { color: red }</style>
            <script>var hiddenScriptWord = 1;</script>
            </head><body><h1>Ingredients</h1><p>Cream, <b>sugar</b> &amp; eggs.</p>
            <ul><li>one</li><li>two</li></ul><img src="x.png" alt="A golden crust"><noscript>enable</noscript>
            </body></html>
            """, type: "text/html")
        #expect(document.title == "Crème & brûlée recipe")
        #expect(document.authors == ["Ann Lee"])
        #expect(document.keywords == ["dessert", "custard"])
        #expect(document.subject == "How to caramelise sugar.")
        #expect(document.text.contains("Ingredients\nCream, sugar & eggs."))
        #expect(document.text.contains("one\ntwo"))
        #expect(document.text.contains("A golden crust"))
        #expect(!document.text.contains("hiddenScriptWord") && !document.text.contains("color"))
        #expect(try read("untitled.html", "<html><body>No title</body></html>", type: "text/html").title == nil)
    }

    @Test("HTML in Latin-1 declared by its meta is decoded as declared")
    func htmlCharset() async throws {
        try await blocking { [self] in try htmlCharsetBody() }
    }

    func htmlCharsetBody() throws {
        let html = "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-1\"><title>Été</title></head><body>Château</body></html>"
        let document = try read("latin.html", try Self.iconv(html, to: "ISO-8859-1"), type: "text/html")
        #expect(document.title == "Été")
        #expect(document.text == "Château")
    }

    @Test("XML: text nodes, Dublin Core title and creators")
    func xml() async throws {
        try await blocking { [self] in try xmlBody() }
    }

    func xmlBody() throws {
        let document = try read("record.xml", """
            <?xml version="1.0" encoding="UTF-8"?>
            <record xmlns:dc="http://purl.org/dc/elements/1.1/">
              <dc:title>Lighthouses of Finistère</dc:title>
              <dc:creator>Jean Dupont</dc:creator><dc:creator>Marie Curie</dc:creator>
              <dc:subject>coast</dc:subject>
              <body>Keeper's <em>log</em> &amp; notes<![CDATA[ with <raw> data]]></body>
            </record>
            """, type: "text/xml")
        #expect(document.title == "Lighthouses of Finistère")
        #expect(document.authors == ["Jean Dupont", "Marie Curie"])
        #expect(document.keywords == ["coast"])
        #expect(document.text.contains("Keeper's log & notes with <raw> data"))
        // An encoding the declaration names.
        let latin = try Self.iconv("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>Déjà</a>", to: "ISO-8859-1")
        #expect(try read("latin.xml", latin, type: "text/xml").text == "Déjà")
    }

    @Test("A feed cut short keeps the words of its last, unclosed item")
    func truncatedFeed() async throws {
        try await blocking { [self] in try truncatedFeedBody() }
    }

    func truncatedFeedBody() throws {
        let feed = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>Harbour news</title>
            <item><title>Ferry times</title><description><![CDATA[<p>The ferry leaves at dawn.</p>]]></description></item>
            <item><title>Storm warning</title><description><![CDATA[<p>Keepers stay ashore until the gale passes; \
            the lighthouse café stays op
            """
        let document = try read("feed.rss", feed, type: "text/xml")
        #expect(document.text.contains("The ferry leaves at dawn."))
        #expect(document.text.contains("Storm warning"))
        #expect(document.text.contains("Keepers stay ashore until the gale passes; the lighthouse café stays op"), "\(document.text)")
    }

    @Test("XML entities are never expanded and external ones never loaded")
    func xmlEntities() async throws {
        try await blocking { [self] in try xmlEntitiesBody() }
    }

    func xmlEntitiesBody() throws {
        let secret = tree.url("secret.txt")
        tree.write("secret.txt", "TOPSECRET\n")
        let document = try read("external.xml", """
            <?xml version="1.0"?>
            <!DOCTYPE a [ <!ENTITY leak SYSTEM "file://\(secret)"> <!ENTITY word "expanded"> ]>
            <a>before &leak; &word; after &amp; done</a>
            """, type: "application/xml")
        #expect(document.text.contains("before"))
        #expect(document.text.contains("& done"))
        #expect(!document.text.contains("TOPSECRET"))
        #expect(!document.text.contains("expanded"))
    }

    static let mail = """
        Return-Path: <zoe@example.com>
        From: =?UTF-8?Q?Zo=C3=AB_M=C3=BCller?= <zoe@example.com>
        To: Bob <bob@example.org>
        Subject: =?UTF-8?B?UsOpdW5pb24=?= =?UTF-8?Q?_at_the_lighthouse?=
        Date: Tue, 24 Nov 2026 06:51:48 +0100
        Message-ID: <1@example.com>
        MIME-Version: 1.0
        Content-Type: multipart/mixed; boundary="outer"

        This is a multi-part message in MIME format.
        --outer
        Content-Type: multipart/alternative; boundary=inner

        --inner
        Content-Type: text/plain; charset=ISO-8859-1
        Content-Transfer-Encoding: quoted-printable

        Bonjour, rendez-vous au caf=E9 pr=E8s du phare =
        demain.
        --inner
        Content-Type: text/html; charset=utf-8

        <p>Bonjour, rendez-vous au <b>caf&eacute;</b> pr&egrave;s du phare demain.</p>
        <p>--<br>Zo&euml;, gardienne du phare</p>
        --inner--
        --outer
        Content-Type: application/pdf; name="agenda.pdf"
        Content-Disposition: attachment; filename*=UTF-8''ordre%20du%20jour%20%E2%82%AC.pdf
        Content-Transfer-Encoding: base64

        JVBERi0xLjQKJcOkw7zDtsOfCg==
        --outer
        Content-Type: text/plain; name="notes.txt"
        Content-Disposition: attachment; filename="notes.txt"
        Content-Transfer-Encoding: base64

        QXR0YWNoZWQ6IHRoZSBmb2dob3JuIHNjaGVkdWxlLg==
        --outer
        Content-Type: text/plain; charset=utf-8
        Content-Transfer-Encoding: base64

        U2Vjb25kIHBhcnQ6IHRoZSBrZWVwZXIncyBob3VzZS4=
        --outer--

        """

    @Test("E-mail: Subject, From, Date, decoded bodies, attachments' names and text")
    func mail() async throws {
        try await blocking { [self] in try mailBody() }
    }

    func mailBody() throws {
        let document = try read("message.eml", Self.mail, type: "message/rfc822")
        #expect(document.title == "Réunion at the lighthouse")
        #expect(document.authors == ["Zoë Müller <zoe@example.com>"])
        #expect(document.creationDate == 1_795_499_508)
        #expect(document.keywords == ["ordre du jour €.pdf", "notes.txt"])
        #expect(document.text.contains("Bonjour, rendez-vous au café près du phare demain."))
        #expect(document.text.contains("Second part: the keeper's house."))
        // The HTML alternative adds its signature, not the words the plain part has.
        #expect(document.text.components(separatedBy: "rendez-vous").count == 2)
        #expect(document.text.contains("Bonjour, rendez-vous au café près du phare demain.\n\nZoë, gardienne du phare"))
        #expect(!document.text.contains("JVBER"))
        // A text attachment is read, after the body that comes before it.
        let body = try #require(document.text.range(of: "Bonjour"))
        let attached = try #require(document.text.range(of: "Attached: the foghorn schedule."))
        #expect(body.lowerBound < attached.lowerBound)
    }

    @Test("A message libmagic calls plain text is sniffed by its headers; an HTML-only one gives its text")
    func sniffedMail() async throws {
        try await blocking { [self] in try sniffedMailBody() }
    }

    func sniffedMailBody() throws {
        let message = """
            From: Ann <ann@example.com>
            Date: Mon, 2 Jan 2023 10:00:00 GMT
            Subject: Minutes
            Content-Type: text/html; charset=utf-8

            <html><body><p>Only <b>HTML</b> here.</p><script>nope()</script></body></html>
            """
        let document = try read("saved-message.txt", message, type: "text/plain")
        #expect(document.title == "Minutes")
        #expect(document.authors == ["Ann <ann@example.com>"])
        #expect(document.creationDate == 1_672_653_600)
        #expect(document.text == "Only HTML here.")
        // Prose that merely contains a colon is not a message.
        let prose = try read("prose.txt", "Note: remember the milk.\nAlso: the bread.\n\nThanks")
        #expect(prose.title == nil && prose.text.hasPrefix("Note: remember"))
    }

    @Test("mbox: every message's subject and body, every sender")
    func mbox() async throws {
        try await blocking { [self] in try mboxBody() }
    }

    func mboxBody() throws {
        let mbox = """
            From ann@example.com Mon Jan  2 10:00:00 2023
            From: Ann <ann@example.com>
            Subject: First
            Date: Mon, 2 Jan 2023 10:00:00 +0000

            Body about the lighthouse.

            From bob@example.org Tue Jan  3 10:00:00 2023
            From: bob@example.org
            Subject: Second

            Body about the harbour.

            """
        let document = try read("inbox", mbox, type: "application/mbox")
        #expect(document.authors == ["Ann <ann@example.com>", "bob@example.org"])
        #expect(document.text.contains("First\nBody about the lighthouse."))
        #expect(document.text.contains("Second\nBody about the harbour."))
        #expect(document.creationDate == 1_672_653_600)
    }

    @Test("A file of a type without text is refused without reading it")
    func unsupported() async throws {
        try await blocking { [self] in try unsupportedBody() }
    }

    func unsupportedBody() throws {
        // (JPEG photos have content: their EXIF.)
        tree.write("sound.wav", "not really")
        let pool = try Self.makePool()
        defer { pool.shutdown() }
        guard case .failure(let failure) = pool.document(ofFileAtPathBytes: Array(tree.url("sound.wav").utf8), contentType: "audio/x-wav") else {
            Issue.record("expected a failure")
            return
        }
        #expect(failure.reason == .unsupported)
    }
}
