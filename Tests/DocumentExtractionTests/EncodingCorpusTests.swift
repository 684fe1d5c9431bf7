import ExtractionProtocol
import Foundation
import SearchlightTestSupport
import Testing
@testable import DocumentExtraction

/// A corpus of our own in the encodings people still have — written by glibc's `iconv(1)`,
/// as plain text, HTML and XML, some of them declaring an encoding their bytes belie — and
/// every file decodes to the words its real encoding gives.
@Suite("Every encoding of the corpus decodes to its words", .ownThread)
struct EncodingCorpusTests {
    /// Sentences of each script, and the encodings iconv writes them in.
    static let samples: [(encoding: String, text: String)] = [
        ("UTF-8", "Šiaurės žvaigždė šviečia virš ąžuolyno, o Ūkininkė skaito laikraštį."),
        ("WINDOWS-1252", "L'été dernier, au château du phare, une crème brûlée coûtait cinq euros."),
        ("ISO-8859-7", "Έλα να δούμε τι γίνεται με το κείμενο αυτό, καλημέρα κόσμε από την Αθήνα."),
        ("WINDOWS-1253", "Ο ήλιος λάμπει πάνω από τη θάλασσα και τα παιδιά παίζουν στην παραλία."),
        ("WINDOWS-1251", "Новогодняя ёлка стоит в зале, йогурт в холодильнике, всё хорошо и спокойно."),
        ("KOI8-R", "Старый корабль медленно входил в гавань, и чайки кричали над мачтами."),
        ("ISO-8859-2", "Żółta łódź płynęła po jeziorze, a dzieci śpiewały piosenkę o wiośnie."),
        ("TIS-620", "ภาษาไทยเป็นภาษาที่สวยงาม ฉันชอบกินข้าวผัด และอ่านหนังสือทุกวัน"),
        ("CP1361", "안녕하세요 한국어 텍스트 파일입니다 이것은 조합형 인코딩으로 저장된 설명서입니다"),
        ("EUC-KR", "서울의 봄은 따뜻하고 사람들은 공원에서 산책을 즐깁니다 오늘도 날씨가 좋습니다"),
        ("SHIFT_JIS", "東京の春は桜が美しく、人々は公園で花見を楽しみます。今日も天気が良いです。"),
        ("EUC-JP", "京都の秋は紅葉が美しく、多くの観光客が寺院を訪れます。夕方には雨が降りました。"),
        ("GB18030", "北京的秋天天气很好，我们一起去公园散步，看见很多人在跳舞和唱歌。"),
        ("BIG5", "台北的夏天非常炎熱，我們常常去海邊游泳，晚上在夜市吃小吃。"),
        ("WINDOWS-1256", "مرحبا بكم في مدينة القاهرة حيث يجري نهر النيل بين الحدائق والبيوت القديمة"),
        ("ISO-8859-8", "שלום לכולם והברכה על הבית החדש שנבנה ליד הים הגדול בעיר העתיקה"),
    ]

    /// `text` in `encoding`, written by iconv.
    static func encoded(_ text: String, _ encoding: String) throws -> [UInt8] {
        let result = try ChildProcess.run(["/usr/bin/iconv", "-f", "UTF-8", "-t", encoding], input: Array(text.utf8))
        #expect(result.status == 0, "iconv to \(encoding): \(String(decoding: result.stderr, as: UTF8.self))")
        return result.stdout
    }

    /// Whether every word of `expected` is in `text` (in Thai and Japanese a word may hold
    /// none of the spaces the other scripts put between words: compared as runs between spaces).
    static func expectWords(of expected: String, in text: String, _ label: String) {
        let missing = expected.split(whereSeparator: \.isWhitespace).filter { !text.contains($0) }
        #expect(missing.isEmpty, "\(label): missing \(missing.prefix(3)) in \(text.prefix(120).debugDescription)")
    }

    static func read(_ bytes: [UInt8], name: String, with read: (DocumentSource) throws(ExtractionFailure) -> ExtractedDocument)
        throws -> ExtractedDocument {
        try DocumentReaderUnitTests.read(bytes, name: name, with: read)
    }

