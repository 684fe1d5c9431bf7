import ExtractionProtocol
import Foundation
import SearchlightTestSupport
import Testing
@testable import DocumentExtraction

/// The worker's parsing helpers on their own, for the cases a whole document hides.
@Suite("Document readers, piece by piece", .ownThread)
struct DocumentReaderUnitTests {
    @Test("RFC 5322 dates, with obsolete zones and two-digit years")
    func mailDates() {
        #expect(MailHeaderText.date("Tue, 24 Nov 2026 06:51:48 +0100") == 1_795_499_508)
        #expect(MailHeaderText.date("24 Nov 2026 05:51:48 GMT") == 1_795_499_508)
        #expect(MailHeaderText.date("Mon, 2 Jan 23 05:00:00 EST") == 1_672_653_600)
        #expect(MailHeaderText.date("Thu, 29 Feb 2024 23:59:60 -0000") == 1_709_251_200)
        #expect(MailHeaderText.date("not a date") == nil)
        #expect(MailHeaderText.date("Mon, 2 Foo 2023 10:00:00 +0000") == nil)
        #expect(MailHeaderText.date("Mon, 2 Jan 2023 25:00:00 +0000") == nil)
    }

    @Test("Encoded words: adjacent ones join, unknown ones stay as written")
    func encodedWords() {
        #expect(MailHeaderText.decode(Array("=?UTF-8?B?UsOpdW5pb24=?= =?UTF-8?Q?_du_lundi?=".utf8)[...]) == "Réunion du lundi")
        #expect(MailHeaderText.decode(Array("Re: =?iso-8859-1?q?caf=E9?= ou th\u{e9}".utf8)[...]) == "Re: café ou thé")
        #expect(MailHeaderText.decode(Array("=?x-unknown?Z?abc?= plain".utf8)[...]) == "=?x-unknown?Z?abc?= plain")
        #expect(MailHeaderText.decode(Array("=?Shift_JIS?B?k4yLng==?=".utf8)[...]).hasPrefix("東京"))
    }

