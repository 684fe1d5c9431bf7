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