    @Test("Plain text, an HTML page and an XML feed in each encoding, declared or not", arguments: samples.map(\.encoding))
    func eachEncoding(_ encoding: String) throws {
        let text = try #require(Self.samples.first { $0.encoding == encoding }).text
        // Three paragraphs: detectors need some text.
        let body = [text, text.split(separator: " ").reversed().joined(separator: " "), text].joined(separator: "\n")
        let plain = try Self.encoded(body + "\n", encoding)
        Self.expectWords(of: body, in: try Self.read(plain, name: "notes.txt", with: PlainTextExtractor.read).text, "\(encoding) text")
        let label = encoding == "CP1361" ? "johab" : encoding.lowercased()
        for declared in [label, nil] {
            let meta = declared.map { "<meta charset=\"\($0)\">" } ?? ""
            let page = try Self.encoded("<html><head>\(meta)<title>t</title></head><body><p>\(body)</p></body></html>\n", encoding)
            Self.expectWords(of: body, in: try Self.read(page, name: "page.html", with: HTMLExtractor.read).text,
                             "\(encoding) HTML declared \(declared ?? "nothing")")
        }
        let xml = try Self.encoded("<?xml version=\"1.0\" encoding=\"\(label)\"?>\n<rss><channel><item><description>\(body)</description></item></channel></rss>\n", encoding)
        Self.expectWords(of: body, in: try Self.read(xml, name: "feed.xml", with: XMLExtractor.read).text, "\(encoding) XML")
    }

    @Test("A declared encoding the bytes belie gives way to the bytes")
    func lyingDeclarations() throws {
        let russian = try #require(Self.samples.first { $0.encoding == "WINDOWS-1251" }).text
        let thai = try #require(Self.samples.first { $0.encoding == "TIS-620" }).text
        let korean = try #require(Self.samples.first { $0.encoding == "CP1361" }).text
        let lithuanian = try #require(Self.samples.first { $0.encoding == "UTF-8" }).text
        // (the bytes' encoding, what the page declares, the text)
        let lies: [(String, String, String)] = [
            ("WINDOWS-1251", "iso-8859-1", russian), ("UTF-8", "windows-1252", lithuanian), ("UTF-8", "tis-620", thai),
            ("TIS-620", "iso-8859-1", thai), ("CP1361", "euc-kr", korean), ("CP1361", "windows-1252", korean),
        ]
        for (encoding, declared, text) in lies {
            let body = [text, text, text].joined(separator: "\n")
            let page = try Self.encoded("<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=\(declared)\">"
                + "</head><body><p>\(body)</p></body></html>", encoding)
            Self.expectWords(of: body, in: try Self.read(page, name: "page.html", with: HTMLExtractor.read).text,
                             "\(encoding) HTML declared \(declared)")
            let xml = try Self.encoded("<?xml version=\"1.0\" encoding=\"\(declared)\"?>\n<doc><p>\(body)</p></doc>\n", encoding)
            Self.expectWords(of: body, in: try Self.read(xml, name: "doc.xml", with: XMLExtractor.read).text,
                             "\(encoding) XML declared \(declared)")
        }
    }

    @Test("A TIS-620 feed with Windows-874's punctuation keeps every word after it")
    func thaiFeedWithWindows874Punctuation() throws {
        let thai = try #require(Self.samples.first { $0.encoding == "TIS-620" }).text
        // “…” and the ellipsis are Windows-874's 0x93, 0x94 and 0x85: not TIS-620, which
        // libxml2's converter (iconv's TIS-620) refused, losing the rest of the feed.
        let items = (1...5).map { "<item><title>\($0). “หัวข้อ”…</title><description>\(thai)</description></item>" }
        let feed = try Self.encoded("<?xml version=\"1.0\" encoding=\"tis-620\"?>\n<rss><channel>"
            + items.joined(separator: "\n") + "<item><description>สุดท้าย ขอบคุณค่ะ</description></item></channel></rss>\n", "CP874")
        let text = try Self.read(feed, name: "feed.xml", with: XMLExtractor.read).text
        Self.expectWords(of: thai, in: text, "TIS-620 feed")
        #expect(text.contains("สุดท้าย") && text.contains("ขอบคุณค่ะ") && text.contains("“หัวข้อ”…"))
    }