    @Test("MIME parameters: quotes, RFC 2231 continuations and charsets")
    func parameters() {
        let (type, parameters) = MailHeaderText.parameters(Array(#"Text/Plain; charset="ISO-8859-1"; format=flowed; name*0*=UTF-8''r%C3%A9; name*1="sum"; name*2*=%C3%A9.txt"#.utf8)[...])
        #expect(type == "text/plain")
        #expect(parameters["charset"] == "ISO-8859-1")
        #expect(parameters["format"] == "flowed")
        #expect(parameters["name"] == "résumé.txt")
        #expect(MailHeaderText.parameters(Array(#"attachment; filename="a; b.pdf""#.utf8)[...]).parameters["filename"] == "a; b.pdf")
    }

    @Test("Mailboxes keep names with commas and bare addresses")
    func mailboxes() {
        #expect(MailHeaderText.mailboxes(#""Müller, Zoë" <zoe@example.com>, bob@example.org, <x@y.z>"#)
                == ["Müller, Zoë <zoe@example.com>", "bob@example.org", "x@y.z"])
    }

    @Test("Transfer encodings: quoted-printable soft breaks, base64 with line breaks and junk")
    func transferEncodings() {
        #expect(TransferDecoding.quotedPrintable(Array("caf=C3=A9 =\r\nsoft=\nbreak =XY".utf8)[...]) == Array("café softbreak =XY".utf8))
        #expect(TransferDecoding.base64(Array("aGVs\r\nbG8g\n d29y*bGQ=\n".utf8)[...]) == Array("hello world".utf8))
    }

    @Test("Multipart bodies split at delimiter lines only, in one pass")
    func multipartSplit() {
        let body = Array("preamble\r\n--b\r\nA: 1\r\n\r\none\r\n--bb not a delimiter\r\n--b\r\n\r\ntwo\r\n--b--\r\nepilogue".utf8)
        let (parts, isComplete) = MailReader.split(body[...], boundary: Array("b".utf8))
        #expect(isComplete)
        #expect(parts.map { String(decoding: $0, as: UTF8.self) } == ["A: 1\r\n\r\none\r\n--bb not a delimiter", "\r\ntwo"])
    }

    @Test("Encodings are told apart: BOMs, UTF-16 without a BOM, damaged UTF-8, legacy 8-bit")
    func encodingDetection() throws {
        #expect(TextDecoding.byteOrderMark([0xFF, 0xFE, 0, 0, 0x41])?.0 == "UTF-32LE")
        #expect(TextDecoding.byteOrderMark([0xFF, 0xFE, 0x41, 0])?.0 == "UTF-16LE")
        let utf16 = Array("plain words in UTF-16 without a mark".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(TextDecoding.utf16WithoutMark(utf16) == "UTF-16LE")
        #expect(try TextDecoding.decode(utf16).text == "plain words in UTF-16 without a mark")
        // Windows-1252: no valid UTF-8 sequence at all.
        let german: [UInt8] = [68, 105, 101, 32, 71, 114, 246, 223, 101, 32, 100, 101, 114, 32, 83, 116, 114, 97, 223, 101,
                               32, 105, 115, 116, 32, 115, 99, 104, 246, 110, 44, 32, 80, 114, 101, 105, 115, 32, 53, 32,
                               128, 44, 32, 67, 97, 102, 233, 46]
        #expect(try TextDecoding.decode(german).text == "Die Größe der Straße ist schön, Preis 5 €, Café.")
        // TIS-620 (Thai), which ICU's detector does not know; Cyrillic and Greek 8-bit texts
        // are not taken for it.
        let thai = "ภาษาไทยเป็นภาษาที่สวยงาม ฉันชอบกินข้าวผัด และอ่านหนังสือทุกวัน"
        let tis620 = thai.unicodeScalars.map { $0.value < 0x80 ? UInt8($0.value) : UInt8($0.value - 0xE00 + 0xA0) }
        #expect(TextDecoding.looksLikeTIS620(tis620))
        #expect(try TextDecoding.decode(tis620).text == thai)
        let russian = "Новогодняя ёлка стоит в зале, йогурт в холодильнике, всё хорошо и спокойно."
        let cp1251 = russian.unicodeScalars.map { scalar -> UInt8 in
            switch scalar.value {
            case 0x410...0x44F: UInt8(scalar.value - 0x410 + 0xC0)
            case 0x451: 0xB8
            default: UInt8(scalar.value)
            }
        }
        #expect(!TextDecoding.looksLikeTIS620(cp1251))
        #expect(!TextDecoding.looksLikeTIS620(german))
        // A prefix that ends inside a UTF-8 character is still UTF-8.
        let cut = Array("naïve €".utf8).dropLast()
        #expect(try TextDecoding.decode(Array(cut), isComplete: false).charset == "UTF-8")
        #expect(throws: ExtractionFailure.self) { try TextDecoding.decode([0, 1, 2, 3, 0, 0, 0, 9, 0, 0, 7, 8]) }
    }

    @Test("Text is capped on a character boundary")
    func capping() {
        #expect(DocumentText.capped("aé", toBytes: 2) == ("a", true))
        #expect(DocumentText.capped("aé", toBytes: 3) == ("aé", false))
        // Cut between the two scalars of 👍🏽: the first stays.
        #expect(DocumentText.capped("👍🏽x", toBytes: 5) == ("\u{1F44D}", true))
        #expect(DocumentText.capped("abc", toBytes: 0) == ("", true))
    }

    @Test("Markdown inline markup goes, the words stay")
    func markdownInline() {
        #expect(MarkdownExtractor.inlineText("**bold** _it_ `code` [link](http://x) ![alt](y.png) <b>tag</b> <http://a.b> snake_case \\*star\\* &amp;")
                == "bold it code link alt  tag  http://a.b snake_case *star* &")
        #expect(MarkdownExtractor.parse("Title\n---\nbody").title == "Title")
        #expect(MarkdownExtractor.parse("- item\n\n---\n\nafter").title == nil)
    }

    /// What `read` makes of `bytes` as a file named `name`.
    static func read(_ bytes: [UInt8], name: String, with read: (DocumentSource) throws(ExtractionFailure) -> ExtractedDocument)
        throws -> ExtractedDocument {
        let source = try DocumentSource(bytes: bytes, path: Array(name.utf8), textLimit: 1 << 20, contentType: "")
        defer { source.close() }
        return try read(source)
    }

    /// An RSS feed whose last item is cut short after `last`; its descriptions in CDATA when `cdata`.
    static func feed(cutAfter last: String, cdata: Bool, encoding: String = "UTF-8") -> String {
        let items = (1...40).map { number in
            let description = "Tide table \(number): the ferry leaves the quay at dawn."
            return "<item><title>Notice \(number)</title><description>\(cdata ? "<![CDATA[\(description)]]>" : description)</description></item>"
        }
        return "<?xml version=\"1.0\" encoding=\"\(encoding)\"?>\n<rss version=\"2.0\"><channel><title>Harbour news</title>\n"
            + items.joined(separator: "\n") + "\n<item><title>Storm warning</title><description>"
            + (cdata ? "<![CDATA[" : "") + last
    }

    @Test("A truncated or malformed XML file keeps every word read before the damage", arguments: [false, true])
    func damagedXML(cdata: Bool) throws {
        let last = String(repeating: "Gale from the west, keepers stay ashore. ", count: 12) + "Légère accalmie au château"
        // Cut in the last item's text (a long one, read by libxml2 in pieces), inside a
        // character, inside an end tag and inside a start tag.
        let text = Self.feed(cutAfter: last, cdata: cdata)
        let cuts: [[UInt8]] = [
            Array(text.utf8),
            Array(text.utf8) + [0xC3],
            Array((text + (cdata ? "]]></descr" : "</descr")).utf8),
            Array((text + (cdata ? "]]></description></item><item><tit" : "</description></item><item><tit")).utf8),
        ]
        for bytes in cuts {
            let document = try Self.read(bytes, name: "feed.rss", with: XMLExtractor.read)
            #expect(document.text.contains("Notice 40 Tide table 40: the ferry leaves the quay at dawn."))
            #expect(document.text.hasSuffix("Storm warning " + last), "\(document.text.suffix(80))")
        }
        // In the encoding the feed declares.
        let latin = try #require(Self.feed(cutAfter: last, cdata: cdata, encoding: "ISO-8859-1").data(using: .isoLatin1))
        #expect(try Self.read(Array(latin), name: "feed.rss", with: XMLExtractor.read).text.hasSuffix(last))
        // In Latin-1 without saying so (or saying UTF-8): decoded as plain text is.
        for declaration in ["", " encoding=\"UTF-8\""] {
            let undeclared = "<?xml version=\"1.0\"\(declaration)?>\n<rss><channel><item><title>Légère accalmie au château</title></item></channel></rss>"
            let bytes = try #require(undeclared.data(using: .isoLatin1))
            #expect(try Self.read(Array(bytes), name: "feed.rss", with: XMLExtractor.read).text == "Légère accalmie au château")
        }
        // Malformed: what comes before a stray `<` is kept.
        let stray = Array((Self.feed(cutAfter: "Keepers stay ashore < after the storm", cdata: false)).utf8)
        #expect(try Self.read(stray, name: "feed.rss", with: XMLExtractor.read).text.hasSuffix("Storm warning Keepers stay ashore"))
    }

    @Test("A truncated HTML page keeps every word read before the damage")
    func damagedHTML() throws {
        let page = "<html><head><title>Harbour</title></head><body><p>The ferry leaves at dawn.</p><p>Keepers stay <b>ashore</b> at"
        for cut in [page, page + " nig", page + "</p", page + "<p class=\"x", page + "<!-- note", page + " &am"] {
            let document = try Self.read(Array(cut.utf8), name: "page.html", with: HTMLExtractor.read)
            #expect(document.title == "Harbour")
            #expect(document.text.hasPrefix("The ferry leaves at dawn.\nKeepers stay ashore at"), "\(document.text)")
        }
        // Without `html` and `body` (a mail's HTML part, HTML5 that needs neither), every element is read.
        for fragment in ["<!DOCTYPE html><title>Harbour</title>", "<title>Harbour</title>", "<!-- saved -->", ""] {
            let document = try Self.read(Array((fragment + "<p>The ferry leaves at dawn.</p><ul><li>Keepers stay ashore</li></ul><div>at night</div>").utf8),
                                         name: "page.html", with: HTMLExtractor.read)
            #expect(document.text == "The ferry leaves at dawn.\nKeepers stay ashore\nat night", "\(fragment)")
        }
    }

    @Test("An XHTML chapter keeps its words past HTML's entities and up to where it is cut")
    func damagedXHTML() throws {
        func text(_ xhtml: String) throws -> String {
            var collector = TextCollector(limit: 1 << 20)
            try XHTMLText.read(Array(xhtml.utf8), name: "chapter.xhtml", into: &collector)
            return collector.text
        }
        let head = "<?xml version=\"1.0\"?><!DOCTYPE html><html xmlns=\"http://www.w3.org/1999/xhtml\"><body>"
        // `&nbsp;` is not an XML entity: libxml2's reader stops at it, its parser reads on.
        #expect(try text(head + "<p>Chapter&nbsp;one</p><p>The keeper<br/>lit the caf&eacute;&apos;s lamp.</p></body></html>")
                == "Chapter one\nThe keeper\nlit the café's lamp.")
        // With a DOCTYPE that may declare them, they are references, read as HTML's characters.
        let xhtml11 = #"<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">"#
        #expect(try text("<?xml version=\"1.0\"?>" + xhtml11 + "<html><body><p>Chapter&nbsp;one, caf&eacute;.</p></body></html>")
                == "Chapter one, café.")
        let long = (1...200).map { "<p>Line \($0) of the log.</p>" }.joined()
        let cut = try text(head + long + "<p>The storm & the <em>last</em> entry, cut sho")
        #expect(cut.hasSuffix("Line 200 of the log.\nThe storm the last entry, cut sho"), "\(cut.suffix(80))")
        #expect(cut.components(separatedBy: "Line 200 ").count == 2)
    }

    /// A message whose `multipart/alternative` has these parts, as (type, body) pairs.
    static func alternatives(_ parts: [(type: String, body: String)]) -> [UInt8] {
        let bodies = parts.map { part in
            // Base64 as mail programs send it, in lines of 76.
            let encoded = Data(part.body.utf8).base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
            return "--alt\r\nContent-Type: \(part.type); charset=\"utf-8\"\r\nContent-Transfer-Encoding: base64\r\n\r\n\(encoded)\r\n"
        }
        let message = "From: Ann <ann@example.com>\r\nSubject: Harbour\r\nMIME-Version: 1.0\r\n"
            + "Content-Type: multipart/mixed; boundary=\"mixed\"\r\n\r\n--mixed\r\n"
            + "Content-Type: multipart/alternative; boundary=\"alt\"\r\n\r\n" + bodies.joined() + "--alt--\r\n\r\n"
            + "--mixed\r\nContent-Type: text/plain; name=\"notes.txt\"\r\nContent-Disposition: attachment; filename=\"notes.txt\"\r\n\r\n"
            + "Attached notes.\r\n--mixed--\r\n"
        return Array(message.utf8)
    }

    @Test("A mail alternative's HTML part keeps the words its plain part lacks, and repeats none")
    func mailAlternatives() throws {
        func text(_ parts: [(type: String, body: String)]) throws -> String {
            try Self.read(Self.alternatives(parts), name: "message.eml", with: MailExtractor.read).text
        }
        // As in Tika's testRFC822_multipart_attachments.eml: the HTML says something else.
        let different = try text([
            ("text/plain", "Hi,\r\n\r\nThis is the test email for the harbour.\r\n\r\nThanks,\r\nAnn\r\n"),
            ("text/html", "<html><head><meta charset=utf-8></head><body>\nThis is the html body of the main msg.\n</body></html>"),
        ])
        #expect(different == "Hi,\r\n\r\nThis is the test email for the harbour.\r\n\r\nThanks,\r\nAnn\n\nThis is the html body of the main msg.\n\nAttached notes.")
        // The same words, wrapped and marked up otherwise, and a signature only the HTML has.
        let same = try text([
            ("text/plain", "The ferry leaves the quay at *dawn* (see\r\nhttps://example.com/tides).\r\n\r\n- Crème brûlée at the café\r\n"),
            ("text/html", "<p>The ferry leaves the quay at <b>dawn</b> (see <a href=\"https://example.com/tides\">tides</a>).</p>"
                + "<ul><li>Crème brûlée at the Café</li></ul><p>--<br>Ann, lighthouse keeper</p>"),
        ])
        #expect(same.components(separatedBy: "ferry").count == 2, "\(same)")
        #expect(same.components(separatedBy: "brûlée").count == 2, "\(same)")
        #expect(same.contains("\n\nAnn, lighthouse keeper\n\nAttached notes."), "\(same)")
        // Only HTML: its text, as before.
        #expect(try text([("text/html", "<p>Only <b>HTML</b> here.</p>")]) == "Only HTML here.\n\nAttached notes.")
    }

    @Test("An HTML page's declared charset, also as a quoted-printable mail part writes it")
    func declaredCharsets() {
        func declared(_ head: String) -> String? { HTMLExtractor.declaredCharset(Array(head.utf8)[...]) }
        #expect(declared(#"<meta charset="Shift_JIS">"#) == "shift_jis")
        #expect(declared("<META http-equiv=3DContent-Type content=3D\"text/html; =\ncharset=3Dwindows-1252\">") == "windows-1252")
        // Without quoted-printable around it, a name that starts with 3d is kept as it is.
        #expect(declared(#"<meta charset="3dfoo">"#) == "3dfoo")
    }
}
