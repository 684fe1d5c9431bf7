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
extension IndexReader {
    /// The results of a typed search, best first.
    ///
    /// ```swift
    /// let search = try SearchWords(parsing: "kind:pdf budget tag:work")
    /// let results = try store.searchResults(search, domain: nil, limit: 20)
    /// ```
    ///
    /// When the words as typed find nothing, the results are those of the first respelling of
    /// them that finds something (``firstRespelling(of:finding:)``), each saying so
    /// (``SearchResult/spelling``).
    ///
    /// Blocks the calling thread for every read it makes: one ranked search or query when the
    /// words as typed find something; else the look-ups of the respelling pass and one search per
    /// respelling tried.
    ///
    /// - Parameters:
    ///   - search: The words and search words as typed (``SearchWords/init(parsing:calendar:)``).
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many results; `nil`: all of them.
    ///   - scope: What the plain words are looked for in (``SearchScope``).
    /// - Throws: ``SearchlightError`` `.invalidQuery` when the plain words hold no letter or
    ///   digit; what ``query(_:domain:limit:)`` throws.
    /// - Returns: The results, best first; each says where it matched, and, when respelled, the
    ///   words it was found with.
    public func searchResults(_ search: SearchWords, domain: String?, limit: Int?,
                              scope: SearchScope = .all) throws -> [SearchResult] {
        let results = try typedSearchResults(search, domain: domain, limit: limit, scope: scope)
        guard results.isEmpty, let respelled = try firstRespelling(of: search, finding: { respelled -> [SearchResult]? in
            let results = try typedSearchResults(respelled, domain: domain, limit: limit, scope: scope)
            return results.isEmpty ? nil : results
        }) else { return results }
        return respelled.found.map { result in
            var result = result
            result.spelling = respelled.search.words
            return result
        }
    }

    /// The first respelling of `search`'s words (``Respellings``: words that match no indexed
    /// word corrected first, then the others too) for which `find` finds something, with what
    /// it found; `nil` when none does. Search words (`kind:pdf`) are kept as they are.
    ///
    /// Respellings are tried in the order ``Respellings`` gives, nearest first; the vocabulary is
    /// asked once per round (``IndexReader/spellings(of:correctingIndexed:)``), and `find` once
    /// per respelling, until one finds something.
    ///
    /// - Parameters:
    ///   - search: The search as typed; with no plain words there is nothing to respell.
    ///   - find: What the search finds with its words respelled, `nil` for nothing.
    /// - Returns: The respelled search and what it found, or `nil`.
    /// - Throws: What `find` throws, and the store's error when its vocabulary cannot be read.
    public func firstRespelling<Found>(of search: SearchWords,
                                       finding find: (SearchWords) throws -> Found?) throws -> (search: SearchWords, found: Found)? {
        guard !search.words.isEmpty else { return nil }
        var respellings = Respellings(words: search.words)
        var respelled = search
        while let asked = respellings.wordsToSpell() {
            respellings.add(try spellings(of: asked.words, correctingIndexed: asked.correctingIndexed))
            for words in try plausibleRespellings(respellings.next()) {
                respelled.words = words
                if let found = try find(respelled) { return (respelled, found) }
            }
        }
        return nil
    }

    /// The search words as the index spells them: each word that no indexed word starts with
    /// as the indexed word nearest to it (the first respelling ``Respellings`` tries), whatever
    /// that finds; `nil` when no word needed or found a correction.
    ///
    /// Unlike ``firstRespelling(of:finding:)`` it runs no search: one look-up of the vocabulary.
    /// For a "did you mean" line beside results that were found.
    ///
    /// - Throws: The store's error when its vocabulary cannot be read.
    /// - Parameter words: The plain words as typed.
    /// - Returns: The words with the corrections applied, or `nil`.
    public func spellingCorrection(words: [String]) throws -> [String]? {
        var respellings = Respellings(words: words)
        guard let asked = respellings.wordsToSpell() else { return nil }
        respellings.add(try spellings(of: asked.words, correctingIndexed: asked.correctingIndexed))
        return respellings.next(limit: 1).first
    }

    /// The results of the words as typed, never respelled.
    ///
    /// - Throws: ``QueryParseError`` for a malformed search word; the store's error when it cannot be read.
    /// - Parameters:
    ///   - search: The words and search words as typed.
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many results; `nil`: all of them.
    ///   - scope: What the plain words are looked for in.
    /// - Returns: The results, best first; empty when the words as typed find nothing.
    public func typedResults(_ search: SearchWords, domain: String?, limit: Int?, scope: SearchScope = .all) throws -> [SearchResult] {
        try typedSearchResults(search, domain: domain, limit: limit, scope: scope)
    }

    /// The results of the words as typed.
    ///
    /// Both words and search words: the query is parsed once and evaluated in memory on each
    /// window of ranked results (``SearchWords/Windows``), `$time` read against one instant for
    /// the whole search.
    ///
    /// - Throws: ``QueryParseError`` for a malformed search word; the store's error when it
    ///   cannot be read.
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

