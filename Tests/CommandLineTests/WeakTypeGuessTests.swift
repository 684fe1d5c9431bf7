import Foundation
import SearchlightTestSupport
import Testing

/// Issue 51 through the built binaries, on a real folder with the real inspector and workers:
/// a Greek `.txt` that libmagic calls a DOS program, an RTF without a version digit (alone, in
/// a ZIP and attached to a mail), a Korean readme in Johab and a Thai feed in TIS-620 with
/// Windows-874's punctuation are each found by their words; `show` says what decided a type.
@Suite("searchlight when libmagic guesses weakly", .serialized, .ownThread)
struct WeakTypeGuessTests {
    let folder = ScannedFolder("weak-guess-cli")
    var tree: TemporaryTree { folder.tree }

    func run(_ arguments: [String]) throws -> CommandResult { try folder.run(arguments) }

    /// Writes `text` in `encoding` (by glibc's iconv) to `name`.
    func write(_ name: String, _ text: String, in encoding: String) throws {
        let converted = try ChildProcess.run(["/usr/bin/iconv", "-f", "UTF-8", "-t", encoding], input: Array(text.utf8))
        #expect(converted.status == 0)
        #expect(FileManager.default.createFile(atPath: tree.url(name), contents: Data(converted.stdout)))
    }

    /// An RTF with no version digit, in code page 1251, with `\uN` escapes with and without
    /// `\ucN`: Lithuanian by escapes, Russian by escapes and by `\'hh` bytes.
    static let rtf = #"{\rtf\ansi\ansicpg1251\deff0{\fonttbl{\f0 Arial;}}\f0 "#
        + #"\u352?iaur\u279?s \u382?vaig\u382?d\u279? \u353?vie\u269?ia. "#
        + #"{\uc0 \u1052\u1086\u1089\u1082\u1074\u1072} \'cf\'f0\'e8\'e2\'e5\'f2 \uc2 \u1084\'3f\'3f\u1080\u1088\'3f\'3f\par}"#

    @Test func filesLibmagicGuessesWeaklyAreFoundByTheirWords() throws {
        // Its first byte, 0xB8 (`Έ`), is a `mov` to libmagic's COM test.
        try write("greek.txt", "Έλα να δούμε τι γίνεται με το κείμενο αυτό, καλημέρα κόσμε από την Αθήνα.\n", in: "ISO-8859-7")
        let file = try ChildProcess.run(["/usr/bin/file", "-b", "--mime-type", tree.url("greek.txt")])
        #expect(String(decoding: file.stdout, as: UTF8.self) == "application/x-dosexec\n")
        try write("hlpro-readme.txt", String(repeating: "안녕하세요 한국어 설명서입니다 이것은 조합형 인코딩으로 저장된 파일입니다\n", count: 3),
                  in: "CP1361")
        let thai = "ภาษาไทยเป็นภาษาที่สวยงาม ฉันชอบกินข้าวผัด และอ่านหนังสือทุกวัน"
        try write("pharmacy.xml", "<?xml version=\"1.0\" encoding=\"tis-620\"?>\n<rss><channel>"
            + (1...5).map { "<item><title>\($0). “หัวข้อ”…</title><description>\(thai)</description></item>" }.joined()
            + "<item><description>สุดท้าย</description></item></channel></rss>\n", in: "CP874")
        tree.write("utf8.rtf", Self.rtf)
        tree.write("letters/note.rtf", Self.rtf)
        shell("sh", "-c", "cd '\(tree.url("letters"))' && zip -q ../letters.zip note.rtf && rm note.rtf")
        let attachment = Data(Self.rtf.utf8).base64EncodedString(options: .lineLength76Characters)
        tree.write("mail.eml", """
            From: Ona <ona@example.com>\r
            Subject: Laiskas\r
            MIME-Version: 1.0\r
            Content-Type: multipart/mixed; boundary="b1"\r
            \r
            --b1\r
            Content-Type: text/plain; charset=us-ascii\r
            \r
            See the attachment.\r
            --b1\r
            Content-Type: application/rtf; name="utf8.rtf"\r
            Content-Disposition: attachment; filename="utf8.rtf"\r
            Content-Transfer-Encoding: base64\r
            \r
            \(attachment)\r
            --b1--\r

            """)
        let scan = try run(["scan", tree.path, "--no-thumbnails"])
        #expect(scan.status == 0, "\(scan.stderr)")

        func found(_ word: String) throws -> Set<String> { Set(try run(["search", word]).paths(under: tree.path)) }
        #expect(try found("καλημέρα") == ["greek.txt"])
        #expect(try found("Αθήνα") == ["greek.txt"])
        #expect(try found("설명서입니다") == ["hlpro-readme.txt"])
        #expect(try found("조합형") == ["hlpro-readme.txt"])
        #expect(try found("สุดท้าย") == ["pharmacy.xml"])
        #expect(try found("หนังสือ") == ["pharmacy.xml"])
        for word in ["šiaurės", "žvaigždė", "šviečia", "Москва", "Привет", "мир"] {
            #expect(try found(word) == ["utf8.rtf", "letters.zip", "mail.eml"], "\(word)")
        }
        // The control words are not text.
        #expect(try found("ansicpg").isEmpty)

        let greek = try folder.json("greek.txt")
        #expect(greek["contentType"] as? String == "text/plain")
        #expect(greek["contentDescription"] as? String
            == "ISO-8859 text (typed by its .txt name and its bytes, over libmagic's weak guess: DOS executable (COM))")
        let shown = try run(["show", "greek.txt"]).output
        // (`show` quotes as Swift does: the apostrophe escaped.)
        #expect(shown.contains(#"contentTypeEvidence     = "its .txt name and its bytes, over libmagic\'s weak guess: DOS executable (COM)""#),
                "\(shown)")
        let rtf = try folder.json("utf8.rtf")
        #expect(rtf["contentType"] as? String == "text/rtf")
        #expect((rtf["contentDescription"] as? String)?.hasPrefix("Rich Text Format data (typed by its .rtf name and its {\\rtf start") == true)
        // What libmagic names strongly keeps libmagic's words.
        #expect(try folder.json("letters.zip")["contentType"] as? String == "application/zip")
        #expect(!(try run(["show", "pharmacy.xml"]).output.contains("contentTypeEvidence")))
        // `query --explain` says what decided the type a predicate matched.
        let explained = try run(["query", #"kMDItemContentType == "text/plain" && kMDItemFSName == "greek.txt""#, "--explain"])
        #expect(explained.output.contains("type decided by its .txt name and its bytes, over libmagic's weak guess: DOS executable (COM)"),
                "\(explained.output)")
    }
}
