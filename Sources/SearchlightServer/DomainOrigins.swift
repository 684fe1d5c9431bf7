import Foundation
import Searchlight
import SearchlightFiles
import SearchlightJSON

/// Where each domain's items are: its folder, and in a shared index its machine.
public struct DomainOrigins: Sendable {
    /// Domain → the folder it indexes.
    public var roots: [String: String]
    /// Domain → the machine of that folder, for the domains that recorded one.
    public var hosts: [String: String]
    /// Domain → since when its drive is not mounted, for the domains that are offline.
    public var offline: [String: Date]

    /// The origins that the domains' states and their recorded machines say.
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

extension FileIndexReader {
    /// Each domain's folder and machine, awaited (``FileIndexReader/domainStates()``, then
    /// ``FileIndexReader/domainHosts()``, which the SQLite index answers at once).
    func domainOrigins() async throws -> DomainOrigins {
        DomainOrigins(states: try await domainStates(), hosts: try await domainHosts())
    }
}
