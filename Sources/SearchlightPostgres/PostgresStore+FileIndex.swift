import Foundation
import Logging
import Searchlight
import SearchlightFiles
import SystemCalls

// The PostgreSQL index's file-indexer bookkeeping: the change stamps and failures of its items,
// each domain's state (as JSON in the domain's `state` column, which only this conformance and
// the SQLite one read), and the machine and folder of each domain (Docs/Contract.md#shared-index).
extension PostgresStore: FileIndexWriter {
    /// Opens the index at `url` for a command (`--index postgres://…`): what both executables
    /// give the commands as their opener of a shared index (`Launchers.openRemote`).
    ///
    /// - Throws: What ``init(url:readOnly:statementTimeout:logger:)`` throws.
    public static func open(_ url: String, readOnly: Bool, logger: Logger) throws -> any FileIndexWriter {
        try PostgresStore(url: url, readOnly: readOnly, logger: logger)
    }

    /// Every machine of a team may write its folders into the database.
    ///
    /// A shared index records who may read each file and pass each folder
    /// (``Searchlight/IndexBatch/Change/setFolderAccess(domain:folder:access:)``), and the scanner
    /// sends those changes only to an index that says it is shared.
    public var isShared: Bool { true }

    /// A page of a domain's identifiers and change stamps in byte order, waited for.
    ///
    /// Blocks the calling thread for one statement (``PostgresIndex/changeStamps(domain:after:before:limit:)``).
    public func changeStamps(domain: String, after identifier: ItemIdentifier?, before upperBound: ItemIdentifier?,
                             limit: Int) throws -> [(identifier: ItemIdentifier, changeStamp: [UInt8]?)] {
        try wait { [index] in
            try await index.changeStamps(domain: domain, after: identifier, before: upperBound, limit: limit)
        }
    }

    /// One item's stamp: `nil` when it is no item, `.some(nil)` when it has no stamp; waited for.
    public func changeStamp(of identifier: ItemIdentifier, domain: String) throws -> [UInt8]?? {
        try wait { [index] in try await index.changeStamp(of: identifier, domain: domain) }
    }

    /// The stamps of those identifiers that are items, waited for.
    public func changeStamps(of identifiers: [ItemIdentifier], domain: String) throws -> [ItemIdentifier: [UInt8]?] {
        try wait { [index] in try await index.changeStamps(of: identifiers, domain: domain) }
    }

    /// The recorded failures of a domain (or of every domain), waited for.
    public func failures(domain: String?, limit: Int) throws -> [(domain: String, identifier: ItemIdentifier, reason: String)] {
        try wait { [index] in try await index.failures(domain: domain, limit: limit) }
    }

    /// Applies a batch with the domains' states in one transaction, waited for.
    ///
    /// Blocks the calling thread until the transaction commits (or fails after its retries).
    /// The first write through this store counts the items once, so that ``churn`` can tell when
    /// enough has changed to vacuum.
    ///
    /// - Parameters:
    ///   - batch: The changes, in order.
    ///   - states: Each domain's state, stored in the same transaction.
    /// - Throws: ``Searchlight/SearchlightError`` (unavailable) when the database cannot be
    ///   reached, ``PostgresIndexError`` otherwise; then nothing of the batch is written.
    public func apply(_ batch: IndexBatch, states: [String: DomainState]) throws {
        let json = states.mapValues(\.json)
        try countItemsBeforeChurn()
        try wait { [index] in try await index.apply(batch, states: json) }
        churn.note(batch)
    }

    /// Stores the file indexer's state of a domain, waited for.
    public func setState(_ state: DomainState, domain: String) throws {
        let json = state.json
        try wait { [index] in try await index.setState(json, domain: domain) }
    }

    /// Each domain's state; a state this version cannot read is left out.
    public func domainStates() throws -> [String: DomainState] {
        try wait { [index] in try await index.domainStates() }.compactMapValues { DomainState(json: $0) }
    }

    /// Records the machine and folder a domain indexes, and who this machine's people are, waited for.
    ///
    /// Two transactions: the domain's origin, then this machine's people
    /// (``PostgresIndex/publish(people:host:)``), read from the system's user database each time.
    public func setOrigin(host: String, root: String, domain: String) throws {
        // With the machine's people: who each database role is there (PostgreSQLVisibility).
        let people = SystemCall.people()
        try wait { [index] in
            try await index.setOrigin(host: host, root: root, domain: domain)
            try await index.publish(people: people, host: host)
        }
    }

    /// The machine each domain indexes a folder of, waited for.
    public func domainHosts() throws -> [String: String] {
        try wait { [index] in try await index.domainHosts() }
    }
}