    /// How many items a typed search finds: those of the first respelling of its words that
    /// finds some when the words as typed find none (``searchResults(_:domain:limit:scope:)``).
    ///
    /// Words alone or search words alone are counted by the store (`count(*)`); both together
    /// are counted by reading every ranked result and evaluating the query on each, which on a
    /// common word reads the whole ranking.
    ///
    /// - Throws: ``QueryParseError`` for a malformed search word; the store's error when it cannot be read.
    /// - Parameters:
    ///   - search: The words and search words as typed.
    ///   - domain: Only this domain, when given.
    ///   - scope: What the plain words are looked for in.
    /// - Returns: The number of results, of the words as typed or of their first respelling that
    ///   finds some; 0 when none does.
    public func countMatches(_ search: SearchWords, domain: String?, scope: SearchScope = .all) throws -> Int {
        let count = try typedCount(search, domain: domain, scope: scope)
        guard count == 0 else { return count }
        return try firstRespelling(of: search) { respelled -> Int? in
            let count = try typedCount(respelled, domain: domain, scope: scope)
            return count == 0 ? nil : count
        }?.found ?? 0
    }

    /// How many items the words as typed find, never respelled: the store's count for words alone
    /// or a query alone, the length of the filtered ranking for both.
    private func typedCount(_ search: SearchWords, domain: String?, scope: SearchScope) throws -> Int {
        guard let queryString = search.queryString else {
            return try countMatches(words: search.words, domain: domain, scope: scope)
        }
        guard !search.words.isEmpty else { return try countQuery(queryString, domain: domain) }
        return try typedSearchResults(search, domain: domain, limit: nil, scope: scope).count
    }

    /// What a typed search compiled to (`search --explain`): its words, each search word's
    /// predicate, and the SQL of their query when there is one.
    ///
    /// Runs no search for the results: it asks the store how it would read the words
    /// (``searchPlan(words:domain:scope:)``, ``searchPath(words:domain:limit:scope:)``) and to explain the
    /// query (``explainQuery(_:domain:limit:)``).
    ///
    /// - Throws: ``QueryParseError`` for a malformed search word; the store's error when it cannot be read.
    /// - Parameters:
    ///   - search: The words and search words as typed.
    ///   - domain: Only this domain, when given.
    ///   - limit: The limit the search would have.
    ///   - scope: What the plain words are looked for in.
    /// - Returns: Lines of text, for people.
    public func explainSearch(_ search: SearchWords, domain: String?, limit: Int?, scope: SearchScope = .all) throws -> String {
        var lines: [String] = []
        if !search.words.isEmpty {
            lines.append("words: " + search.words.joined(separator: " ") + (scope == .all
                ? " (ranked search of names, titles, authors, keywords, tags, folders and text)"
                : " (ranked search of names, titles, keywords, tags and folders)"))
            lines += try searchPlan(words: search.words, domain: domain, scope: scope)
            if let path = try searchPath(words: search.words, domain: domain, limit: limit, scope: scope) { lines.append(path) }
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
    ///
    /// A value type with no reference to an index: a caller reads ``current`` results, hands
    /// them to ``page(_:keeping:)``, and reads again while it returns `nil`. Past 100 000 results
    /// the next window is the whole ranking.
    ///
    /// ```swift
    /// var windows = SearchWords.Windows(limit: 20)
    /// while true {
    ///     let ranked = try index.searchResults(words: words, domain: nil, limit: windows.current)
    ///     if let page = windows.page(ranked, keeping: { query.matches($0.item) }) { return page }
    /// }
    /// ```
    public struct Windows: Sendable {
        /// The number of results the page needs; `nil`: all of them.
        private let limit: Int?
        /// How many ranked results to read next; `nil`: all of them.
        public private(set) var current: Int?

        /// The windows of a search that asks for `limit` results (`nil`: all of them); the first reads
        /// four times the limit, at least 1 000.
        public init(limit: Int?) {
            self.limit = limit
            current = limit.map { Swift.max($0 * 4, 1000) }
        }

        /// The page, when `ranked` (the results of the ``current`` window) fills it or was the
        /// last window; otherwise `nil`, and ``current`` is the next window to read.
        ///
        /// - Parameters:
        ///   - ranked: The ranked results of the current window, best first.
        ///   - isKept: Whether a result passes the filter.
        /// - Returns: At most the limit of kept results, in ranked order; or `nil` to read the next
        ///   window.
        public mutating func page(_ ranked: [SearchResult], keeping isKept: (SearchResult) -> Bool) -> [SearchResult]? {
            let kept = ranked.filter(isKept)
            guard let limit, let window = current else { return kept }
            if kept.count >= limit || ranked.count < window { return Array(kept.prefix(limit)) }
            current = window >= 100_000 ? nil : window * 8
            return nil
        }
    }
}
