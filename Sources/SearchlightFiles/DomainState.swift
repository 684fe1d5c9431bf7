import Foundation
import Searchlight

/// What the file indexer remembers about a domain, stored as JSON with the domain in the index.
public struct DomainState: Codable, Sendable, Equatable {
    /// The canonical absolute path of the domain's root.
    public var root: String
    /// The last complete reconcile.
    public var lastScan: ScanSummary?
    /// The health of a `watch` of this root, while one runs (and as it left it).
    public var watch: WatchHealth?

    public init(root: String, lastScan: ScanSummary? = nil, watch: WatchHealth? = nil) {
        self.root = root
        self.lastScan = lastScan
        self.watch = watch
    }

    /// Decodes a stored state; `nil` when absent or not ours.
    public init?(json: String?) {
        guard let data = json?.data(using: .utf8),
              let state = try? JSONDecoder().decode(DomainState.self, from: data) else { return nil }
        self = state
    }

    /// The JSON stored in the index.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }
}

/// How a `watch` is doing: shown by `status`.
public struct WatchHealth: Codable, Sendable, Equatable {
    /// The watching process.
    public var pid: Int32
    /// Whether it is running (false once it has shut down).
    public var running: Bool
    /// When this was last written.
    public var updated: Date
    /// inotify watches in use by this watcher.
    public var watchesUsed: Int
    /// The system's limit (`fs.inotify.max_user_watches`).
    public var watchLimit: Int?
    /// Folders that could not be watched (the limit was reached): rescanned periodically.
    public var degradedSubtrees: [String]
    /// How many times the kernel's event queue overflowed (each triggers a full reconcile).
    public var overflows: Int
    /// Changes seen but not yet written.
    public var pendingChanges: Int

    public init(pid: Int32, running: Bool, updated: Date, watchesUsed: Int, watchLimit: Int?,
                degradedSubtrees: [String], overflows: Int, pendingChanges: Int) {
        self.pid = pid
        self.running = running
        self.updated = updated
        self.watchesUsed = watchesUsed
        self.watchLimit = watchLimit
        self.degradedSubtrees = degradedSubtrees
        self.overflows = overflows
        self.pendingChanges = pendingChanges
    }
}

extension SearchableIndex {
    /// The file indexer's state of `domain`, when it has one.
    public func domainState(_ domain: String) throws -> DomainState? {
        DomainState(json: try domainStates()[domain])
    }
}