    /// The first lines of a Polish list of countries (iso-codes' translation), which ICU's
    /// detector takes for Big5 (confidence 59 against ISO-8859-2's 38).
    static let polishCountries =
        """
        Afganistan
        Albania
        Algieria
        Samoa Amerykańskie
        Andora
        Angola
        Anguilla
        Antarktyka
        Antigua i Barbuda
        Egipska Republika Arabska
        Argentyna
        Republika Argentyńska
        Armenia
        Aruba
        Australia
        Austria
        Azerbejdżan
        Bahamy
        Bahrajn
        Bangladesz
        Barbados
        Białoruś
        Belgia
        Belize
        Benin
        Bermudy
        Bhutan
        Boliwariańska Republika Wenezueli
        Boliwia
        Boliwia - Wielonarodowe Państwo
        Bonaire, Sint Eustatius i Saba
        Bośnia i Hercegowina
        Botswana
        Wyspa Bouveta
        Brazylia
        Brytyjskie Terytorium Oceanu Indyjskiego
        Brytyjskie Wyspy Dziewicze
        Państwo Brunei
        Bułgaria
        Burkina Faso
        Burundi
        Republika Zielonego Przylądka
        Kambodża
        Kamerun
        Kanada
        Kajmany
        Republika Środkowoafrykańska
        Czad
        Chile
        Chiny
        Wyspa Bożego Narodzenia
        Wyspy Kokosowe (Wyspy Keelinga)
        Kolumbia
        Wspólnota Dominiki
        Wspólnota Bahamów
        Wspólnota Marianów Północnych
        Komory
        Kongo
        Kongo, Demokratyczna Republika Konga
        Wyspy Cooka
        Kostaryka
        Chorwacja
        Kuba
        Curaçao
        Cypr
        Republika Czeska
        Czechy
        Wybrzeże Kości Słoniowej
        Koreańska Republika Ludowo-Demokratyczna
        Demokratyczna Republika Wysp Św. Tomasza i Książęcej
        Demokratyczna Republika Timoru Wschodniego
        Demokratyczno-Socjalistyczna Republika Sri Lanki
        Dania
        Dżibuti
        Dominika
        Republika Dominikańska
        """

    @Test("A Latin text with a few accented letters is not read as Chinese when ICU's detector guesses Big5")
    func latinTextIsNotReadAsCJK() throws {
        let bytes = try Self.encoded(Self.polishCountries, "ISO-8859-2")
        // The case this test is about: the detector's first guess is a multi-byte charset.
        #expect(TextDecoding.detections(bytes).first?.name == "Big5")
        #expect(!TextDecoding.spellsCJK(bytes, in: "Big5"))
        #expect(TextDecoding.detect(bytes) == "ISO-8859-2")
        Self.expectWords(of: Self.polishCountries, in: try Self.read(bytes, name: "countries.txt", with: PlainTextExtractor.read).text,
                         "ISO-8859-2 countries")
        let page = try Self.encoded("<html><body><ul><li>" + Self.polishCountries.replacingOccurrences(of: "\n", with: "<li>")
            + "</ul></body></html>", "ISO-8859-2")
        Self.expectWords(of: Self.polishCountries, in: try Self.read(page, name: "countries.html", with: HTMLExtractor.read).text,
                         "ISO-8859-2 countries, HTML")
        // Chinese, Japanese and Korean, alone or among Latin words, still spell their script.
        for (encoding, text) in Self.samples where ["SHIFT_JIS", "EUC-JP", "GB18030", "BIG5", "EUC-KR"].contains(encoding) {
            let mixed = try Self.encoded("Release notes for version 2.4 of Searchlight: " + text + " See README.md and NEWS.", encoding)
            let charset = ["SHIFT_JIS": "Shift_JIS", "BIG5": "Big5"][encoding] ?? encoding
            #expect(TextDecoding.spellsCJK(try Self.encoded(text, encoding), in: charset), "\(encoding)")
            #expect(TextDecoding.spellsCJK(mixed, in: charset), "\(encoding) among Latin words")
        }
    }

    @Test("Johab is told from EUC-KR and from other scripts' 8-bit encodings")
    func johabDetection() throws {
        let korean = try #require(Self.samples.first { $0.encoding == "CP1361" }).text
        #expect(TextDecoding.looksLikeJohab(try Self.encoded(korean, "CP1361")))
        #expect(try TextDecoding.decode(try Self.encoded(korean, "CP1361")).text == korean)
        for (encoding, text) in Self.samples where encoding != "CP1361" {
            #expect(!TextDecoding.looksLikeJohab(try Self.encoded(text + " " + text, encoding)), "\(encoding)")
        }
    }

    @Test("RTF without a version digit, in a code page, with \\uN escapes with and without \\ucN")
    func rtfVariants() throws {
        // Lithuanian in code page 1257 by \'hh bytes, then by escapes under \uc1 (the default), \uc0 and \uc2.
        let rtf = #"{\rtf\ansi\ansicpg1257 \'d0iaur\'ebs \'fevaig\'fed\'eb. \u353?vie\u269?ia {\uc0 \u261\u382uolas} "#
            + #"\uc2 \u363\'3f\'3fkis\par}"#
        let document = try RTFExtractor.extract(bytes: Array(rtf.utf8), textLimit: 1000)
        #expect(document.text == "Šiaurės žvaigždė. šviečia ąžuolas ūkis")
    }
}
