import Foundation
import Searchlight

/// The library's operations on an index (``Searchlight/IndexStore``'s, asynchronous), whatever
/// stores it: the SQLite file of ``Searchlight/SearchableIndex`` or the shared database of
/// ``PostgresIndex`` (`--index postgres://…`). The file indexer's bookkeeping (stamps,
/// failures, domain state, origin) is `SearchlightFiles`' `FileIndexStore`, not here.
///
/// The requirements are `async`: a synchronous method witnesses an `async` requirement, so
/// `SearchableIndex` conforms with the methods it has (but ``forEachItem(domain:_:)``, whose
/// closure is `async` here). Docs/PostgreSQL.md says what remains to wire.
///
/// The scanner, the watcher and the commands use the synchronous form,
/// ``Searchlight/IndexStore``, which ``PostgresStore`` implements over this index.
public protocol IndexStorage: Sendable {
    // MARK: Writing

    /// Applies a batch in one transaction: all of its changes land, or none.
    func apply(_ batch: IndexBatch) async throws
    /// Deletes every item of the domains, and the domains; returns the number of items deleted.
    @discardableResult func deleteAllItems(inDomains domains: [String]) async throws -> Int
    /// Deletes every item and domain; returns the number of items deleted.
    @discardableResult func deleteAllItems() async throws -> Int
    /// Records when a domain was last brought up to date.
    func markUpdated(domain: String, date: Date) async throws

    // MARK: Reading

    func item(_ identifier: ItemIdentifier, domain: String) async throws -> IndexedItem?
    func items(withIdentifier identifier: ItemIdentifier, domain: String?) async throws -> [IndexedItem]
    func itemCount(domain: String?) async throws -> Int
    /// Every item, by domain then identifier; `body` returns `false` to stop.
    func forEachItem(domain: String?, _ body: (IndexedItem) async throws -> Bool) async throws
    func thumbnail(of identifier: ItemIdentifier, domain: String) async throws -> Thumbnail?
    func domains() async throws -> [String]
    func statistics() async throws -> IndexStatistics

    // MARK: Searching (`search`, `query`, the API)

    /// Docs/Contract.md#search: every word a prefix of some word of the item, ranked.
    func search(words: [String], domain: String?, limit: Int?) async throws -> [IndexedItem]
    func searchIdentifiers(words: [String], domain: String?, limit: Int?) async throws -> [ItemIdentifier]
    func countMatches(words: [String], domain: String?) async throws -> Int
    /// Docs/Contract.md#query-language: a parsed query, most recently modified first.
    func query(_ expression: QueryExpression, domain: String?, limit: Int?, now: Date,
               calendar: Calendar) async throws -> [IndexedItem]
    func countQuery(_ expression: QueryExpression, domain: String?, now: Date, calendar: Calendar) async throws -> Int
    /// The SQL, its parameters and the database's plan (`query --explain`).
    func explainQuery(_ queryString: String, domain: String?, limit: Int?) async throws -> String
}

extension PostgresIndex: IndexStorage {}
