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
    /// - Parameters:
    ///   - tokens: The search's tokens (``CompoundWords/tokens(of:)``).
    ///   - domain: Only this domain, when given.
    ///   - limit: The size of the page.
    ///   - db: A connection inside a read transaction.
    /// - Returns: The page, newest first; `nil` to rank the search in full.
    /// - Throws: The connection's errors.
    static func compoundNamePage(_ tokens: [String], domain: String?, limit: Int, in db: any ReadConnection) throws -> [NameMatch]? {
        guard limit > 0, hasCompound(tokens) else { return nil }
        guard let filter = try ItemFilter(domain: domain, in: db) else { return [] }
        let expression = "name : (" + tokens.map { nameTerm($0, whole: true) }.joinedInPlace(separator: " AND ") + ")"
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
                let words = NameTokenizer.words(in: String(decoding: blob(row, 3), as: UTF8.self))
                if tokens.allSatisfy({ CompoundWords.match($0, in: words).whole }) {
                    page.add(NameMatch(best: sqlite3_column_int64(row, 0), identifier: ItemIdentifier(bytes: Array(blob(row, 2))),
                                       modificationDate: date))
                }
                return true
            }
        return page.result
    }
}
