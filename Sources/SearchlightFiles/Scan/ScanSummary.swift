import ExtractionProtocol
import Logging
import Searchlight

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
    /// Files and folders that could not be read: not indexed at all.
    public var failed = 0
    /// Files indexed without a preview or text: their contents could not be decoded.
    public var withoutPreview = 0
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
        withoutPreview += other.withoutPreview
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
    private enum CodingKeys: String, CodingKey {
        case added, updated, removed, unchanged, failed, withoutPreview, seconds, interrupted
    }

    /// Decodes a summary; one stored before ``withoutPreview`` existed has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        added = try container.decode(Int.self, forKey: .added)
        updated = try container.decode(Int.self, forKey: .updated)
        removed = try container.decode(Int.self, forKey: .removed)
        unchanged = try container.decode(Int.self, forKey: .unchanged)
        failed = try container.decode(Int.self, forKey: .failed)
        withoutPreview = try container.decodeIfPresent(Int.self, forKey: .withoutPreview) ?? 0
        seconds = try container.decode(Double.self, forKey: .seconds)
        interrupted = try container.decode(Bool.self, forKey: .interrupted)
    }
}
