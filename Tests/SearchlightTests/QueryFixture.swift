import Foundation
import SearchlightTestSupport
@testable import Searchlight

/// A small index of varied items, built once in a temporary directory with real SQLite, with
/// dates relative to a fixed "now" (Wednesday 2025-06-18 14:00 UTC) and a UTC calendar whose
/// weeks start on Monday.
final class QueryFixture: Sendable {
    static let shared: QueryFixture = {
        do { return try QueryFixture() } catch { fatalError("cannot build the query fixture: \(error)") }
    }()

    static let now = date("2025-06-18T14:00:00Z")
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        calendar.firstWeekday = 2
        return calendar
    }()

    let directory: URL
    let index: SearchableIndex
    /// Every item, by its short key (`A`, `B`…).
    let items: [String: SearchableItem]

    static func date(_ text: String) -> Date { QueryParser.isoDate(text)! }

    init() throws {
        directory = URL(fileURLWithPath: TestScratch.path("query", suffix: ""))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        index = try SearchableIndex(path: directory.appendingPathComponent("index.sqlite").path)
        var items: [String: SearchableItem] = [:]
        func add(_ key: String, _ id: String, domain: String = "docs", type: String?, title: String? = nil,
                 description: String? = nil, keywords: [String] = [], text: String? = nil, size: Int64? = nil,
                 modified: String? = nil, created: String? = nil, pixels: (Int, Int)? = nil, authors: [String] = [],
                 comment: String? = nil) {
            var attributes = AttributeSet(contentType: type)
            attributes.displayName = ItemIdentifier(id).lastComponent.isEmpty ? id
                : String(decoding: ItemIdentifier(id).lastComponent, as: UTF8.self)
            attributes.title = title
            attributes.contentDescription = description
            attributes.keywords = keywords
            attributes.textContent = text
            attributes.size = size
            attributes.contentModificationDate = modified.map(Self.date)
            attributes.contentCreationDate = created.map(Self.date)
            attributes.pixelWidth = pixels?.0
            attributes.pixelHeight = pixels?.1
            attributes.authors = authors
            attributes.comment = comment
            items[key] = SearchableItem(uniqueIdentifier: ItemIdentifier(id), domainIdentifier: domain, attributeSet: attributes,
                                        identifierIsPath: true)
        }
        add("A", "reports/Quarterly Report.pdf", type: "application/pdf", title: "Quarterly Report 2024",
            description: "PDF document, version 1.7", keywords: ["quarterly", "report", "finance"], size: 250_000,
            modified: "2025-06-17T10:00:00Z", created: "2025-01-10T00:00:00Z")
        add("B", "notes/report-draft.md", type: "text/markdown", title: "Report Draft", keywords: ["report", "draft"],
            text: "The quarterly numbers are in. See the Canon gear list.", size: 1200,
            modified: "2025-06-18T09:00:00Z", created: "2025-06-01T00:00:00Z")
        add("C", "cv/Résumé.pdf", type: "application/pdf", title: "Curriculum Vitæ", description: "PDF document, version 1.4",
            keywords: ["resume", "cv"], size: 80_000, modified: "2025-05-20T08:00:00Z")
        add("D", "2025/IMG_0001.jpg", domain: "photos", type: "image/jpeg", title: "Canon EOS shot",
            description: "JPEG image data, Exif standard", keywords: ["canon", "camera", "photo"], size: 5_000_000,
            modified: "2025-06-10T12:00:00Z", created: "2025-06-10T11:00:00Z", pixels: (4000, 3000))
        add("E", "screenshot.png", domain: "photos", type: "image/png", title: "screenshot",
            description: "PNG image data, 800 x 600", keywords: ["screen"], size: 300_000,
            modified: "2025-06-16T08:00:00Z", pixels: (800, 600))
        add("F", "旅行/东京旅行.txt", type: "text/plain", title: "东京旅行", keywords: ["东京"], text: "我们去了东京",
            size: 500, modified: "2024-12-31T23:00:00Z")
        add("G", "testWORD_various-2024.docx",
            type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", title: "testWORD various",
            size: 20_000, modified: "2023-03-03T03:03:00Z")
        add("H", "Café Menu.html", type: "text/html", title: "Le Café", description: "HTML document, UTF-8 Unicode text",
            keywords: ["café", "menu"], size: 4096, modified: "2025-06-18T13:00:00Z")
        add("I", "canonical.txt", type: "text/plain", title: "Canonical forms", text: "canonical text forms", size: 900,
            modified: "2025-01-01T00:00:00Z")
        add("J", "weird*name?.txt", type: "text/plain", size: 10, modified: "2022-01-01T00:00:00Z")
        add("K", "it's \"quoted\".txt", type: "text/plain", size: 42, modified: "2024-06-18T00:00:00Z")
        add("L", "archive.tar.gz", type: "application/gzip", size: 1_000_000)
        add("M", "src/HTMLParser.swift", type: "text/plain", text: "class HTMLParser {}", size: 3000,
            modified: "2025-06-18T12:00:00Z")
        add("N", "data.json", type: "application/json", title: "Data", size: 2048, modified: "2025-04-01T00:00:00Z")
        add("O", "movie.mp4", type: "video/mp4", title: "Holiday Movie", keywords: ["holiday", "video"],
            size: 50_000_000, modified: "2025-06-01T00:00:00Z", pixels: (1920, 1080))
        add("P", "raw_100%_[draft].txt", type: nil, title: "raw draft", size: 100, modified: "2021-05-05T00:00:00Z")
        // Korean and Thai, punctuation in the text, a comment; no size and no date.
        add("Q", "회의/회의록 서울", type: nil, title: "서울 회의록", keywords: ["서울"], text: "alpha, beta, gamma",
            authors: ["สวัสดี Anna"], comment: "budget draft दस्तावेज़")
        self.items = items
        try index.indexItems(items.keys.sorted().map { items[$0]! })
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// The short key of an indexed item.
    func key(of item: IndexedItem) -> String {
        items.first { $0.value.uniqueIdentifier == item.item.uniqueIdentifier && $0.value.domainIdentifier == item.item.domainIdentifier }?.key ?? "?"
    }

    /// The sorted keys of the items `query` returns.
    func keys(_ query: String) throws -> [String] {
        try index.query(QueryExpression(parsing: query), now: Self.now, calendar: Self.calendar).map(key(of:)).sorted()
    }
}
