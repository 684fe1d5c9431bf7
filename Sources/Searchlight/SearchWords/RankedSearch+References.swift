extension RankedSearch {
    /// The domains and identifiers of the best `limit` results, without their items when no
    /// search word needs them checked; and the words searched instead when the typed ones
    /// found nothing (``SearchResult/spelling``, ``IndexReader/firstRespelling(of:finding:)``).
    /// What `searchlight search` prints as paths.
    /// - Throws: the index's errors; the encoder's (a model that cannot be loaded).
    public func references(in index: any IndexReader, limit: Int?) throws -> (references: [ItemReference], spelling: [String]?) {
        // Search words must be checked on the items, and opened items move ahead among the
        // results that matched in the same field: both need the results, not identifiers alone.
        // Meaning blends its ranking with the words': that needs the results too.
        guard search.filters.isEmpty, history?.isEmpty ?? true, !meaningJoins else {
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
        if found.isEmpty, let answer = try answerWhenNothingFound(in: index, limit: limit) {
            return (answer.map(\.item.item.reference), nil)
        }
        return (found, nil)
    }

    /// How many items match.
    /// - Throws: the index's errors.
    public func count(in index: any IndexReader) throws -> Int {
        try index.countMatches(search, domain: domain, scope: scope)
    }

    /// What the words compiled to, and how meaning reads them, for `--explain`.
    /// - Throws: the index's errors.
    public func explanation(in index: any IndexReader, limit: Int?) throws -> String {
        let words = mode == .meaning ? "" : try index.explainSearch(search, domain: domain, limit: limit, scope: scope) + "\n"
        return words + meaningExplanation
    }
}
