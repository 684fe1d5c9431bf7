import Foundation
import Logging
import Searchlight
import SearchlightPostgres

/// The PostgreSQL index serves the page through its own async calls (postgres-nio): nothing
/// waits on a thread, and no bridge turns them into blocking calls and back.
extension PostgresIndex: ServedIndex {
    /// Connects read-only for `serve`: one handle whose connections every request shares, whose
    /// statements the database stops at `queryTimeout` (as the server interrupts SQLite's), and
    /// which gives up a server that no longer answers at all (a cut network) soon after.
    /// - Throws: ``SearchlightPostgres/PostgresIndexError``.
    public static func served(url: String, queryTimeout: Duration, logger: Logger) async throws -> PostgresIndex {
        try await PostgresIndex(url: url, readOnly: true, operationTimeout: queryTimeout + .seconds(15),
                                statementTimeout: queryTimeout, logger: logger)
    }

    /// As ``Searchlight/IndexStore/searchResults(_:domain:limit:scope:)``: plain words ranked,
    /// search words alone as their query, both as ranked results the query holds for, read
    /// in growing windows until the page is full or none is left.
    public func searchResults(_ search: SearchWords, domain: String?, limit: Int?) async throws -> [SearchResult] {
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

    private func ranked(_ words: [String], domain: String?, limit: Int?) async throws -> [SearchResult] {
        try await search(words: words, domain: domain, limit: limit, includingText: true)
            .map { try SearchResult(found: $0, words: words, scope: .all) }
    }
}
