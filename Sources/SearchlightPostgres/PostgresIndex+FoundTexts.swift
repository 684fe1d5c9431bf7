import Foundation
import PostgresNIO
import Searchlight

extension PostgresIndex {
    /// The ranked search of ``search(words:domain:limit:includingText:)`` as results, each
    /// saying where its words matched, with a snippet of its text for a match there.
    ///
    /// The ranking reads no text (``foundItemColumns``): a page of fifty results on a copy of
    /// `/usr/share/doc` carried 25 MB of changelogs out of TOAST and over the connection, 150 ms
    /// a keystroke, for snippets of two hundred characters. The texts are then read as SQLite's
    /// snippets read them:
    ///
    /// - the start of each text a result needs (``foundTextStart`` characters, which PostgreSQL
    ///   inflates alone): for a match in its text or keywords, the snippet; for one of the first
    ///   ``Searchlight/RankedSearch/meaningCandidates`` whose fields do not say it, whether the
    ///   words are a phrase of the text (``Searchlight/SearchResult/matchesLikeTitle``);
    /// - then the whole texts whose start holds no match, best first, while the texts read
    ///   before stay within ``Searchlight/SearchableIndex/snippetBudget`` bytes: as with SQLite,
    ///   a text past the budget has no snippet, and its result still says it matched in the content.
    ///
    /// Costs the search, then one statement for the starts and one for the whole texts, each
    /// only when some result needs it.
    ///
    /// - Parameters:
    ///   - words: The words as typed.
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many results, the best first; `nil`: all of them.
    ///   - scope: Whether the text and authors count (``Searchlight/SearchScope/all``).
    /// - Returns: The results, best first; their items do not hold their text.
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    public func searchResults(words: [String], domain: String?, limit: Int?, scope: SearchScope) async throws -> [SearchResult] {
        var items = try await Self.asTypedThenParts(words) {
            try await searchAsTyped(words: $0, domain: domain, limit: limit, includingText: scope == .all,
                                    columns: Self.foundItemColumns)
        }
        var results = try Self.results(items, words: words, scope: scope)
        let several = CompoundWords.tokens(of: words).count > 1
        let reading = results.indices.filter { index in
            results[index].matchedIn.isDescribedByText
                || several && index < RankedSearch.meaningCandidates && !results[index].matchesLikeTitle
        }
        // Each result read again with what its text says.
        func describe(_ indices: [Int], with texts: [Int: String]) throws {
            for (position, index) in indices.enumerated() {
                guard let text = texts[position] else { continue }
                items[index].item.attributeSet.textContent = text
                results[index] = try SearchResult(found: items[index], words: words, scope: scope,
                                                  checkingPhrase: index < RankedSearch.meaningCandidates)
            }
        }
        guard !reading.isEmpty else { return results }
        try describe(reading, with: try await texts(of: reading.map { items[$0].item }, characters: Self.foundTextStart))
        // The texts cut at their start where the snippet could not be found.
        let cut = reading.filter { index in
            results[index].matchedIn.isDescribedByText && results[index].snippet == nil
                && (items[index].item.attributeSet.textContent?.unicodeScalars.count ?? 0) >= Self.foundTextStart
        }
        guard !cut.isEmpty else { return results }
        try describe(cut, with: try await texts(of: cut.map { items[$0].item }, budget: SearchableIndex.snippetBudget))
        return results
    }

    /// How many characters of a text ``searchResults(words:domain:limit:scope:)`` reads first:
    /// as many as the bytes SQLite's snippets inflate first (``Searchlight/SearchableIndex/snippetPrefix``).
    static let foundTextStart = SearchableIndex.snippetPrefix

    /// Ranked items as results, saying where each matched (the first
    /// ``Searchlight/RankedSearch/meaningCandidates`` checked for the words as a phrase).
    static func results(_ items: [IndexedItem], words: [String], scope: SearchScope) throws -> [SearchResult] {
        try items.enumerated().map { offset, item in
            try SearchResult(found: item, words: words, scope: scope, checkingPhrase: offset < RankedSearch.meaningCandidates)
        }
    }

    /// The texts of `items`, by position in `items`: their first `characters` (PostgreSQL
    /// inflates no more of a text than its start), or whole; with a `budget`, in the order of
    /// `items` (the best first), each while the texts before it hold fewer than `budget` bytes,
    /// so that the text that crosses the budget is read too, and none after it.
    ///
    /// One statement. The sizes come from the texts' headers (`octet_length` inflates
    /// nothing). An item gone since, or without text, has none.
    ///
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    func texts(of items: [SearchableItem], characters: Int? = nil, budget: Int? = nil) async throws -> [Int: String] {
        guard !items.isEmpty else { return [:] }
        var statement = SQLStatement()
        let domains = statement.bind(.textArray(items.map(\.domainIdentifier)))
        let identifiers = statement.bind(.textArray(items.map { Hexadecimal.lowercase($0.uniqueIdentifier.bytes) }))
        // Our own number, not a user's: written in the text.
        let text = characters.map { "left(wanted.text_content, \($0))" } ?? "wanted.text_content"
        let within = budget.map { "wanted.before < \(statement.bind(.integer($0)))" } ?? "true"
        statement.sql = """
            SELECT wanted.n - 1, \(text) FROM (
                SELECT asked.n, item.text_content, coalesce(sum(octet_length(item.text_content))
                    OVER (ORDER BY asked.n ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before
                FROM unnest(\(domains), \(identifiers)) WITH ORDINALITY AS asked(domain, identifier, n)
                JOIN domain ON domain.name = asked.domain
                JOIN item ON item.domain_id = domain.id AND item.identifier = decode(asked.identifier, 'hex')
            ) AS wanted
            WHERE \(within) AND wanted.text_content IS NOT NULL
            ORDER BY wanted.n
            """
        let query = statement.query
        return try await withConnection("cannot read the index") { connection in
            var texts: [Int: String] = [:]
            for try await (position, text) in try await connection.query(query, logger: self.logger)
                .decode((Int64, String).self) {
                texts[Int(position)] = text
            }
            return texts
        }
    }
}
