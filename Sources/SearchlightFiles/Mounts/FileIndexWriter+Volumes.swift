import Foundation

// A domain's drive: where its root is now, and the record of it (Docs/Contract.md#drives-and-mounts).
extension FileIndexWriter {
    /// Where the root of `domain`, recorded at `path`, is now: on the filesystem its state
    /// recorded (at `path`, or where that drive is mounted now), or absent.
    ///
    /// Reads the domain's state and the mount table; blocks briefly. A state that cannot be read
    /// counts as one that recorded no volume.
    ///
    /// - Parameters:
    ///   - path: The root's path as the index recorded it.
    ///   - domain: The domain whose state recorded the volume.
    /// - Returns: Where the root is mounted now, or absent.
    public func presence(ofRoot path: String, domain: String) -> VolumePresence {
        let recorded = ((try? domainState(domain)) ?? nil)?.volume
        return VolumePresence.locate(path: path, recorded: recorded)
    }

    /// Records what `presence` found: the root's path and filesystem when mounted (online
    /// again), or since when it is offline (kept from an earlier record). Returns the
    /// offline date, nil when mounted.
    ///
    /// A read and a write of the domain's state, not one transaction.
    ///
    /// - Throws: The index's error when the domain's state cannot be read or written.
    /// - Parameters:
    ///   - presence: What ``presence(ofRoot:domain:)`` found.
    ///   - path: The root's path, for a domain without a state yet.
    ///   - domain: The domain.
    @discardableResult
    public func record(_ presence: VolumePresence, root path: String, domain: String) throws -> Date? {
        var state = try domainState(domain) ?? DomainState(root: path)
        switch presence {
        case .mounted(let mounted, let volume):
            state.root = mounted
            state.volume = volume
            state.offlineSince = nil
        case .absent:
            state.offlineSince = state.offlineSince ?? Date()
        }
        try setState(state, domain: domain)
        return state.offlineSince
    }
}
