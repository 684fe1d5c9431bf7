import Foundation
import Searchlight

/// What the file indexer remembers about a domain, stored with the domain in the index
/// (``FileIndexWriter/setState(_:domain:)``); each backend keeps it as JSON in a column of its
/// domain table, which only the conformances read (``init(json:)``, ``json``).
///
/// Written by scans and watches with their batches (in the same transaction), read by
/// `status`, `pause` and the next scan. Optional fields are the ones later versions added, so
/// a state written by an older version still decodes.
///
/// ```swift
/// var state = try index.domainState("notes") ?? DomainState(root: "/home/ada/Notes")
/// state.lastScan = summary
/// try index.setState(state, domain: "notes")
/// ```
public struct DomainState: Codable, Sendable, Equatable {
    /// The canonical absolute path of the domain's root.
    public var root: String
    /// The last complete reconcile.
    public var lastScan: ScanSummary?
    /// The health of a `watch` of this root, while one runs (and as it left it).
    public var watch: WatchHealth?
    /// Which content readers the domain's items were read with (``ContentReader/generation``);
    /// nil for a state written before they were counted (generation 1).
    public var contentReaders: Int?
    /// The filesystem the root lives on, as last seen mounted (Docs/Contract.md#drives-and-mounts);
    /// nil for a state written before it was recorded.
    public var volume: VolumeIdentity?
    /// Since when the root's filesystem is not mounted (its items are kept, shown offline);
    /// nil while it is.
    public var offlineSince: Date?
    /// Since when the server of a network or FUSE root does not answer; nil while it does.
    public var unreachableSince: Date?

    /// A new domain's state: its items are read by today's content readers.
    public init(root: String, lastScan: ScanSummary? = nil, watch: WatchHealth? = nil) {
        self.root = root
        self.lastScan = lastScan
        self.watch = watch
        self.contentReaders = ContentReader.generation
    }

    /// Decodes a stored state; `nil` when absent or not ours.
    ///
    /// A state that does not decode (written by a newer version whose fields this one cannot
    /// read) is `nil`: the caller starts from a new state, which loses what the old one held.
    package init?(json: String?) {
        guard let data = json?.data(using: .utf8),
              let state = try? JSONDecoder().decode(DomainState.self, from: data) else { return nil }
        self = state
    }

    /// The JSON stored in the index.
    ///
    /// Keys sorted, so the same state is always the same text; `{}` should encoding ever fail.
    package var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }
}

/// How a `watch` is doing: shown by `status`.
///
/// Written by the watcher at each window, pause, backoff and stop (``FolderWatcher/recordHealth()``),
/// so `status` can show how far behind a watch is and what it could not watch, without
/// asking the watching process.
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
    /// Items the self-check repaired since the watch started (each one a bug or a lost event).
    public var selfCheckRepairs: Int?
    /// When the self-check last ran.
    public var lastSelfCheck: Date?
    /// Paused by `searchlight pause`: events are queued, nothing is processed.
    public var paused: Bool
    /// Why the watch backs off (pressure, battery), when it does.
    public var backoff: String?

    /// The health a watcher writes with its domain's state each time it changes.
    public init(pid: Int32, running: Bool, updated: Date, watchesUsed: Int, watchLimit: Int?,
                degradedSubtrees: [String], overflows: Int, pendingChanges: Int,
                selfCheckRepairs: Int? = nil, lastSelfCheck: Date? = nil, paused: Bool = false,
                backoff: String? = nil) {
        self.pid = pid
        self.running = running
        self.updated = updated
        self.watchesUsed = watchesUsed
        self.watchLimit = watchLimit
        self.degradedSubtrees = degradedSubtrees
        self.overflows = overflows
        self.pendingChanges = pendingChanges
        self.selfCheckRepairs = selfCheckRepairs
        self.lastSelfCheck = lastSelfCheck
        self.paused = paused
        self.backoff = backoff
    }

    private enum CodingKeys: String, CodingKey {
        case pid, running, updated, watchesUsed, watchLimit, degradedSubtrees, overflows, pendingChanges
        case selfCheckRepairs, lastSelfCheck, paused, backoff
    }

    /// Decodes a health record; one written before pausing existed is not paused.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        pid = try container.decode(Int32.self, forKey: .pid)
        running = try container.decode(Bool.self, forKey: .running)
        updated = try container.decode(Date.self, forKey: .updated)
        watchesUsed = try container.decode(Int.self, forKey: .watchesUsed)
        watchLimit = try container.decodeIfPresent(Int.self, forKey: .watchLimit)
        degradedSubtrees = try container.decode([String].self, forKey: .degradedSubtrees)
        overflows = try container.decode(Int.self, forKey: .overflows)
        pendingChanges = try container.decode(Int.self, forKey: .pendingChanges)
        selfCheckRepairs = try container.decodeIfPresent(Int.self, forKey: .selfCheckRepairs)
        lastSelfCheck = try container.decodeIfPresent(Date.self, forKey: .lastSelfCheck)
        paused = try container.decodeIfPresent(Bool.self, forKey: .paused) ?? false
        backoff = try container.decodeIfPresent(String.self, forKey: .backoff)
    }
}
