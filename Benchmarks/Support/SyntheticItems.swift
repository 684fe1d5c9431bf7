import Foundation
import Searchlight

/// A deterministic generator, so that every run builds the same items.
public struct Generator {
    public var state: UInt64

    public init(state: UInt64 = 0x5EED) { self.state = state }

    /// A number in `0..<bound`.
    public mutating func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }
}

/// The synthetic file-like items that query-bench and postgres-bench index: names of one to
/// three words, sometimes a year, then a number and an extension; two folders; a type, its
/// description, a size, a date in the last three years, the name's words and the extension
/// as keywords, and a pixel size for images. The same seed gives the same items.
public struct SyntheticItems {
    public static let words = [
        "report", "invoice", "holiday", "photo", "budget", "meeting", "notes", "draft", "final", "summary",
        "project", "design", "contract", "résumé", "letter", "plan", "review", "scan", "backup", "agenda",
        "quarterly", "annual", "client", "team", "travel", "recipe", "manual", "slides", "thesis", "canon",
        "Zürich", "café", "Müller", "отчёт", "会议", "xylophone",
    ]
    /// Extension, content type and description.
    public static let types: [(String, String, String)] = [
        ("txt", "text/plain", "ASCII text"), ("md", "text/plain", "UTF-8 Unicode text"),
        ("pdf", "application/pdf", "PDF document, version 1.4"), ("jpg", "image/jpeg", "JPEG image data, JFIF standard 1.01"),
        ("png", "image/png", "PNG image data, 8-bit/color RGBA"),
        ("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "Microsoft Word 2007+"),
        ("json", "application/json", "JSON text data"), ("html", "text/html", "HTML document, ASCII text"),
    ]

    private var random = Generator()
    private let now = Date().timeIntervalSince1970

    public init() {}

    /// The item numbered `number`, in `domain`; items are drawn in order, one call each.
    public mutating func item(_ number: Int, domain: String) -> SearchableItem {
        let type = Self.types[random.next(Self.types.count)]
        var name = ""
        for position in 0..<(1 + random.next(3)) {
            let word = Self.words[random.next(Self.words.count)]
            name += position == 0 ? word.capitalized : (random.next(2) == 0 ? " " + word : word.capitalized)
        }
        if random.next(3) == 0 { name += " \(2015 + random.next(11))" }
        name += " \(number).\(type.0)"
        let folder = "\(Self.words[random.next(Self.words.count)])/\(Self.words[random.next(Self.words.count)])-\(number / 100)"
        var attributes = AttributeSet(contentType: type.1)
        attributes.displayName = name
        attributes.title = String(name.dropLast(type.0.count + 1))
        attributes.contentDescription = type.2
        attributes.keywords = NameTokenizer.words(in: name) + [type.0]
        attributes.size = Int64(random.next(5_000_000))
        attributes.contentModificationDate = Date(timeIntervalSince1970: now - Double(random.next(3 * 365 * 86_400)))
        if type.1.hasPrefix("image/") {
            attributes.pixelWidth = 320 + random.next(6000)
            attributes.pixelHeight = 240 + random.next(4000)
        }
        return SearchableItem(uniqueIdentifier: ItemIdentifier(folder + "/" + name), domainIdentifier: domain,
                              attributeSet: attributes, changeStamp: Array(repeating: 7, count: 32),
                              identifierIsPath: true)
    }
}
