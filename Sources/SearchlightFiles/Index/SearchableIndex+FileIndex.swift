import Foundation
import GRDB
import Searchlight

// The SQLite index's file-indexer bookkeeping. Its columns stay in the library's schema (the
// `changeStamp` and `failure` of each item, the `state` of each domain, a JSON text only this
// file reads and writes), so that no migration moves them; the library opens them to this
// package only (its `package` transactions), and knows nothing of what they mean.
extension SearchableIndex: FileIndexWriter {
    /// An index of one machine's folders.
    public var isShared: Bool { false }

    /// A page of the identifiers and change stamps of a domain, in identifier (byte) order,
    /// starting after `identifier`. An indexer walks its source in the same order and merges.
    ///
    /// One range of the `(domainId, identifier)` index per page: a page costs the same
    /// wherever it starts.
    ///
    /// - Parameters:
    ///   - domain: The domain; one the index does not hold has no stamps.
    ///   - identifier: Start after this identifier; `nil`: from the first.
    ///   - upperBound: Stop before this identifier; `nil`: at the domain's last.
    ///   - limit: At most this many.
    /// - Returns: Identifiers in byte order, each with its stamp (`nil` when it has none).
    /// - Throws: ``Searchlight/SearchlightError`` when the index cannot be read.
    public func changeStamps(domain: String, after identifier: ItemIdentifier?, before upperBound: ItemIdentifier? = nil,
                             limit: Int) throws
        -> [(identifier: ItemIdentifier, changeStamp: [UInt8]?)]
    {
        try read { db in
            guard let domainID = try domainID(domain, in: db, create: false) else { return [] }
            let rows = try Row.fetchAll(db, sql: """
                SELECT identifier, changeStamp FROM item
                WHERE domainId = ? AND identifier > ? AND (? IS NULL OR identifier < ?)
                ORDER BY identifier LIMIT ?
                """, arguments: [domainID, Data(identifier?.bytes ?? []), upperBound.map { Data($0.bytes) },
                                 upperBound.map { Data($0.bytes) }, limit])
            return rows.map { row in
                let id: Data = row[0]
                let stamp: Data? = row[1]
                return (ItemIdentifier(bytes: Array(id)), stamp.map { Array($0) })
            }
        }
    }

