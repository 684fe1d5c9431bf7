import Foundation

/// A search typed with Spotlight's search words (``SearchWords``), on any index: the path
/// `searchlight search`, the page's `/api/search` and the desktop's search providers share.
///
/// - Plain words alone: ranked search (Docs/Contract.md#search).
/// - Search words alone: their query (Docs/Contract.md#query-language), most recently modified first; each result
///   says it matched on ``SearchResult/Field/attributes``.
/// - Both: ranked search, keeping the results the query holds for (evaluated in Swift with the
///   rules of the SQL, ``QueryExpression/matches(_:now:calendar:)``). The ranked results are
///   read in growing windows until the page is full or none is left, so a rare filter on a
///   common word costs more reads, never a missed result.
extension IndexStore {
    /// The results of a typed search, best first.
    ///
    /// - Throws: ``SearchlightError`` `.invalidQuery` when the plain words hold no letter or
    ///   digit; what ``query(_:domain:limit:)`` throws.
    ///
    /// When the words as typed find nothing and some word is a typo away from an indexed word
    /// (``spellingCorrection(words:)``), the results are those of the words as the index spells
    /// them, each saying so (``SearchResult/spelling``).
    public func searchResults(_ search: SearchWords, domain: String?, limit: Int?,
                              scope: SearchScope = .all) throws -> [SearchResult] {
        let results = try typedSearchResults(search, domain: domain, limit: limit, scope: scope)
        guard results.isEmpty, let respelled = try respelled(search) else { return results }
        return try typedSearchResults(respelled, domain: domain, limit: limit, scope: scope).map { result in
            var result = result
            result.spelling = respelled.words
            return result
        }
    }

    /// `search` with its words spelled as the index spells them, or `nil` when they need no
    /// correction or have none.
    public func respelled(_ search: SearchWords) throws -> SearchWords? {
        guard !search.words.isEmpty, let words = try spellingCorrection(words: search.words) else { return nil }
        var respelled = search
        respelled.words = words
        return respelled
    }

    /// The results of the words as typed.
    private func typedSearchResults(_ search: SearchWords, domain: String?, limit: Int?,
                                    scope: SearchScope) throws -> [SearchResult] {
        guard let queryString = search.queryString else {
            return try searchResults(words: search.words, domain: domain, limit: limit, scope: scope)
        }
        guard !search.words.isEmpty else {
            return try query(queryString, domain: domain, limit: limit).map { SearchResult(item: $0, matchedIn: .attributes) }
        }
        let expression = try QueryExpression(parsing: queryString)
        let now = Date()
        var windows = SearchWords.Windows(limit: limit)
        while true {
            let ranked = try searchResults(words: search.words, domain: domain, limit: windows.current, scope: scope)
            if let page = windows.page(ranked, keeping: { expression.matches($0.item, now: now) }) { return page }
        }
    }

    /// How many items a typed search finds: those of its words as the index spells them when
    /// the words as typed find none (``searchResults(_:domain:limit:scope:)``).
    public func countMatches(_ search: SearchWords, domain: String?, scope: SearchScope = .all) throws -> Int {
        let count = try typedCount(search, domain: domain, scope: scope)
        guard count == 0, let respelled = try respelled(search) else { return count }
        return try typedCount(respelled, domain: domain, scope: scope)
    }

    private func typedCount(_ search: SearchWords, domain: String?, scope: SearchScope) throws -> Int {
        guard let queryString = search.queryString else {
            return try countMatches(words: search.words, domain: domain, scope: scope)
        }
        guard !search.words.isEmpty else { return try countQuery(queryString, domain: domain) }
        return try searchResults(search, domain: domain, limit: nil, scope: scope).count
    }

    /// What a typed search compiled to (`search --explain`): its words, each search word's
    /// predicate, and the SQL of their query when there is one.
    public func explainSearch(_ search: SearchWords, domain: String?, limit: Int?, scope: SearchScope = .all) throws -> String {
        var lines: [String] = []
        if !search.words.isEmpty {
            lines.append("words: " + search.words.joined(separator: " ") + (scope == .all
                ? " (ranked search of names, titles, authors, keywords, tags, folders and text)"
                : " (ranked search of names, titles, keywords, tags and folders)"))
            lines += try searchPlan(words: search.words, domain: domain, scope: scope)
        }
        for filter in search.filters {
            lines.append("\(filter.key.rawValue):\(filter.value) → \(filter.queryString)")
        }
        if let queryString = search.queryString {
            lines.append("query: " + queryString)
            if search.words.isEmpty {
                lines.append(try explainQuery(queryString, domain: domain, limit: limit))
            } else {
                lines.append("each ranked result is kept when the query holds for it")
            }
        }
        return lines.joined(separator: "\n")
    }
}

extension SearchWords {
    /// The growing windows of ranked results that a search with both words and search words
    /// reads (four times the limit, at least 1 000, then eight times more each time, then all),
    /// for any index, synchronous or not.
    public struct Windows: Sendable {
        private let limit: Int?
        /// How many ranked results to read next; `nil`: all of them.
        public private(set) var current: Int?

        public init(limit: Int?) {
            self.limit = limit
            current = limit.map { Swift.max($0 * 4, 1000) }
        }

        /// The page, when `ranked` (the results of the ``current`` window) fills it or was the
        /// last window; otherwise `nil`, and ``current`` is the next window to read.
        public mutating func page(_ ranked: [SearchResult], keeping isKept: (SearchResult) -> Bool) -> [SearchResult]? {
            let kept = ranked.filter(isKept)
            guard let limit, let window = current else { return kept }
            if kept.count >= limit || ranked.count < window { return Array(kept.prefix(limit)) }
            current = window >= 100_000 ? nil : window * 8
            return nil
        }
    }
}
