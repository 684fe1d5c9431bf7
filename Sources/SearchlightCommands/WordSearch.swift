import Searchlight

/// The search of `searchlight search`: words that an item's words must start with, in one
/// domain or all, in names only or everywhere. The command and the desktop's search providers
/// (`searchlight-desktop`) ask the index through it, so that both read words the same way.
///
/// ```swift
/// let search = WordSearch(terms: ["quarterly rep"])     // the words "quarterly" and "rep"
/// let results = try search.results(in: index, limit: 20)
/// ```
public struct WordSearch: Sendable {
    /// The words, as typed.
    public var words: [String]
    /// Only items of this domain, or every domain.
    public var domain: String?
    /// Where the words are looked for.
    public var scope: SearchScope

    public init(words: [String], domain: String? = nil, scope: SearchScope = .all) {
        self.words = words
        self.domain = domain
        self.scope = scope
    }

    /// The words of terms typed in a search box: each term split on white space, as a shell
    /// splits `searchlight search`'s arguments; the CLI's defaults otherwise (every domain,
    /// names and text).
    public init(terms: [String]) {
        self.init(words: terms.flatMap { $0.split(whereSeparator: \.isWhitespace).map(String.init) })
    }

    /// The best `limit` results (all when `nil`), ranked, with snippets for matches in the text.
    /// - Throws: the index's errors (``SearchlightError``, or the store's ``IndexStoreError``).
    public func results(in index: any IndexStore, limit: Int?) throws -> [SearchResult] {
        try index.searchResults(words: words, domain: domain, limit: limit, scope: scope)
    }

    /// The identifiers of the best `limit` results, without their items.
    public func identifiers(in index: any IndexStore, limit: Int?) throws -> [ItemIdentifier] {
        try index.searchIdentifiers(words: words, domain: domain, limit: limit, scope: scope)
    }

    /// How many items match.
    public func count(in index: any IndexStore) throws -> Int {
        try index.countMatches(words: words, domain: domain, scope: scope)
    }
}
