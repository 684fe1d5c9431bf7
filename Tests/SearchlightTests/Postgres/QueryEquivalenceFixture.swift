import Foundation
@testable import Searchlight
import SearchlightPostgres
import SearchlightTestSupport

/// Items in many scripts with every attribute the query language knows, the same items in a
/// SQLite index and in a PostgreSQL database, built once per test process; the ground truth of
/// ``QueryEquivalenceTests`` is the query's own evaluation in Swift (`QueryExpression.matches`).
final class QueryEquivalenceFixture: Sendable {
    static let shared = Task { try await QueryEquivalenceFixture() }

    let directory: URL
    let sqlite: SearchableIndex
    let postgres: PostgresIndex
    /// Every item, by its short key (`i00`, `i01`…).
    let items: [String: SearchableItem]

    /// Words to make names, titles and texts of, by script: each with its marks, its case and
    /// letters and digits mixed, so that `c`, `d`, `w` and `t` each decide something.
    static let words: [[String]] = [
        ["Quarterly", "report", "Résumé", "café", "naïve", "HTMLParser", "draft", "Zoë", "façade", "invoice", "d70", "x86_64"],
        ["Προϋπολογισμός", "σημείωμα", "Αθήνα", "ΈΡΓΟ", "νέο"],
        ["Отчёт", "поездке", "Москва", "ёлка", "ЙОГУРТ"],
        ["ملاحظات", "الاجتماع", "مُدير"],
        ["שלום", "עִברית"],
        ["नमस्ते", "हिन्दी", "दस्तावेज़"],
        ["东京", "会议记录", "旅行", "カメラ", "ひらがな"],
        ["ภาษาไทย", "สวัสดี"],
        ["한국어", "회의록", "서울"],
    ]

    static let types: [(type: String?, description: String?)] = [
        ("application/pdf", "PDF document, version 1.7"), ("text/plain", "Unicode text, UTF-8 text"),
        ("text/markdown", nil), ("image/jpeg", "JPEG image data, Exif standard"), ("image/png", "PNG image data, 800 x 600"),
        ("text/html", "HTML document, UTF-8 Unicode text"), ("application/json", "JSON text data"),
        ("application/vnd.openxmlformats-officedocument.wordprocessingml.document", "Microsoft Word 2007+"),
        ("video/mp4", "ISO Media, MP4 v2"), (nil, nil), ("application/gzip", "gzip compressed data"),
    ]

    static let domains = ["docs", "photos", "mail"]

