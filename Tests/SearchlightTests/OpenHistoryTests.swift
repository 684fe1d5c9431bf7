import Foundation
import SearchlightTestSupport
import Testing
@testable import Searchlight

@Suite("Items opened rank higher")
struct OpenHistoryTests {
    let history = OpenHistory(path: TestScratch.path("opened", suffix: "/searchlight/opened.tsv"))

    func result(_ id: String, _ field: SearchResult.Field, domain: String = "docs") -> SearchResult {
        let item = SearchableItem(uniqueIdentifier: ItemIdentifier(id), domainIdentifier: domain, attributeSet: AttributeSet())
        return SearchResult(item: IndexedItem(item: item, thumbnailInfo: nil), matchedIn: field)
    }

    @Test func openedItemsMoveAheadAmongTheResultsOfTheirFieldAndFade() throws {
        let now = Date()
        #expect(history.isEmpty)
        history.record(domain: "docs", identifier: ItemIdentifier("b.txt"), at: now)
        history.record(domain: "docs", identifier: ItemIdentifier("c.txt"), at: now.addingTimeInterval(-100 * 86_400))
        history.record(domain: "docs", identifier: ItemIdentifier("c.txt"), at: now.addingTimeInterval(-95 * 86_400))
        history.record(domain: "other", identifier: ItemIdentifier("a.txt"), at: now)
        #expect(!history.isEmpty)
        let scores = history.scores(now: now)
        #expect(scores[OpenHistory.Key(domain: "docs", identifier: Array("b.txt".utf8))] == 100)
        #expect(scores[OpenHistory.Key(domain: "docs", identifier: Array("c.txt".utf8))] == 20)
        let results = [result("a.txt", .name), result("c.txt", .name), result("b.txt", .name),
                       result("d.txt", .content), result("e.txt", .content), result("b.txt", .content, domain: "else")]
        // Within each run of one field, the opened first; the fields keep their order; another
        // domain's item of the same path is another item.
        #expect(history.reordered(results, now: now).map { $0.item.item.uniqueIdentifier.lossyString }
            == ["b.txt", "c.txt", "a.txt", "d.txt", "e.txt", "b.txt"])
        let mode = try FileManager.default.attributesOfItem(atPath: history.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    /// Openings recorded at once, by several writers of one file (the page and the desktop),
    /// are all kept: each line is appended whole (`O_APPEND`), none written over another.
    @Test func openingsRecordedAtOnceAreAllKept() {
        let now = Date()
        let path = history.path
        DispatchQueue.concurrentPerform(iterations: 4) { writer in
            let mine = OpenHistory(path: path)
            for number in 0..<50 { mine.record(domain: "docs", identifier: ItemIdentifier("w\(writer)-\(number).txt"), at: now) }
        }
        #expect(history.scores(now: now).count == 200)
    }

    @Test func theHistoryStaysBounded() throws {
        let folder = (history.path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let now = Int(Date().timeIntervalSince1970)
        var lines = ""
        for number in 0..<(OpenHistory.maximumLines + 10) {
            lines += "\(now - number)\tdocs\t\(Data("file-\(number % 1500).txt".utf8).base64EncodedString())\n"
        }
        try lines.write(toFile: history.path, atomically: true, encoding: .utf8)
        history.record(domain: "docs", identifier: ItemIdentifier("last.txt"))
        let kept = try String(contentsOfFile: history.path, encoding: .utf8).split(separator: "\n")
        #expect(kept.count <= OpenHistory.keptItems * OpenHistory.visitsPerItem)
        #expect(Set(kept.map { $0.split(separator: "\t")[2] }).count == OpenHistory.keptItems)
        #expect(history.scores()[OpenHistory.Key(domain: "docs", identifier: Array("last.txt".utf8))] == 100)
    }
}
