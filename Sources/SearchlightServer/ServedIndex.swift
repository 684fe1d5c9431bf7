import Foundation
import Searchlight
import SearchlightFiles
import SearchlightJSON

/// The reads the server makes of an index, each awaited from the request's handler to the
/// database and back: the SQLite index through GRDB's async reads (``SQLiteReaders``), the
/// PostgreSQL index through postgres-nio (``ServedPostgresIndex``). No read blocks a thread of Swift's
/// pool, and none goes through a bridge from synchronous code.
///
/// The server stops a read at its query timeout by cancelling the task that awaits it
/// (SQLite: `sqlite3_interrupt`); a store whose statements have a deadline of their own
/// (PostgreSQL's `statement_timeout`) is stopped there too.
public protocol ServedIndex: Sendable {
    /// A search typed with Spotlight's search words, best first (``Searchlight/SearchWords``).
    func searchResults(_ search: SearchWords, domain: String?, limit: Int?) async throws -> [SearchResult]
    /// The words' ranking as typed, never respelled: what meaning blends with (``Searchlight/RankedSearch``).
    func typedResults(_ search: SearchWords, domain: String?, limit: Int?) async throws -> [SearchResult]
    /// The items nearest in meaning to `question` (``Searchlight/IndexStore/meaningResults(question:model:domain:limit:)``).
    func meaningResults(question: [Float], model: String, domain: String?, limit: Int) async throws -> [SearchResult]
    /// The items matching a query string, most recently modified first.
    func query(_ queryString: String, domain: String?, limit: Int?) async throws -> [IndexedItem]
    /// The items matching a parsed query, most recently modified first.
    func query(_ expression: QueryExpression, domain: String?, limit: Int?) async throws -> [IndexedItem]
    /// How many items a parsed query matches.
    func count(_ expression: QueryExpression, domain: String?) async throws -> Int
    /// One item, thumbnail bytes and text included.
    func item(_ identifier: ItemIdentifier, domain: String) async throws -> IndexedItem?
    /// An item's thumbnail, with its bytes.
    func thumbnail(of identifier: ItemIdentifier, domain: String) async throws -> Thumbnail?
    /// What the index holds, per domain, and its size (`/api/status`).
    func statistics() async throws -> IndexStatistics
    /// Each domain's indexer state (its folder among it).
    func domainStates() async throws -> [String: DomainState]
    /// The machine each domain indexes a folder of, in a shared index.
    func domainHosts() async throws -> [String: String]
    /// Each domain's folder and machine at once (default: ``domainStates()`` then ``domainHosts()``).
    func domainOrigins() async throws -> DomainOrigins
    /// A value that differs after any commit by any process; only equality means anything.
    func changeMarker() async throws -> [Int64]
    /// Whether the store stops its reads at the query timeout itself (PostgreSQL's
    /// `statement_timeout`, and its own timeout for a database that stopped answering, after
    /// which it fails at once while the database stays away): the server then waits for the
    /// store rather than cancelling the read. Default: `false`.
    var stopsReadsItself: Bool { get }
}

/// Where each domain's items are: its folder, and in a shared index its machine.
public struct DomainOrigins: Sendable {
    /// Domain → the folder it indexes.
    public var roots: [String: String]
    /// Domain → the machine of that folder, for the domains that recorded one.
    public var hosts: [String: String]
    /// Domain → since when its drive is not mounted, for the domains that are offline.
    public var offline: [String: Date]

    /// The origins of the domains of `states`, with the machines of `hosts`.
    public init(states: [String: DomainState], hosts: [String: String]) {
        roots = states.compactMapValues(\.root)
        offline = states.compactMapValues(\.offlineSince)
        self.hosts = hosts
    }

    /// The items' JSON, with their paths and offline marks.
    var itemJSON: ItemJSON { ItemJSON(roots: roots, offline: offline) }

    /// The machine of `domain` when it is not this one: its files are neither served nor opened here.
    func remoteHost(of domain: String) -> String? {
        hosts[domain].flatMap { $0 == FolderScanner.hostName ? nil : $0 }
    }
}

extension ServedIndex {
    /// `false`: the server cancels a read that passes its query timeout.
    public var stopsReadsItself: Bool { false }

    /// ``domainStates()`` then ``domainHosts()``, two reads.
    public func domainOrigins() async throws -> DomainOrigins {
        DomainOrigins(states: try await domainStates(), hosts: try await domainHosts())
    }

    /// One ranking of a search (``Searchlight/RankedSearch/Reading``), read from this index.
    /// The server searches everything: its searches have no scope.
    func results(of ranking: RankedSearch.Ranking, for search: RankedSearch) async throws -> [SearchResult] {
        switch ranking {
        case .words(let limit):
            return try await searchResults(search.search, domain: search.domain, limit: limit)
        case .typedWords(let limit):
            return try await typedResults(search.search, domain: search.domain, limit: limit)
        case .meaning(let question, let model, let limit):
            return try await meaningResults(question: question, model: model, domain: search.domain, limit: limit)
        }
    }
}
