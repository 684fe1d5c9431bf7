import Searchlight

/// The search of `searchlight search`: words that an item's words must start with, with
/// Spotlight's search words (`kind:pdf`, `tag:work`, `modified:>2024-01-01`, ``SearchWords``),
/// in one domain or all, in names only or everywhere. The command and the desktop's search
/// providers (`searchlight-desktop`) ask the index through it, so that both read words the same way.
///
/// ```swift
/// let search = try WordSearch(terms: ["kind:pdf quarterly rep"])
/// let results = try search.results(in: index, limit: 20)
/// ```
public struct WordSearch: Sendable {
    /// The words and search words.
    public var search: SearchWords
    /// Only items of this domain, or every domain.
    public var domain: String?
    /// Where the words are looked for.
    public var scope: SearchScope
    /// The items opened before, which rank higher (``Searchlight/OpenHistory``); none by default.
    public var history: OpenHistory?
    /// Which rankings join (`--words`, `--meaning`; by default meaning joins a question).
    public var mode: MeaningMode = .automatic
    /// The question's encoder, when a model is installed (``SearchlightFiles/MeaningModel``).
    public var encoder: QuestionEncoder?

    public init(_ search: SearchWords, domain: String? = nil, scope: SearchScope = .all) {
        self.search = search
        self.domain = domain
        self.scope = scope
    }

    /// The words of terms typed in a search box, search words included; the CLI's defaults
    /// otherwise (every domain, names and text).
    /// - Throws: ``SearchWordsError`` for a search word whose value is malformed (`kind:sofa`).
    public init(terms: [String]) throws(SearchWordsError) {
        self.init(try SearchWords(parsing: terms.joined(separator: " ")))
    }

    /// Whether there is nothing to search for.
    public var isEmpty: Bool { search.isEmpty }

    /// The best `limit` results (all when `nil`), ranked, with snippets for matches in the text.
    /// - Throws: the index's errors (``SearchlightError``, or the store's ``IndexStoreError``).
    public func results(in index: any IndexStore, limit: Int?) throws -> [SearchResult] {
        try ranked.results(in: index, limit: limit)
    }

    /// The search as the library ranks it for every surface (``Searchlight/RankedSearch``).
    public var ranked: RankedSearch {
        var ranked = RankedSearch(search, domain: domain, scope: scope)
        ranked.history = history
        ranked.mode = mode
        ranked.encoder = encoder
        return ranked
    }

    /// The domains and identifiers of the best `limit` results, without their items when no
    /// search word needs them checked; and the words searched instead when the typed ones
    /// found nothing (``Searchlight/SearchResult/spelling``, ``Searchlight/IndexStore/firstRespelling(of:finding:)``).
    public func references(in index: any IndexStore, limit: Int?) throws -> (references: [ItemReference], spelling: [String]?) {
        // Search words must be checked on the items, and opened items move ahead among the
        // results that matched in the same field: both need the results, not identifiers alone.
        // Meaning blends its ranking with the words': that needs the results too.
        guard search.filters.isEmpty, history?.isEmpty ?? true, !ranked.meaningJoins else {
            let results = try results(in: index, limit: limit)
            let references = results.map(\.item.item.reference)
            return (references, results.first?.spelling)
        }
        let found = try index.searchReferences(words: search.words, domain: domain, limit: limit, scope: scope)
        if found.isEmpty, let respelled = try index.firstRespelling(of: search, finding: { respelled -> [ItemReference]? in
            let found = try index.searchReferences(words: respelled.words, domain: domain, limit: limit, scope: scope)
            return found.isEmpty ? nil : found
        }) {
            return (respelled.found, respelled.search.words)
        }
        // Words that find nothing, even respelled, may still be answered by meaning.
        if found.isEmpty, let answer = try ranked.answerWhenNothingFound(in: index, limit: limit) {
            return (answer.map(\.item.item.reference), nil)
        }
        return (found, nil)
    }

    /// How many items match.
    public func count(in index: any IndexStore) throws -> Int {
        try index.countMatches(search, domain: domain, scope: scope)
    }

    /// What the words compiled to, for `--explain`.
    public func explanation(in index: any IndexStore, limit: Int?) throws -> String {
        let words = mode == .meaning ? "" : try index.explainSearch(search, domain: domain, limit: limit, scope: scope) + "\n"
        return words + ranked.meaningExplanation
    }
}
