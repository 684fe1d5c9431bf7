import Searchlight

/// What one run of the ``FolderScanner`` gives back: its counts, and what its caller asked it
/// to record besides (``Records``).
///
/// The end of the write path's one-way flow: a watcher hands the scanner a change set (or a
/// subtree to reconcile, or paths to refresh) and acts on this once the run has returned; the
/// scanner never calls back into it. Nothing is recorded unless asked for, so that a scan of a
/// large tree keeps its memory flat. A run that throws reports nothing: after a failed write the
/// watcher reconciles the whole root (``FolderWatcher/recovering(_:)``), which sees it all again.
struct ScanReport: Sendable {
    /// What a run records besides its counts.
    struct Records: OptionSet, Sendable {
        let rawValue: Int

        /// Each item the run added, updated, restamped or removed (``changes``): a watcher's
        /// self-check reports them as its repairs.
        static let changes = Records(rawValue: 1 << 0)
        /// What the run saw of the names of hard-linked files (``linkSightings``): a watcher keeps
        /// those names (``HardLinkNames``).
        static let hardLinks = Records(rawValue: 1 << 1)
    }

    /// What a run saw at a path that is, or may have been, a name of a hard-linked file.
    struct LinkSighting: Sendable, Equatable {
        /// The name.
        var path: ItemIdentifier
        /// What is there now (`nil`: nothing).
        var status: FileStatus?
        /// Whether that differs from the index's stamp of it.
        var changed: Bool
    }

    /// The counts.
    var summary = ScanSummary()
    /// With ``Records/changes``: each item the run wrote and what it did to it, in the order
    /// written.
    var changes: [(identifier: ItemIdentifier, change: ScanChange)] = []
    /// With ``Records/hardLinks``, in the order seen: each regular file with more than one name
    /// that a walk met, and each path a refresh looked at (what it no longer names is forgotten).
    var linkSightings: [LinkSighting] = []
}
