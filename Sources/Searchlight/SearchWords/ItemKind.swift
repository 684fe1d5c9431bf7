import Foundation

/// The kinds people look for — documents, PDFs, images, presentations, spreadsheets, text —
/// from an item's content type: what the page filters by and draws icons for, and what the
/// search word `kind:` means. The one home of the rule: ``init(contentType:tree:)`` decides
/// in Swift and ``queryString`` says the same in the query language.
///
/// ```swift
/// ItemKind(contentType: "application/pdf", tree: [])  // .pdf
/// ItemKind(contentType: "text/csv", tree: ["text"])   // .spreadsheet
/// ItemKind(searchWord: "photos")                      // .image
/// ItemKind.pdf.queryString                            // the same test as a query
/// ```
public enum ItemKind: String, CaseIterable, Sendable {
    /// The kinds: documents (word processing, RTF, EPUB, HTML, Markdown, mail), PDFs, images,
    /// presentations, spreadsheets, other text, and everything else; ``rules`` says which
    /// content types make each.
    case document, pdf, image, presentation, spreadsheet, text, other

    /// One test on a content type (lowercased).
    enum Test: Sendable {
        /// The type is exactly this.
        case type(String)
        /// The type contains this.
        case containing(String)
        /// The type's tree (``ContentTypeTree``) holds this.
        case tree(String)
    }

    /// The kinds in the order they are tried, with the tests of each; the first kind one of
    /// whose tests holds is the item's, and an item no test holds for is ``other``.
    static let rules: [(kind: ItemKind, tests: [Test])] = [
        (.pdf, [.type("application/pdf")]),
        (.image, [.tree("image")]),
        (.presentation, [.containing("presentation"), .containing("powerpoint"), .containing("keynote")]),
        (.spreadsheet, [.containing("spreadsheet"), .containing("excel"), .type("text/csv"),
                        .type("text/tab-separated-values")]),
        (.document, [.containing("wordprocessing"), .type("application/msword"), .containing("opendocument.text"),
                     .type("application/rtf"), .type("text/rtf"), .type("application/epub+zip"), .type("text/html"),
                     .type("text/markdown"), .type("message/rfc822")]),
        (.text, [.tree("text")]),
    ]

    /// The kind of an item whose content type is `contentType` (with its tree).
    ///
    /// Cheap: a few comparisons of bytes, no allocation but the lowercased type; the server runs
    /// it for every result it filters by kind.
    public init(contentType: String?, tree: [String]) {
        let type = contentType?.lowercased() ?? ""
        func holds(_ test: Test) -> Bool {
            switch test {
            case .type(let value): type == value
            // Byte for byte: Foundation's `contains` (NSString's search) cost a served search 2 %,
            // the standard library's generic `firstRange(of:)` 14 %.
            case .containing(let value): Self.occurs(value, in: type)
            case .tree(let value): tree.contains(value)
            }
        }
        self = Self.rules.first { $0.tests.contains(where: holds) }?.kind ?? .other
    }

    /// Whether `needle`'s bytes occur in `haystack`'s.
    ///
    /// A naive byte search: the needles and the types are short.
    static func occurs(_ needle: String, in haystack: String) -> Bool {
        var needle = needle, haystack = haystack
        return haystack.withUTF8 { haystack in
            needle.withUTF8 { needle in
                guard needle.count <= haystack.count else { return false }
                guard let first = needle.first else { return true }
                for start in 0...(haystack.count - needle.count) where haystack[start] == first {
                    var length = 1
                    while length < needle.count && haystack[start + length] == needle[length] { length += 1 }
                    if length == needle.count { return true }
                }
                return false
            }
        }
    }

    /// The kind of an item, from its ``AttributeSet/contentType`` and ``AttributeSet/contentTypeTree``.
    public init(_ item: SearchableItem) {
        self.init(contentType: item.attributeSet.contentType, tree: item.attributeSet.contentTypeTree)
    }

    /// The kind as a query string: its tests, and none of the tests of the kinds tried before it.
    ///
    /// ```swift
    /// ItemKind.pdf.queryString // (contentType == "application/pdf"c)
    /// ```
    ///
    /// The earlier kinds' tests are negated so that the query picks exactly the items this
    /// initializer classifies as the kind: each item answers the `kind:` of one kind only.
    public var queryString: String {
        func query(_ test: Test) -> String {
            switch test {
            case .type(let value): "contentType == \(SearchWords.quoted(value))c"
            case .containing(let value): "contentType == \(SearchWords.quoted(value, prefix: true, suffix: true))c"
            case .tree(let value): "contentTypeTree == \(SearchWords.quoted(value))"
            }
        }
        func any(_ tests: [Test]) -> String { "(" + tests.map(query).joined(separator: " || ") + ")" }
        let position = Self.rules.firstIndex { $0.kind == self } ?? Self.rules.endIndex
        let earlier = Self.rules[..<position].map { "!" + any($0.tests) }
        guard position < Self.rules.endIndex else { return earlier.joined(separator: " && ") }
        return ([any(Self.rules[position].tests)] + earlier).joined(separator: " && ")
    }

    /// The kind a `kind:` search word names: its name, plural or not (`pdfs`, `images`), and a
    /// few of Spotlight's words (`docs`, `pictures`, `photos`, `slides`).
    public init?(searchWord: String) {
        let word = searchWord.lowercased()
        let aliases: [String: ItemKind] = [
            "documents": .document, "docs": .document, "doc": .document, "pdfs": .pdf, "images": .image,
            "picture": .image, "pictures": .image, "photo": .image, "photos": .image, "presentations": .presentation,
            "slides": .presentation, "spreadsheets": .spreadsheet, "texts": .text, "others": .other,
        ]
        if let kind = ItemKind(rawValue: word) ?? aliases[word] { self = kind } else { return nil }
    }
}
