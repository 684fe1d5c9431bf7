import Foundation
import GRDB
import GRDBSQLite

extension SearchableIndex {
    /// The first page of a search with compounds (``CompoundWords``: `note_42_7`, `d70`) when
    /// the items with every word whole in their name fill it, newest first; `nil` when they do
    /// not (or the search has no compound: ``bestMatchesByDate(_:domain:limit:in:strategy:wholeInName:)``
    /// reads that tier).
    ///
    /// Every word whole in the name is the best rank any item can have, names and texts alike:
    /// a page of them is the first page of the full ranking. The name index keeps no positions,
    /// so its match (every part of every word whole, in any order) holds more than the tier;
    /// each member is checked on its name's words, a compound's parts consecutive. Typed letter
    /// by letter, `note_4` on the notes of issue 47 otherwise ranked every item with a part
    /// starting with `4` (a quarter of them) to give the 20 named `note_4_…`.
    ///
    /// An unknown domain gives an empty page, not `nil`: no item can match there.
    ///
    /// Costs one read of the name index's match (the list of each part of each word). A match of
    /// more than `walkingAbove` items is met on the date index first; a smaller one, or one the
    /// walk gives up on, is joined to the item rows, sorted newest first by SQLite, and read
    /// until the page is settled, each name checked as it comes.
    ///
    /// - Parameters:
    ///   - tokens: The search's tokens (``CompoundWords/tokens(of:)``).
    ///   - domain: Only this domain, when given.
    ///   - limit: The size of the page.
    ///   - walkingAbove: How many items the name index must match for the page to be met on the
    ///     date index (``compoundNamePageByDate(_:filter:limit:walkingAbove:in:inTier:)``): for tests.
    ///   - db: A connection inside a read transaction.
    /// - Returns: The page, newest first; `nil` to rank the search in full.
    /// - Throws: The connection's errors.
    static func compoundNamePage(_ tokens: [String], domain: String?, limit: Int, walkingAbove: Int = PageStrategy.sampleSize,
                                 in db: any ReadConnection) throws -> [NameMatch]? {
        guard limit > 0, hasCompound(tokens) else { return nil }
        guard let filter = try ItemFilter(domain: domain, in: db) else { return [] }
        let expression = "name : (" + tokens.map { nameTerm($0, whole: true) }.joinedInPlace(separator: " AND ") + ")"
        func inTier(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
            let words = NameTokenizer.words(in: String(decoding: name, as: UTF8.self))
            return tokens.allSatisfy { CompoundWords.match($0, in: words).whole }
        }
        if let page = try compoundNamePageByDate(expression, filter: filter, limit: limit, walkingAbove: walkingAbove, in: db,
                                                  inTier: inTier) {
            return page
        }
        var page = PageCollector(limit: limit)
        try db.readStatement("""
            SELECT item.id, ifnull(item.modificationDate, 0), item.identifier, item.displayName
            FROM item_words JOIN item ON item.id = item_words.rowid
            WHERE item_words MATCH :match AND (:domainID IS NULL OR item.domainId = :domainID) AND \(notExpired)
            ORDER BY 2 DESC
            """).forEachRow(named: ["match": .text(expression), "domainID": filter.domainID.map { .integer($0) } ?? .null,
                                    "now": .real(filter.now)]) { row in
                let date = sqlite3_column_double(row, 1)
                guard page.wants(date) else { return false }
                if inTier(blob(row, 3)) {
                    page.add(NameMatch(best: sqlite3_column_int64(row, 0), identifier: ItemIdentifier(bytes: Array(blob(row, 2))),
                                       modificationDate: date))
                }
                return true
            }
        return page.result
    }

    /// ``compoundNamePage(_:domain:limit:walkingAbove:in:)`` met newest first on the date index, when the
    /// name index matches many items: `note_4` on the notes of issue 47 matches every note with a
    /// `4` in its name (15 000 of 500 000), each looked up and sorted (40 ms) to give the few
    /// named `note_4_…` first. The walk checks a visited item's row id against the match, then
    /// its name; it gives up after visiting as many items as sorting costs (a table lookup is
    /// about six date-index entries, ``PageStrategy``), and `nil` says so, or that the match is
    /// small, or that the walk met fewer than the page (undated items are not on the date index).
    ///
    /// - Parameters:
    ///   - expression: The names' full-text match of every word whole (`name : (…)`).
    ///   - filter: The domain and the time expired items are told by.
    ///   - limit: The size of the page.
    ///   - walkingAbove: How many items the match must hold for the walk to be tried.
    ///   - db: A connection inside a read transaction.
    ///   - inTier: Whether a name's bytes hold every word whole, a compound's parts consecutive.
    /// - Returns: The page, newest first, with the items dated like the last; `nil` as said above.
    /// - Throws: The connection's errors.
    private static func compoundNamePageByDate(_ expression: String, filter: ItemFilter, limit: Int, walkingAbove: Int,
                                               in db: any ReadConnection,
                                               inTier: (UnsafeBufferPointer<UInt8>) -> Bool) throws -> [NameMatch]? {
        var members = RowSet()
        try db.readStatement("SELECT rowid FROM item_words WHERE item_words MATCH ?").forEachRow(.text(expression)) { row in
            members.insert(sqlite3_column_int64(row, 0))
            return true
        }
        guard members.count > walkingAbove else { return nil }
        let names = try db.readStatement("SELECT displayName FROM item WHERE id = ?")
        let budget = 6 * members.count
        var visited = 0
        do {
            return try pageByDate(filter: filter, limit: limit, in: db) { id, _ in
                visited += 1
                if visited > budget { throw BudgetExceeded() }
                guard members.contains(id) else { return false }
                return try names.firstRow(.integer(id)) { inTier(blob($0, 0)) } ?? false
            }
        } catch is BudgetExceeded {
            return nil
        }
    }
}
