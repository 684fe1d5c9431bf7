import Foundation
import Searchlight
import SearchlightFiles
import SystemCalls

// The PostgreSQL index's file-indexer bookkeeping: the change stamps and failures of its items,
// each domain's state (as JSON in the domain's `state` column, which only this conformance and
// the SQLite one read), and the machine and folder of each domain (Docs/Contract.md#shared-index).
extension PostgresStore: FileIndexStore {
    /// Every machine of a team may write its folders into the database.
    public var isShared: Bool { true }

    /// ``PostgresIndex/changeStamps(domain:after:before:limit:)``, waited for.
    public func changeStamps(domain: String, after identifier: ItemIdentifier?, before upperBound: ItemIdentifier?,
                             limit: Int) throws -> [(identifier: ItemIdentifier, changeStamp: [UInt8]?)] {
        try wait { [index] in
            try await index.changeStamps(domain: domain, after: identifier, before: upperBound, limit: limit)
        }
    }

    /// ``PostgresIndex/changeStamp(of:domain:)``, waited for.
    public func changeStamp(of identifier: ItemIdentifier, domain: String) throws -> [UInt8]?? {
        try wait { [index] in try await index.changeStamp(of: identifier, domain: domain) }
    }

    /// ``PostgresIndex/changeStamps(of:domain:)``, waited for.
    public func changeStamps(of identifiers: [ItemIdentifier], domain: String) throws -> [ItemIdentifier: [UInt8]?] {
        try wait { [index] in try await index.changeStamps(of: identifiers, domain: domain) }
    }

    /// ``PostgresIndex/failures(domain:limit:)``, waited for.
    public func failures(domain: String?, limit: Int) throws -> [(domain: String, identifier: ItemIdentifier, reason: String)] {
        try wait { [index] in try await index.failures(domain: domain, limit: limit) }
    }

    /// Writes the batch and the domains' states in one transaction, then counts the churn.
    public func apply(_ batch: IndexBatch, states: [String: DomainState]) throws {
        let json = states.mapValues(\.json)
        try countItemsBeforeChurn()
        try wait { [index] in try await index.apply(batch, states: json) }
        churn.note(batch)
    }

    /// Stores the domain's state as JSON in its row.
    public func setState(_ state: DomainState, domain: String) throws {
        let json = state.json
        try wait { [index] in try await index.setState(json, domain: domain) }
    }

    /// Each domain's state; a state this version cannot read is left out.
    public func domainStates() throws -> [String: DomainState] {
        try wait { [index] in try await index.domainStates() }.compactMapValues { DomainState(json: $0) }
    }

    /// Records the machine and folder of the domain, with this machine's people (who each role is here).
    public func setOrigin(host: String, root: String, domain: String) throws {
        // With the machine's people: who each database role is there (PostgreSQLVisibility).
        let people = SystemCall.people()
        try wait { [index] in
            try await index.setOrigin(host: host, root: root, domain: domain)
            try await index.publish(people: people, host: host)
        }
    }

    /// ``PostgresIndex/domainHosts()``, waited for: the machine each domain is on.
    public func domainHosts() throws -> [String: String] {
        try wait { [index] in try await index.domainHosts() }
    }
}
