import Foundation
import GRDB
import GRDBSQLite

extension SearchableIndex {
    /// The first `limit` results of a name query whose best rank has too few items for a
    /// page, when the next ranks fill it; else `nil` (every candidate is then ranked).
    ///
    /// Take `budget 2`: `2` is a whole word of a few items only, and the best rank (both
    /// words whole in the name) has almost none. Ranking every candidate reads thousands of
    /// items (`budget` and any word starting with `2`: every year, every number). But:
    ///
    /// 1. Items that have each word some item has whole (``BestNameTier/wholeTokens``) whole
    ///    in some field rank before all others (fewer words matched only as a prefix). They
    ///    are few when the best rank is: they are ranked in full.
    /// 2. Every other candidate has at least one more word matched only as a prefix; the best
    ///    of them also match every word in their name, so they start a word of their name
    ///    with every query word. The newest of those, ranked one by one, finish the page:
    ///    the date index is walked checking names in place, or, when few items start a name
    ///    word with every query word, those are ranked.
    ///
    /// The page is then exactly the first `limit` results of the full ranking.
    ///
    /// Costs one ranking of the whole-word candidates, one look at up to
    /// ``PageStrategy/sampleSize`` rows of the name index, then either a ranking of those few or
    /// a walk of the date index bounded by ``PageStrategy/walkBudget(sample:limit:in:)``; it gives
    /// up (`nil`) rather than walk further.
    ///
    /// - Parameters:
    ///   - tokens: The search's tokens; a search with compounds is not handled here.
    ///   - domain: Only this domain, when given.
    ///   - limit: The size of the page.
    ///   - db: A connection inside a read transaction.
    /// - Returns: The page, best first, or `nil`.
    /// - Throws: The connection's errors.
    static func pageAfterBestTier(_ tokens: [String], domain: String?, limit: Int, in db: any ReadConnection) throws -> [NameMatch]? {
        guard !hasCompound(tokens) else { return nil }
        let tier = try BestNameTier(tokens, in: db)
        guard !tier.wholeTokens.isEmpty, let filter = try ItemFilter(domain: domain, in: db) else { return nil }
        let everyWhole = (tier.wholeTokens.map(quoted) + tier.prefixTokens.map { quoted($0) + "*" }).joinedInPlace(separator: " AND ")
        let first = try nameCandidates(tokens, domain: domain, matching: everyWhole, in: db)
        if first.count >= limit { return first.ranked(limit: limit) }
        let needed = limit - first.count
        // The next rank: one word more matched only as a prefix, every word in the name.
        let prefixOnly = tier.prefixTokens.count + 1
        func isNext(_ match: NameMatch) -> Bool { match.prefixOnlyCount == prefixOnly && match.fieldRank == 0 }
        let inName = BestNameTier(prefixes: tokens)
        var sample: [Int64] = []
        try db.readStatement("SELECT rowid FROM item_words WHERE item_words MATCH ?").forEachRow(.text(inName.expression)) {
            sample.append(sqlite3_column_int64($0, 0))
            return sample.count < PageStrategy.sampleSize
        }
        guard sample.count >= needed else { return nil }
        let next: [NameMatch]?
        if sample.count < PageStrategy.sampleSize {
            // Few: ranking each costs less than walking to the newest of them.
            let ranked = try nameCandidates(tokens, domain: domain, matching: inName.expression, in: db).filter(isNext)
            next = ranked.count >= needed ? ranked.ranked(limit: needed) : nil
        } else {
            guard let budget = try PageStrategy.walkBudget(sample: sample, limit: needed, in: db) else { return nil }
            let details = try db.readStatement("""
                SELECT \(candidateColumns) FROM item WHERE item.id = ?
                """)
            var ranker = try CandidateRanker(tokens: tokens, wholeInName: [], in: db)
            next = try pageReadingNames(inName, filter: filter, limit: needed, budget: budget, in: db) { id, _ in
                guard let match = try details.firstRow(.integer(id), read: { try ranker.match($0) }) ?? nil else { return nil }
                return isNext(match) ? match : nil
            }
        }
        guard let next else { return nil }
        return first.ranked() + next
    }
}
