import Foundation

/// What the folder scanner, the watcher and the commands use of an index, whatever stores it:
/// the SQLite file of ``SearchableIndex``, or the shared PostgreSQL database of Docs/Contract.md#shared-index
/// (`SearchlightPostgres`' `PostgresStore`, which `searchlight-serve` links and `searchlight`
/// does not).
///
/// The requirements are synchronous, as ``SearchableIndex``'s methods are: the scanner and the
/// watcher call them from threads of their own, and the SQLite index conforms with the methods
/// it has, so its path costs nothing more than a call through a witness table.
public protocol IndexStore: AnyObject, Sendable {
    /// What names the index in messages and `status`: a file's path, or a URL without password.
    var path: String { get }
    /// Whether the index holds the folders of many machines (Docs/Contract.md#shared-index), whose domains then
    /// name the machine as well as the folder.
    var isShared: Bool { get }

    // MARK: Writing (scanner, watcher, `remove`)

    /// Applies a batch in one transaction: all of its changes land, or none.
    func apply(_ batch: IndexBatch) throws
    /// Deletes every item of the domains, and the domains; returns the number of items deleted.
    @discardableResult func deleteAllItems(inDomains domains: [String]) throws -> Int
    /// Deletes every item and domain; returns the number of items deleted.
    @discardableResult func deleteAllItems() throws -> Int
    /// Records when a domain was last brought up to date.
    func markUpdated(domain: String, date: Date) throws
    /// Stores an indexer's state of a domain (``IndexStatistics/Domain/state``).
    func setState(_ state: String?, domain: String) throws
    /// Records the machine and folder a domain indexes: a shared index holds the domains of
    /// many machines (Docs/Contract.md#shared-index). An index on one machine need not (the default does nothing).
    func setOrigin(host: String, root: String, domain: String) throws

    // MARK: Reconciling (scanner, watcher)

    /// A page of a domain's identifiers and change stamps in byte order, after `identifier`
    /// and before `upperBound`: what reconcile merges with a walk.
    func changeStamps(domain: String, after identifier: ItemIdentifier?, before upperBound: ItemIdentifier?,
                      limit: Int) throws -> [(identifier: ItemIdentifier, changeStamp: [UInt8]?)]
    /// One item's stamp: `nil` when it is no item, `.some(nil)` when it has no stamp.
    func changeStamp(of identifier: ItemIdentifier, domain: String) throws -> [UInt8]??
    /// The stamps of those identifiers that are items: what the watcher checks for each event.
    func changeStamps(of identifiers: [ItemIdentifier], domain: String) throws -> [ItemIdentifier: [UInt8]?]

    // MARK: Reading (`show`, `thumbnail`, `open`, `list`, `status`)

    /// The items with this identifier (in one domain, or in every domain), thumbnail bytes included.
    func items(withIdentifier identifier: ItemIdentifier, domain: String?) throws -> [IndexedItem]
    /// The item with this identifier in this domain, thumbnail bytes included.
    func item(_ identifier: ItemIdentifier, domain: String) throws -> IndexedItem?
    /// The thumbnail of an item, if it has one.
    func thumbnail(of identifier: ItemIdentifier, domain: String) throws -> Thumbnail?
    func itemCount(domain: String?) throws -> Int
    /// Every item, by domain then identifier; `body` returns `false` to stop.
    func forEachItem(domain: String?, _ body: (IndexedItem) throws -> Bool) throws
    func domains() throws -> [String]
    func domainStates() throws -> [String: String]
    func statistics() throws -> IndexStatistics
    func failures(domain: String?, limit: Int) throws -> [(domain: String, identifier: ItemIdentifier, reason: String)]

    // MARK: Searching (`search`, `query`)

    /// Docs/Contract.md#search: every word a prefix of some word of the item, ranked, with where each matched.
    func searchResults(words: [String], domain: String?, limit: Int?, scope: SearchScope) throws -> [SearchResult]
    /// The identifiers of ``searchResults(words:domain:limit:scope:)``, in the same order.
    func searchIdentifiers(words: [String], domain: String?, limit: Int?, scope: SearchScope) throws -> [ItemIdentifier]
    func countMatches(words: [String], domain: String?, scope: SearchScope) throws -> Int
    /// Docs/Contract.md#query-language: the items matching a query string, most recently modified first.
    func query(_ queryString: String, domain: String?, limit: Int?) throws -> [IndexedItem]
    func countQuery(_ queryString: String, domain: String?) throws -> Int
    /// What runs for a query (`query --explain`).
    func explainQuery(_ queryString: String, domain: String?, limit: Int?) throws -> String

    // MARK: Following changes (`serve`, `query --live`)

    /// A monitor that tells when any process committed a change (``IndexChangeMonitor``).
    func makeChangeMonitor() throws -> any IndexChangeMonitor
    /// Stops what this handle is reading now, from another thread: the read fails. The SQLite
    /// index interrupts its statement; a store whose statements have a deadline of their own
    /// (the PostgreSQL index's statement timeout) need do nothing (the default).
    func interrupt()
    /// The machine each domain indexes a folder of, for the domains that recorded one. Only
    /// a shared index records it (``setOrigin(host:root:domain:)``); an index without an
    /// entry for a domain holds a folder of this machine (the default: none recorded).
    func domainHosts() throws -> [String: String]
}

extension SearchableIndex: IndexStore {}

extension IndexStore {
    /// Nothing: the SQLite index lives on the machine whose folders it indexes, and each
    /// domain's state already names its root.
    public func setOrigin(host: String, root: String, domain: String) throws {}

    public func item(_ identifier: ItemIdentifier, domain: String) throws -> IndexedItem? {
        try items(withIdentifier: identifier, domain: domain).first
    }

    public func thumbnail(of identifier: ItemIdentifier, domain: String) throws -> Thumbnail? {
        try item(identifier, domain: domain)?.item.attributeSet.thumbnail
    }

    /// An index of one machine's folders.
    public var isShared: Bool { false }

    /// Nothing to stop.
    public func interrupt() {}

    /// None recorded: every folder is on this machine.
    public func domainHosts() throws -> [String: String] { [:] }

    /// ``markUpdated(domain:date:)`` now.
    public func markUpdated(domain: String) throws { try markUpdated(domain: domain, date: Date()) }

    /// Every domain's failures, at most `limit`.
    public func failures(limit: Int) throws -> [(domain: String, identifier: ItemIdentifier, reason: String)] {
        try failures(domain: nil, limit: limit)
    }

    /// A page of a domain's stamps after `identifier`, to the end of the domain.
    public func changeStamps(domain: String, after identifier: ItemIdentifier?,
                             limit: Int) throws -> [(identifier: ItemIdentifier, changeStamp: [UInt8]?)] {
        try changeStamps(domain: domain, after: identifier, before: nil, limit: limit)
    }
}

/// An error of an ``IndexStore`` other than ``SearchlightError`` (the PostgreSQL index's):
/// it prints as one line, without any password, and says whether the user asked for
/// something malformed (a URL that does not parse: a usage error, exit status 64).
public protocol IndexStoreError: Error, CustomStringConvertible {
    /// A malformed location or query: exit status 64, HTTP 400.
    var isUsageError: Bool { get }
    /// A statement that ran past the store's own deadline and was stopped: HTTP 503.
    var isTimeout: Bool { get }
    /// The index cannot be reached now (its database server stopped, restarted, or is cut
    /// off): nothing was done, and the same call may succeed later. HTTP 503.
    var isUnavailable: Bool { get }
}

extension IndexStoreError {
    public var isTimeout: Bool { false }
    public var isUnavailable: Bool { false }
}
