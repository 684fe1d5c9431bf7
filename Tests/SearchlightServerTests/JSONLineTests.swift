import Foundation
import SearchlightJSON
import Testing

@Suite("JSON lines", .ownThread)
struct JSONLineTests {
    /// A Swift string is written as its bytes are (the path of raw identifiers), and reads back.
    @Test(arguments: ["plain", "", "quote \" backslash \\ slash /", "tab\tline\nreturn\rbell\u{07}delete\u{7F}end",
                      "Zürich Отчёт 東京 😀 e\u{301}", "\u{1F}\u{00}", "\"\\\""])
    func stringsAreWrittenLikeTheirBytes(text: String) throws {
        var fromString = JSONLine()
        fromString.add("value", text)
        fromString.add("list", strings: [text, "b"])
        var fromBytes = JSONLine()
        fromBytes.add("value", bytes: Array(text.utf8))
        var list: [UInt8] = []
        JSONLine.appendString(Array(text.utf8), to: &list)
        #expect(fromString.finished == Array(fromBytes.finished.dropLast())
                + Array(",\"list\":[".utf8) + list + Array(",\"b\"]}".utf8))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(fromString.finished)) as? [String: Any])
        #expect(object["value"] as? String == text)
        #expect(object["list"] as? [String] == [text, "b"])
    }
}