    init() async throws {
        directory = URL(fileURLWithPath: TestScratch.path("query-equivalence", suffix: ""))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        sqlite = try SearchableIndex(path: directory.appendingPathComponent("index.sqlite").path)
        postgres = try await PostgresIndex(url: try await PostgresTestDatabase.makeURL(),
                                           operationTimeout: PostgresTestDatabase.operationTimeout, environment: [:])
        var items: [String: SearchableItem] = [:]
        var random = SeededRandom(seed: 48_271)
        for number in 0..<60 {
            let item = Self.item(number, &random)
            items[String(format: "i%02d", number)] = item
        }
        self.items = items
        let ordered = items.keys.sorted().map { items[$0]! }
        try sqlite.indexItems(ordered)
        try await postgres.indexItems(ordered)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Item `number`: some attributes left out at random, so that `!=` and `!` meet missing values.
    static func item(_ number: Int, _ random: inout SeededRandom) -> SearchableItem {
        let script = words[number % words.count]
        let other = words[(number * 7 + 3) % words.count]
        func pick(_ list: [String]) -> String { list[random.next(list.count)] }
        func sometimes<T>(_ value: @autoclosure () -> T, _ percent: Int = 70) -> T? {
            random.next(100) < percent ? value() : nil
        }
        let kind = types[number % types.count]
        let extensionName = ["pdf", "txt", "md", "jpg", "png", "html", "json", "docx", "mp4", "", "tar.gz"][number % types.count]
        let separators = [" ", "_", "-", ""]
        let nameWords = (0..<(1 + random.next(3))).map { _ in pick(random.next(3) == 0 ? other : script) }
        var name = nameWords.joined(separator: separators[random.next(separators.count)])
        if random.next(4) == 0 { name += " \(2020 + random.next(6))" }
        if !extensionName.isEmpty { name += "." + extensionName }
        let folder = ["", "reports/", "notes/2025/", "旅行/", "Σχέδια/", "a b/c*d/"][random.next(6)]

        var attributes = AttributeSet(contentType: kind.type)
        attributes.displayName = name
        attributes.title = sometimes((0..<(1 + random.next(3))).map { _ in pick(script) }.joined(separator: " "))
        attributes.contentDescription = kind.description
        attributes.authors = sometimes((0..<(1 + random.next(2))).map { _ in pick(script) + " " + pick(other) }, 40) ?? []
        attributes.keywords = sometimes((0..<(1 + random.next(3))).map { _ in pick(script).lowercased() }, 60) ?? []
        attributes.textContent = sometimes((0..<(3 + random.next(8))).map { _ in pick(random.next(4) == 0 ? other : script) }
            .joined(separator: [" ", ", ", ". ", "\n"][random.next(4)]), 60)
        attributes.size = sometimes(Int64([0, 10, 42, 999, 1000, 1024, 4096, 250_000, 5_000_000][random.next(9)] + number), 90)
        let now = QueryFixture.now.timeIntervalSince1970
        let offsets: [Double] = [-3_600, -86_400, -3 * 86_400, -8 * 86_400, -40 * 86_400, -400 * 86_400, 1_800, 86_400, -7_200]
        attributes.contentModificationDate = sometimes(Date(timeIntervalSince1970: now + offsets[random.next(offsets.count)]
                                                            + Double(number * 61)), 85)
        attributes.contentCreationDate = sometimes(Date(timeIntervalSince1970: now + 2 * offsets[random.next(offsets.count)]), 50)
        if kind.type?.hasPrefix("image/") == true || kind.type?.hasPrefix("video/") == true {
            attributes.pixelWidth = [640, 800, 1920, 4000][random.next(4)]
            attributes.pixelHeight = [480, 600, 1080, 3000][random.next(4)]
            attributes.acquisitionMake = sometimes(["Canon", "NIKON CORPORATION", "Apple"][random.next(3)])
            attributes.acquisitionModel = sometimes(["Canon EOS 5D", "NIKON D70", "iPhone 12"][random.next(3)])
            attributes.latitude = sometimes([48.8566, -33.8688, 37.9838, 0.5][random.next(4)], 50)
            attributes.longitude = sometimes([2.3522, 151.2093, 23.7275, -0.5][random.next(4)], 50)
        }
        if kind.type == "application/pdf" || kind.type?.contains("word") == true { attributes.pageCount = sometimes(1 + random.next(12)) }
        attributes.userTags = sometimes((0..<(1 + random.next(2))).map { _ in ["work", "Personal", "café", "υπόθεση", "重要"][random.next(5)] }, 40) ?? []
        attributes.comment = sometimes(pick(script) + " " + pick(other), 30)
        attributes.starRating = sometimes([0, 1, 2.5, 3, 5][random.next(5)], 40)
        attributes.whereFroms = sometimes(["https://example.com/\(pick(["a", "b", "report"]))", "mailto:zoë@example.org"], 30) ?? []
        return SearchableItem(uniqueIdentifier: ItemIdentifier(folder + name), domainIdentifier: domains[number % domains.count],
                              attributeSet: attributes, identifierIsPath: true)
    }

    /// The sorted keys of the items `query` returns from each backend and from its evaluation in Swift.
    func answers(_ query: String) async throws -> (sqlite: [String], postgres: [String], swift: [String]) {
        let expression = try QueryExpression(parsing: query)
        let now = QueryFixture.now, calendar = QueryFixture.calendar
        let lite = try sqlite.query(expression, now: now, calendar: calendar).map(key(of:)).sorted()
        let postgres = try await postgres.query(expression, now: now, calendar: calendar).map(key(of:)).sorted()
        let swift = items.filter { key, item in
            expression.matches(IndexedItem(item: item, thumbnailInfo: nil), now: now, calendar: calendar)
        }.keys.sorted()
        return (lite, postgres, swift)
    }

    func key(of item: IndexedItem) -> String {
        items.first { $0.value.uniqueIdentifier == item.item.uniqueIdentifier && $0.value.domainIdentifier == item.item.domainIdentifier }?.key ?? "?"
    }
}
