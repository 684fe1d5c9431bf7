import Foundation
import Searchlight
import SearchlightFiles

// The PostgreSQL index's async twins of the reader's requirements (what the server awaits):
// each calls ``PostgresIndex``'s async method directly, so that nothing waits on a thread and
// no task is run to be waited for. A database that cannot be reached is reported as the
// synchronous calls report it (``PostgresIndex/reported(_:)``): 503 from the server.
extension PostgresStore {
    /// Runs `body`, reporting an unreachable database as the synchronous calls do.
    ///
    /// - Parameter body: One await of the index.
    /// - Returns: What `body` returns.
    /// - Throws: ``Searchlight/SearchlightError`` (unavailable) for a lost database, else what
    ///   `body` threw.
    func reporting<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw index.reported(error)
        }
    }

    /// As ``Searchlight/IndexReader/searchResults(_:domain:limit:scope:)``: plain words ranked,
    /// search words alone as their query, both as ranked results the query holds for, read
    /// in growing windows until the page is full or none is left.
    /// When the words as typed find nothing, those of the first respelling of them that finds
    /// something (``Searchlight/Respellings``, as the SQLite index's), each result saying so
    /// (``Searchlight/SearchResult/spelling``).
    ///
    /// ```swift
    /// let results = try await store.searchResults(SearchWords(parsing: "budjet kind:pdf"), domain: nil, limit: 20)
    /// results.first?.spelling   // ["budget"] when the typed word found nothing
    /// ```
    ///
    /// Never blocks a thread: every step awaits the index. A search that finds nothing as typed
    /// costs the respelling pass's look-ups, then one search per respelling tried, stopping at the
    /// first that finds something.
    ///
    /// - Parameters:
    ///   - search: The parsed words and search words.
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many results; `nil`: all of them.
    /// - Returns: The results, best first.
    /// - Throws: ``Searchlight/SearchlightError`` (unavailable) when the database cannot be
    ///   reached, ``PostgresIndexError`` otherwise.
    public func searchResults(_ search: SearchWords, domain: String?, limit: Int?) async throws -> [SearchResult] {
        let results = try await typedSearchResults(search, domain: domain, limit: limit)
        guard results.isEmpty, !search.words.isEmpty else { return results }
        var respellings = Respellings(words: search.words)
        var respelled = search
        while let asked = respellings.wordsToSpell() {
            respellings.add(try await reporting {
                try await index.spellings(of: asked.words, correctingIndexed: asked.correctingIndexed)
            })
            let plausible = try await reporting { try await index.plausibleRespellings(respellings.next()) }
            for words in plausible {
                respelled.words = words
                let results = try await typedSearchResults(respelled, domain: domain, limit: limit)
                if !results.isEmpty {
                    return results.map { result in
                        var result = result
                        result.spelling = words
                        return result
                    }
                }
            }
        }
        return results
    }

    /// The words as typed, never respelled.
    ///
    /// What ``searchResults(_:domain:limit:)`` returns when the words as typed find something;
    /// for a caller that offers respellings itself, or none.
    ///
    /// - Returns: The results, best first.
    /// - Throws: ``Searchlight/SearchlightError`` (unavailable) when the database cannot be
    ///   reached, ``PostgresIndexError`` otherwise.
    /// - Parameters:
    ///   - search: The parsed words and search words.
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many results; `nil`: all of them.
    public func typedResults(_ search: SearchWords, domain: String?, limit: Int?) async throws -> [SearchResult] {
        try await typedSearchResults(search, domain: domain, limit: limit)
    }

    /// The items nearest in meaning to `question`.
    ///
    /// Reads every vector of `model` the reader may see: see
    /// ``PostgresIndex/meaningResults(question:model:domain:limit:)`` for what it costs.
    ///
    /// - Returns: The nearest items the reader may see, best first, each with its similarity.
    /// - Throws: ``Searchlight/SearchlightError`` (unavailable) when the database cannot be
    ///   reached, ``PostgresIndexError`` otherwise.
    /// - Parameters:
    ///   - question: The question's vector, of unit length, made by `model`.
    ///   - model: The model's identifier: only its vectors are compared.
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many results.
    public func meaningResults(question: [Float], model: String, domain: String?, limit: Int) async throws -> [SearchResult] {
        try await reporting { try await index.meaningResults(question: question, model: model, domain: domain, limit: limit) }
    }

    /// The words' ranking with the search words' query applied: the query alone when there
    /// are no words, the ranking alone when there is no query, else ranked windows filtered
    /// by the query until the page is full.
    ///
    /// The query is checked in memory (``Searchlight/QueryExpression/matches(_:now:calendar:)``),
    /// against a window that grows until the page is full or the ranking is exhausted, as the
    /// SQLite index does.
    ///
    /// - Throws: ``Searchlight/QueryParseError`` when the search words make no valid query, and
    ///   the index's errors.
    private func typedSearchResults(_ search: SearchWords, domain: String?, limit: Int?) async throws -> [SearchResult] {
        guard let queryString = search.queryString else { return try await ranked(search.words, domain: domain, limit: limit) }
        guard !search.words.isEmpty else {
            return try await query(queryString, domain: domain, limit: limit).map { SearchResult(item: $0, matchedIn: .attributes) }
        }
        let expression = try QueryExpression(parsing: queryString)
        let now = Date()
        var windows = SearchWords.Windows(limit: limit)
        while true {
            let ranked = try await ranked(search.words, domain: domain, limit: windows.current)
            if let page = windows.page(ranked, keeping: { expression.matches($0.item, now: now) }) { return page }
        }
    }

    /// The ranked search of `words`, text included, as results saying where each matched.
    ///
    /// Each result says which fields the words matched in, as the SQLite index's results do.
    private func ranked(_ words: [String], domain: String?, limit: Int?) async throws -> [SearchResult] {
        try await reporting { try await index.searchResults(words: words, domain: domain, limit: limit, scope: .all) }
    }

    /// The items matching a query string, most recently modified first.
    ///
    /// - Parameters:
    ///   - queryString: A query in Spotlight's language (``Searchlight/QueryParser``).
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many items; `nil`: all of them.
    /// - Returns: The items, newest first, undated last.
    /// - Throws: ``Searchlight/QueryParseError`` for a malformed query, ``PostgresIndexError``
    ///   `.invalidQuery` for an attribute the index cannot query,
    ///   ``Searchlight/SearchlightError`` (unavailable) when the database cannot be reached.
    public func query(_ queryString: String, domain: String?, limit: Int?) async throws -> [IndexedItem] {
        try await reporting { try await index.query(queryString, domain: domain, limit: limit) }
    }

    /// The items matching a parsed query, most recently modified first.
    ///
    /// - Throws: ``PostgresIndexError`` `.invalidQuery` for an attribute the index cannot query,
    ///   ``Searchlight/SearchlightError`` (unavailable) when the database cannot be reached.
    public func query(_ expression: QueryExpression, domain: String?, limit: Int?) async throws -> [IndexedItem] {
        try await reporting { try await index.query(expression, domain: domain, limit: limit) }
    }

    /// How many items a parsed query matches.
    ///
    /// One `count(*)` statement: it costs what reading every match costs on the server, less
    /// the transfer.
    public func countQuery(_ expression: QueryExpression, domain: String?) async throws -> Int {
        try await reporting { try await index.countQuery(expression, domain: domain) }
    }

    /// One item, thumbnail bytes and text included.
    ///
    /// - Returns: The item, or `nil` when the domain has no such item (or the reader may not see
    ///   it).
    public func item(_ identifier: ItemIdentifier, domain: String) async throws -> IndexedItem? {
        try await reporting { try await index.item(identifier, domain: domain) }
    }

    /// An item's thumbnail.
    ///
    /// - Returns: The thumbnail, or `nil` when the item has none.
    public func thumbnail(of identifier: ItemIdentifier, domain: String) async throws -> Thumbnail? {
        try await reporting { try await index.thumbnail(of: identifier, domain: domain) }
    }

    /// What the index holds, per domain, and its size.
    ///
    /// Counts every row of every domain: a reader that polls it pays a scan each time.
    public func statistics() async throws -> IndexStatistics {
        try await reporting { try await index.statistics() }
    }

    /// Each domain's state; a state this version cannot read is left out.
    public func domainStates() async throws -> [String: DomainState] {
        try await reporting { try await index.domainStates() }.compactMapValues { DomainState(json: $0) }
    }

    /// The machine each domain indexes a folder of.
    public func domainHosts() async throws -> [String: String] {
        try await reporting { try await index.domainHosts() }
    }

    /// Each domain's count of batches (``PostgresIndex/changeMarker()``).
    ///
    /// Cheap (one small read of the domain table): what a reader polls to learn that the index
    /// changed, before reading anything else again.
    public func changeMarker() async throws -> [Int64] {
        try await reporting { try await index.changeMarker() }
    }
}
