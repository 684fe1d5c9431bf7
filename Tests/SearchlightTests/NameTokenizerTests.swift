import SearchlightTestSupport
import Testing
@testable import Searchlight

@Suite("Name tokenizer", .ownThread)
struct NameTokenizerTests {
    @Test("splits names into folded words", arguments: [
        ("testWORD_various-2024.docx", ["test", "word", "various", "2024", "docx"]),
        ("HTMLParser.swift", ["html", "parser", "swift"]),
        ("report2024final", ["report", "2024", "final"]),
        ("Quarterly Report (v2).pdf", ["quarterly", "report", "v", "2", "pdf"]),
        ("Résumé – Zoë Müller.md", ["resume", "zoe", "muller", "md"]),
        ("ÉLAN_vital", ["elan", "vital"]),
        ("ОтчётФинансы_2023.txt", ["отчет", "финансы", "2023", "txt"]),
        ("Ωmega-notes", ["ωmega", "notes"]),
        ("会议记录2024.md", ["会议记录", "2024", "md"]),
        ("photo会议.jpg", ["photo", "会议", "jpg"]),
        ("...", []),
        ("", []),
        ("a.b.c", ["a", "b", "c"]),
        ("IMG_0042.JPG", ["img", "0042", "jpg"]),
        ("iPhone12Pro", ["i", "phone", "12", "pro"]),
    ] as [(String, [String])])
    func words(name: String, expected: [String]) {
        #expect(NameTokenizer.words(in: name) == expected)
    }

    @Test func foldsCaseAndDiacritics() {
        #expect(NameTokenizer.fold("Crème Brûlée") == "creme brulee")
        #expect(NameTokenizer.fold("ASCII") == "ascii")
        #expect(NameTokenizer.fold("Ñandú") == "nandu")
    }

    @Test func joinedWordsFeedTheFullTextIndex() {
        #expect(NameTokenizer.joinedWords(in: "myFile_v2") == "my file v 2")
    }
}

@Suite("Surrogate escape", .ownThread)
struct SurrogateEscapeTests {
    @Test func validUTF8IsUnchanged() {
        let bytes = Array("Résumé 会议.md".utf8)
        #expect(SurrogateEscape.utf16(from: bytes) == Array("Résumé 会议.md".utf16))
    }

    @Test func invalidBytesBecomeLoneSurrogatesAndComeBack() {
        let bytes: [UInt8] = [0x61, 0xFF, 0x62, 0xC3, 0x28, 0xE2, 0x82]
        let escaped = SurrogateEscape.utf16(from: bytes)
        #expect(escaped == [0x61, 0xDCFF, 0x62, 0xDCC3, 0x28, 0xDCE2, 0xDC82])
        #expect(SurrogateEscape.bytes(from: escaped) == bytes)
    }

    @Test func identifiersThatDifferStayDistinct() {
        let latin1 = ItemIdentifier(bytes: [0x72, 0xE9, 0x73])
        let replaced = ItemIdentifier("r\u{FFFD}s")
        #expect(latin1.lossyString == replaced.lossyString)
        #expect(latin1.surrogateEscapedUTF16 != replaced.surrogateEscapedUTF16)
    }
}
