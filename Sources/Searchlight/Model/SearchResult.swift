/// One result of ``SearchableIndex/searchResults(words:domain:limit:scope:)``: the item, where
/// the words were found, and for a match in the text, the text around it.
public struct SearchResult: Hashable, Sendable {
    /// Where an item matched the search words.
    public enum Field: String, Hashable, Sendable, CaseIterable {
        /// The fields words match in, best first: the name, the title, the authors, the keywords
        /// (tags, comment and origins included), the folder names of a path identifier, the text.
        case name, title, authors, keywords, folders, content
        /// No word was searched: the item passed the search words (``SearchWords``) such as
        /// `kind:pdf` or `tag:work` alone.
        case attributes
        /// No word matched: the item's text is near the search in meaning (Docs/Contract.md#search-by-meaning).
        case meaning

        /// Whether a result that matched here carries a snippet of its text: a match in the
        /// text, or in keywords, which are drawn from the text as well as from the name (the
        /// words of a note's text most its own rank as its keywords, and outrank the text).
        public var isDescribedByText: Bool { self == .content || self == .keywords }
    }

    /// The item (without its text).
    public var item: IndexedItem
    /// The field the match depended on: of the fields where each word matched best, the one
    /// ranked last (name, title, authors or keywords, folders, then content). A match that
    /// needed the text is a `content` match.
    public var matchedIn: Field
    /// For a `content` or `keywords` match (``Field/isDescribedByText``): at most
    /// ``Snippet/maximumLength`` characters of the text around the first matching word, the
    /// matching words marked with `[` `]`; `nil` when the words are not in the text.
    public var snippet: String?
    /// The words searched instead of the typed ones, which found nothing: the typed words
    /// spelled as the index spells them (a spelling correction). `nil` for a result of the words
    /// as typed.
    public var spelling: [String]?
    /// How near the item's text is to the search in meaning (cosine similarity of their
    /// vectors, -1…1), when meaning joined the search and the item has vectors.
    public var similarity: Float?
    /// Whether the words tell this item as well as its title would: every word whole, ranking
    /// on average as in the title or better (the name, the title), or all of them adjacent and
    /// in order in its text, which ranks alike (a phrase copied from a document). The blend
    /// with meaning keeps such results first (``RankedSearch``): a known phrase finds its
    /// document first whatever meaning thinks of it.
    public var matchesLikeTitle = false

    /// A result: `item`, matched in `matchedIn`, with the text around the match and, for a
    /// respelled search, the words searched instead.
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
            let found = fields.map { CompoundWords.match(token, in: $0.1) }
            let best = found.firstIndex { $0.whole } ?? found.firstIndex { $0.prefix }
            worst = Swift.max(worst, best ?? 0)
        }
        self = fields[worst].0
    }
}
