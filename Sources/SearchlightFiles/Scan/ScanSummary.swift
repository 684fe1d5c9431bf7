import ExtractionProtocol
import Logging
import Searchlight

/// What one reconcile or one window did, counted: what the write path (steps ② to ④) gives
/// back to a watcher or a scan.
///
/// `searchlight scan` prints it (``counts``) and stores it as the domain's last scan
/// (``DomainState/lastScan``), whose ``walked`` the next scan's progress bar takes as its
/// estimate; a watcher adds up its windows' summaries. It codes with the names of
/// ``counters``, the names of `scan --json`.
///
/// ```swift
/// let summary = try scanner.reconcile()
/// print(summary.counts + String(format: " in %.2f s", summary.seconds))
/// // 3 added, 1 updated, 0 removed, 12 unchanged, 0 failed in 0.12 s
/// ```
public struct ScanSummary: Sendable, Codable, Equatable {
    /// Files indexed for the first time.
    public var added = 0
    /// Files re-inspected because they changed.
    public var updated = 0
    /// Items removed because their files are gone.
    public var removed = 0
    /// Files skipped because their size, times and inode are as indexed.
    public var unchanged = 0
    /// Files and folders that could not be read: not indexed at all.
    public var failed = 0
    /// Files indexed without a preview or text: their contents could not be decoded.
    public var withoutPreview = 0
    /// Wall-clock duration.
    public var seconds = 0.0
    /// Whether the reconcile was stopped before it finished.
    public var interrupted = false

    /// A scan that has done nothing yet.
    public init() {}

    /// Files seen by the walk so far.
    public var walked: Int { added + updated + unchanged }
}

extension ScanSummary {
    /// The counts by the names `scan --json` and the stored summary give them: the one list
    /// that adding, coding and printing summaries go through.
    public static var counters: [(name: String, keyPath: WritableKeyPath<ScanSummary, Int>)] {
        [("added", \.added), ("updated", \.updated), ("removed", \.removed),
         ("unchanged", \.unchanged), ("failed", \.failed), ("withoutPreview", \.withoutPreview)]
    }

    /// Adds the counts and time of another reconcile to these.
    ///
    /// - Parameter other: Another run's summary; an interrupted one makes this one interrupted.
    public mutating func add(_ other: ScanSummary) {
        for counter in Self.counters { self[keyPath: counter.keyPath] += other[keyPath: counter.keyPath] }
        seconds += other.seconds
        interrupted = interrupted || other.interrupted
    }

    /// `3 added, 1 updated, 0 removed, 12 unchanged, 0 failed` (and `, 2 without a preview` when some are).
    public var counts: String {
        var text = "\(added) added, \(updated) updated, \(removed) removed, \(unchanged) unchanged, \(failed) failed"
        if withoutPreview > 0 { text += ", \(withoutPreview) without a preview" }
        return text
    }

    /// Counts an item's failure: a file that could not be read is a failure, with a warning
    /// (the user can act on it); one indexed without a preview is only counted, and logged at
    /// debug level (`-v`).
    mutating func count(_ failure: ExtractionFailure, of path: ItemIdentifier, logger: Logger) {
        if failure.isIndexed {
            withoutPreview += 1
            logger.debug("indexed \(path.lossyString.debugDescription) without a preview: \(failure.reason.label): \(failure.message)")
        } else {
            failed += 1
            logger.warning("cannot read \(path.lossyString.debugDescription): \(failure.message)")
        }
    }
}

extension ScanSummary {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.init(stringValue) }
        init?(intValue: Int) { nil }
    }

    /// Decodes a summary; a count it lacks (``withoutPreview``, stored before it existed) is 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        for counter in Self.counters {
            self[keyPath: counter.keyPath] = try container.decodeIfPresent(Int.self, forKey: Key(counter.name)) ?? 0
        }
        seconds = try container.decode(Double.self, forKey: Key("seconds"))
        interrupted = try container.decode(Bool.self, forKey: Key("interrupted"))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for counter in Self.counters { try container.encode(self[keyPath: counter.keyPath], forKey: Key(counter.name)) }
        try container.encode(seconds, forKey: Key("seconds"))
        try container.encode(interrupted, forKey: Key("interrupted"))
    }
}
