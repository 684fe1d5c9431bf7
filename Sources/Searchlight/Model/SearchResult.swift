/// One result of ``SearchableIndex/searchResults(words:domain:limit:scope:)``: the item, where
/// the words were found, and for a match in the text, the text around it.
public struct SearchResult: Hashable, Sendable {
    /// Where an item matched the search words.
    public enum Field: String, Hashable, Sendable, CaseIterable {
        case name, title, authors, keywords, folders, content
        /// No word was searched: the item passed the search words (``SearchWords``) such as
        /// `kind:pdf` or `tag:work` alone.
        case attributes
    }

    /// The item (without its text).
    public var item: IndexedItem
    /// The field the match depended on: of the fields where each word matched best, the one
    /// ranked last (name, title, authors or keywords, folders, then content). A match that
    /// needed the text is a `content` match.
    public var matchedIn: Field
    /// For a `content` match: at most ``Snippet/maximumLength`` characters of the text around
    /// the first matching word, the matching words marked with `[` `]`.
    public var snippet: String?
    /// The words searched instead of the typed ones, which found nothing: the typed words
    /// spelled as the index spells them (a spelling correction). `nil` for a result of the words
    /// as typed.
    public var spelling: [String]?

    public init(item: IndexedItem, matchedIn: Field, snippet: String? = nil, spelling: [String]? = nil) {
        self.item = item
        self.matchedIn = matchedIn
        self.snippet = snippet
        self.spelling = spelling
    }
}

extension SearchResult.Field {
    /// The field a name-search match depended on: of the fields where each word matched best
    /// (a whole word before a prefix; name, title, keywords, folders in that order), the last.
    init(names tokens: [String], of indexed: IndexedItem) {
        let attributes = indexed.item.attributeSet
        let fields: [(SearchResult.Field, [String])] = [
            (.name, NameTokenizer.words(in: attributes.displayName ?? "")),
            (.title, NameTokenizer.words(in: attributes.title ?? "")),
            (.keywords, attributes.rankedKeywords.flatMap(NameTokenizer.words(in:))),
            (.folders, indexed.item.identifierIsPath
                ? indexed.item.uniqueIdentifier.parentComponents.flatMap(NameTokenizer.words(in:)) : []),
        ]
        var worst = 0
        for token in tokens {
            let best = fields.firstIndex { $0.1.contains(token) } ?? fields.firstIndex { $0.1.contains { $0.hasPrefix(token) } }
            worst = Swift.max(worst, best ?? 0)
        }
        self = fields[worst].0
    }
}
