import Foundation
import Searchlight

/// The operations the folder scanner, the watcher, the command-line tool and the web server
/// need from an index, whatever stores it: the SQLite file of ``Searchlight/SearchableIndex``
/// or the shared database of ``PostgresIndex`` (`--index postgres://…`).
///
/// The requirements are `async`: a synchronous method witnesses an `async` requirement, so
/// `SearchableIndex` conforms with the methods it has (but ``forEachItem(domain:_:)``, whose
/// closure is `async` here). Docs/PostgreSQL.md says what remains to wire.
///
/// The scanner, the watcher and the commands use the synchronous form,
/// ``Searchlight/IndexStore``, which ``PostgresStore`` implements over this index.
public protocol IndexStorage: Sendable {
    // MARK: Writing (scanner, watcher, `remove`)

    /// Applies a batch in one transaction: all of its changes land, or none.
    func apply(_ batch: IndexBatch) async throws
    /// Deletes every item of the domains, and the domains; returns the number of items deleted.
    @discardableResult func deleteAllItems(inDomains domains: [String]) async throws -> Int
    /// Deletes every item and domain; returns the number of items deleted.
    @discardableResult func deleteAllItems() async throws -> Int
    /// Records when a domain was last brought up to date.
    func markUpdated(domain: String, date: Date) async throws
    /// Stores an indexer's state of a domain.
    func setState(_ state: String?, domain: String) async throws

    // MARK: Reading (reconcile, `show`, `thumbnail`, `list`, `status`, the API)

    func item(_ identifier: ItemIdentifier, domain: String) async throws -> IndexedItem?
    func items(withIdentifier identifier: ItemIdentifier, domain: String?) async throws -> [IndexedItem]
    func itemCount(domain: String?) async throws -> Int
    /// Every item, by domain then identifier; `body` returns `false` to stop.
    func forEachItem(domain: String?, _ body: (IndexedItem) async throws -> Bool) async throws
    /// A page of a domain's identifiers and change stamps in byte order: what reconcile merges with a walk.
    func changeStamps(domain: String, after identifier: ItemIdentifier?, before upperBound: ItemIdentifier?,
                      limit: Int) async throws -> [(identifier: ItemIdentifier, changeStamp: [UInt8]?)]
    /// The stamps of those identifiers that are items: what the watcher checks for each event.
    func changeStamps(of identifiers: [ItemIdentifier], domain: String) async throws -> [ItemIdentifier: [UInt8]?]
    func thumbnail(of identifier: ItemIdentifier, domain: String) async throws -> Thumbnail?
    func domains() async throws -> [String]
    func domainStates() async throws -> [String: String]
    func statistics() async throws -> IndexStatistics
    func failures(domain: String?, limit: Int) async throws -> [(domain: String, identifier: ItemIdentifier, reason: String)]

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
