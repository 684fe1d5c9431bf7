import Foundation
import Searchlight

/// What the file indexer keeps in an index beside the items, as it reads it: the library's
/// ``Searchlight/IndexReader`` refined with each item's change stamp (what reconcile compares
/// with the file), the failures of the files it could not read, its state of each domain
/// (``DomainState``: the root, the last scan, the watch's health), and, in an index that many
/// machines share, the machine a domain indexes. ``FileIndexWriter`` adds the writes, as the
/// library's ``Searchlight/IndexWriter`` refines its reader.
///
/// The commands, the server and the desktop's search providers read an index through this
/// protocol. Both backends conform: the SQLite index here (`SearchableIndex+FileIndex.swift`,
/// over the columns the library's schema keeps for it), the PostgreSQL index in
/// `SearchlightPostgres` (`PostgresStore+FileIndex.swift`). Docs/Architecture.md draws the family.
///
/// As in ``Searchlight/IndexReader``, the requirements are synchronous and block their caller
/// for the read; the two that the server awaits (``domainStates()``, ``domainHosts()``) have
/// async twins that each conformer states. A conformer is `Sendable` and may be read from any
/// number of threads at once.
///
/// ```swift
/// let index: any FileIndexReader = try SearchableIndex(path: path, readOnly: true)
/// for (domain, state) in try index.domainStates() {
///     let watching = state.watch?.running == true ? "watched" : "not watched"
///     print(domain, state.root, state.lastScan?.counts ?? "never scanned", watching)
/// }
/// ```
public protocol FileIndexReader: IndexReader {
    /// Whether the index holds the folders of many machines (Docs/Contract.md#shared-index), whose domains then
    /// name the machine as well as the folder.
    var isShared: Bool { get }

    // MARK: Change stamps (reconcile, the watcher)

    /// A page of a domain's identifiers and change stamps in byte order, after `identifier`
    /// and before `upperBound`: what reconcile merges with a walk.
    func changeStamps(domain: String, after identifier: ItemIdentifier?, before upperBound: ItemIdentifier?,
                      limit: Int) throws -> [(identifier: ItemIdentifier, changeStamp: [UInt8]?)]
    /// One item's stamp: `nil` when it is no item, `.some(nil)` when it has no stamp.
    func changeStamp(of identifier: ItemIdentifier, domain: String) throws -> [UInt8]??
    /// The stamps of those identifiers that are items: what the watcher checks for each event.
    func changeStamps(of identifiers: [ItemIdentifier], domain: String) throws -> [ItemIdentifier: [UInt8]?]

    // MARK: Failures (`status`)

    /// The recorded failures of a domain (or of every domain), by domain then identifier, at most `limit`.
    func failures(domain: String?, limit: Int) throws -> [(domain: String, identifier: ItemIdentifier, reason: String)]

    // MARK: Domain state (scanner, watcher, `status`, `pause`, `serve`)

    /// The state of every domain that has one, by domain name.
    func domainStates() throws -> [String: DomainState]
    /// The root of every domain that has a state, by domain name: what printing a path
    /// needs, read without decoding the states where the store can.
    func domainRoots() throws -> [String: String]
    /// Since when each domain whose drive is not mounted has been offline, by domain name
    /// (``DomainState/offlineSince``): what marks its items offline wherever they are shown.
    func offlineDomains() throws -> [String: Date]
    /// ``domainRoots()`` and ``offlineDomains()`` in one call: what a printer of paths reads
    /// before its first line. One read of the states where a read is a round trip (a shared
    /// index); the two light reads where decoding the states costs more (SQLite).
    func domainRootsAndOfflineDates() throws -> (roots: [String: String], offline: [String: Date])

    // MARK: Origin (a shared index)

    /// The machine each domain indexes a folder of, for the domains that recorded one (only
    /// a shared index does); a domain without an entry is a folder of this machine.
    func domainHosts() throws -> [String: String]

    // MARK: Async twins (each conformer states them, as Searchlight's IndexReader+Async.swift says)

    /// ``domainStates()``, awaited.
    func domainStates() async throws -> [String: DomainState]
    /// ``domainHosts()``, awaited.
    func domainHosts() async throws -> [String: String]
}

