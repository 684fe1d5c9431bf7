/// What one reconcile of a root did.
public struct ScanSummary: Sendable, Codable, Equatable {
    /// Files indexed for the first time.
    public var added = 0
    /// Files re-inspected because they changed.
    public var updated = 0
    /// Items removed because their files are gone.
    public var removed = 0
    /// Files skipped because their size, times and inode are as indexed.
    public var unchanged = 0
    /// Files and folders that could not be read or identified.
    public var failed = 0
    /// Wall-clock duration.
    public var seconds = 0.0
    /// Whether the reconcile was stopped before it finished.
    public var interrupted = false

    public init() {}

    /// Files seen by the walk so far.
    public var walked: Int { added + updated + unchanged }
}

extension ScanSummary {
    /// Adds the counts and time of another reconcile to these.
    public mutating func add(_ other: ScanSummary) {
        added += other.added
        updated += other.updated
        removed += other.removed
        unchanged += other.unchanged
        failed += other.failed
        seconds += other.seconds
        interrupted = interrupted || other.interrupted
    }

    /// `3 added, 1 updated, 0 removed, 12 unchanged, 0 failed`.
    public var counts: String {
        "\(added) added, \(updated) updated, \(removed) removed, \(unchanged) unchanged, \(failed) failed"
    }
}