    /// The change stamp of one item: `nil` when the domain has no such item, `.some(nil)` when
    /// the item has no stamp.
    ///
    /// - Parameters:
    ///   - identifier: The item's identifier.
    ///   - domain: The item's domain.
    /// - Returns: `nil`, `.some(nil)`, or the stamp.
    /// - Throws: ``Searchlight/SearchlightError`` when the index cannot be read.
    public func changeStamp(of identifier: ItemIdentifier, domain: String) throws -> [UInt8]?? {
        try read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT item.changeStamp FROM item JOIN domain ON domain.id = item.domainId
                WHERE domain.name = ? AND item.identifier = ?
                """, arguments: [domain, Data(identifier.bytes)])
            guard let row else { return nil }
            let stamp: Data? = row[0]
            return .some(stamp.map { Array($0) })
        }
    }

    /// The change stamps of those of `identifiers` that are items of `domain`, read at once
    /// (an indexer that follows file-system events looks up many paths in each batch). An
    /// identifier that is no item is absent from the result; an item without a stamp maps to
    /// `nil`.
    ///
    /// - Parameters:
    ///   - identifiers: The identifiers to look up, in any order; read 500 to a statement.
    ///   - domain: Their domain.
    /// - Returns: A stamp (or `nil`) for each identifier that is an item.
    /// - Throws: ``Searchlight/SearchlightError`` when the index cannot be read.
    public func changeStamps(of identifiers: [ItemIdentifier], domain: String) throws -> [ItemIdentifier: [UInt8]?] {
        guard !identifiers.isEmpty else { return [:] }
        return try read { db in
            guard let domainID = try domainID(domain, in: db, create: false) else { return [:] }
            var stamps: [ItemIdentifier: [UInt8]?] = [:]
            // Well below SQLite's limit on bound parameters.
            let chunkSize = 500
            var start = identifiers.startIndex
            while start < identifiers.endIndex {
                let chunk = identifiers[start..<min(start + chunkSize, identifiers.endIndex)]
                let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                var arguments: [(any DatabaseValueConvertible)?] = [domainID]
                arguments += chunk.map { Data($0.bytes) }
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT identifier, changeStamp FROM item WHERE domainId = ? AND identifier IN (\(placeholders))
                    """, arguments: StatementArguments(arguments))
                while let row = try rows.next() {
                    let identifier: Data = row[0]
                    let stamp: Data? = row[1]
                    stamps[ItemIdentifier(bytes: Array(identifier))] = .some(stamp.map { Array($0) })
                }
                start += chunk.count
            }
            return stamps
        }
    }

    /// The recorded failures of a domain (or of every domain), by domain then identifier.
    ///
    /// - Parameters:
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many; 100 by default.
    /// - Returns: Each failed item's domain, identifier, and the reason stored with it.
    /// - Throws: ``Searchlight/SearchlightError`` when the index cannot be read.
    public func failures(domain: String? = nil, limit: Int = 100) throws -> [(domain: String, identifier: ItemIdentifier, reason: String)] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT domain.name, item.identifier, item.failure FROM item JOIN domain ON domain.id = item.domainId
                WHERE item.failure IS NOT NULL AND (:domain IS NULL OR domain.name = :domain)
                ORDER BY domain.name, item.identifier LIMIT :limit
                """, arguments: ["domain": domain, "limit": limit])
                .map { row in
                    let id: Data = row[1]
                    return (row[0], ItemIdentifier(bytes: Array(id)), row[2])
                }
        }
    }

    /// Applies `batch` and writes `states` in the same transaction, after the batch's changes.
    ///
    /// What a watch window writes: its items and the watch's health land together, or not at
    /// all. A domain named only in `states` is created.
    ///
    /// - Parameters:
    ///   - batch: The changes, in order.
    ///   - states: The file indexer's state of each domain, by name.
    /// - Throws: ``Searchlight/SearchlightError`` when the index cannot be written; then nothing of it is.
    public func apply(_ batch: IndexBatch, states: [String: DomainState]) throws {
        guard !states.isEmpty else { return try apply(batch) }
        try apply(batch, alongside: { db in
            for (domain, state) in states.sorted(by: { $0.key < $1.key }) {
                try self.store(state, domain: domain, in: db)
            }
        })
    }

    /// Stores the file indexer's state of a domain (as JSON in the domain's `state` column).
    ///
    /// - Parameters:
    ///   - state: The state, replacing the stored one.
    ///   - domain: The domain; created when the index does not hold it.
    /// - Throws: ``Searchlight/SearchlightError`` when the index cannot be written; then nothing of it is.
    public func setState(_ state: DomainState, domain: String) throws {
        try write { db in try store(state, domain: domain, in: db) }
    }

    /// Each domain's state, by domain name; a state this version cannot read is left out.
    ///
    /// - Returns: The states of the domains that have one.
    /// - Throws: ``Searchlight/SearchlightError`` when the index cannot be read.
    public func domainStates() throws -> [String: DomainState] {
        try read { db in
            var states: [String: DomainState] = [:]
            for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT name, state FROM domain WHERE state IS NOT NULL")) {
                states[row[0]] = DomainState(json: row[1])
            }
            return states
        }
    }

    /// Each domain's root, read by SQLite from the stored state, through the lightest
    /// connection (``Searchlight/SearchableIndex/readStatements(_:)``): a search that prints
    /// paths reads it before its first result, and decoding the states' JSON in Swift cost
    /// every such search its start (Benchmarks/README.md, "Start-up"). A state that is not
    /// JSON is left out, as ``domainStates()`` leaves out a state it cannot read.
    ///
    /// - Returns: Each domain's root folder, by domain name.
    /// - Throws: ``Searchlight/SearchlightError`` when the index cannot be read.
    public func domainRoots() throws -> [String: String] {
        try readStatements { db in
            var roots: [String: String] = [:]
            try db.readStatement("""
                SELECT name, json_extract(state, '$.root') FROM domain
                WHERE json_valid(state) AND json_type(state, '$.root') = 'text'
                """).forEachRow { row in
                roots[Self.string(row, 0)] = Self.string(row, 1)
                return true
            }
            return roots
        }
    }

    /// Each offline domain's date, read by SQLite from the stored state through the lightest
    /// connection, as ``domainRoots()``: a search reads it before its first result.
    ///
    /// - Returns: Since when each offline domain's drive is away, by domain name.
    /// - Throws: ``Searchlight/SearchlightError`` when the index cannot be read.
    public func offlineDomains() throws -> [String: Date] {
        try readStatements { db in
            var dates: [String: Date] = [:]
            try db.readStatement("""
                SELECT name, CAST(json_extract(state, '$.offlineSince') AS TEXT) FROM domain
                WHERE json_valid(state) AND json_type(state, '$.offlineSince') IN ('real', 'integer')
                """).forEachRow { row in
                if let seconds = Double(Self.string(row, 1)) { dates[Self.string(row, 0)] = Date(timeIntervalSinceReferenceDate: seconds) }
                return true
            }
            return dates
        }
    }

    /// ``domainRoots()`` and ``offlineDomains()``: two statements through the lightest
    /// connection, where one read of ``domainStates()`` opened GRDB and decoded every state's
    /// JSON before a search's first line (a search that finds nothing: 1.5 ms of 5).
    ///
    /// - Throws: ``Searchlight/SearchlightError`` when the index cannot be read.
    public func domainRootsAndOfflineDates() throws -> (roots: [String: String], offline: [String: Date]) {
        (try domainRoots(), try offlineDomains())
    }

    /// Nothing: the SQLite index lives on the machine whose folders it indexes, and each
    /// domain's state already names its root.
    public func setOrigin(host: String, root: String, domain: String) throws {}

    /// None recorded: every folder is on this machine.
    public func domainHosts() throws -> [String: String] { [:] }

    /// Each domain's state, in one async read (stated for the reason `SearchableIndex+AsyncRead.swift` gives).
    public func domainStates() async throws -> [String: DomainState] {
        try await asyncRead { try $0.domainStates() }
    }

    /// None, at once: every folder is on this machine.
    public func domainHosts() async throws -> [String: String] { [:] }

    private func store(_ state: DomainState, domain: String, in db: Database) throws {
        let id = try domainID(domain, in: db, create: true)!
        try db.execute(sql: "UPDATE domain SET state = ? WHERE id = ?", arguments: [state.json, id])
    }
}