extension FileIndexReader {
    /// The file indexer's state of `domain`, when it has one.
    ///
    /// ```swift
    /// if let state = try index.domainState("notes"), let scan = state.lastScan {
    ///     print("last scan: \(scan.counts)")
    /// }
    /// ```
    ///
    /// - Parameter domain: The domain's name.
    /// - Returns: The state, or `nil` when the domain has none (or does not exist).
    /// - Throws: The store's error when the index cannot be read.
    public func domainState(_ domain: String) throws -> DomainState? {
        try domainStates()[domain]
    }

    /// Every domain's failures, at most `limit`.
    ///
    /// - Parameter limit: At most this many.
    /// - Returns: Each failed item's domain, identifier, and the reason stored with it.
    /// - Throws: The store's error when the index cannot be read.
    public func failures(limit: Int) throws -> [(domain: String, identifier: ItemIdentifier, reason: String)] {
        try failures(domain: nil, limit: limit)
    }

    /// A page of a domain's stamps after `identifier`, to the end of the domain.
    ///
    /// - Parameters:
    ///   - domain: The domain.
    ///   - identifier: Start after this identifier; `nil`: from the first.
    ///   - limit: At most this many.
    /// - Returns: Identifiers in byte order, each with its stamp.
    /// - Throws: The store's error when the index cannot be read.
    public func changeStamps(domain: String, after identifier: ItemIdentifier?,
                             limit: Int) throws -> [(identifier: ItemIdentifier, changeStamp: [UInt8]?)] {
        try changeStamps(domain: domain, after: identifier, before: nil, limit: limit)
    }

    /// The domain of a folder given without one: its path, and in a shared index this
    /// machine's name before it (`HOST:/path`), since two machines may index folders of the
    /// same path (Docs/Contract.md#shared-index: domains identify a host and a root).
    ///
    /// - Parameter path: The folder's canonical path.
    /// - Returns: The domain's name: `path`, or `HOST:path` in a shared index.
    public func defaultDomain(forFolder path: String) -> String {
        isShared ? FolderScanner.hostName + ":" + path : path
    }

    /// Whether a domain's folder is on this machine: it recorded no other host.
    ///
    /// - Parameters:
    ///   - domain: The domain's name.
    ///   - hosts: ``domainHosts()``, read once for many domains.
    /// - Returns: `true` when the domain recorded this machine's name, or no host.
    public func isLocal(domain: String, hosts: [String: String]) -> Bool {
        hosts[domain].map { $0 == FolderScanner.hostName } ?? true
    }
}

extension FileIndexReader {
    /// The roots of ``domainStates()``.
    ///
    /// - Returns: Each domain's root folder, by domain name.
    /// - Throws: The store's error when the index cannot be read.
    public func domainRoots() throws -> [String: String] { try domainStates().mapValues(\.root) }

    /// The offline dates of ``domainStates()``.
    ///
    /// - Returns: Since when each offline domain's drive is away, by domain name.
    /// - Throws: The store's error when the index cannot be read.
    public func offlineDomains() throws -> [String: Date] { try domainStates().compactMapValues(\.offlineSince) }

    /// The roots and offline dates of one read of ``domainStates()``.
    ///
    /// - Throws: The store's error when the index cannot be read.
    public func domainRootsAndOfflineDates() throws -> (roots: [String: String], offline: [String: Date]) {
        let states = try domainStates()
        return (states.mapValues(\.root), states.compactMapValues(\.offlineSince))
    }

    /// The roots of the domains whose folders are on this machine, by domain: what a path a
    /// person types here can name, and what `scan` and `watch` may refresh. In a shared index,
    /// a domain counts only when this machine recorded it (its origin, or a name made here
    /// before the origin was written: ``defaultDomain(forFolder:)``); another machine's
    /// `/home/alice/Documents` is never this one's.
    ///
    /// - Returns: Each local domain's root folder, by domain name.
    /// - Throws: The store's error when the index cannot be read.
    public func localRoots() throws -> [String: String] {
        let roots = try domainRoots()
        guard isShared else { return roots }
        let hosts = try domainHosts()
        return roots.filter { domain, _ in
            hosts[domain].map { $0 == FolderScanner.hostName } ?? domain.hasPrefix(FolderScanner.hostName + ":")
        }
    }
}
