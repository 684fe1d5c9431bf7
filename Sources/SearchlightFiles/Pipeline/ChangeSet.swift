import Searchlight

/// Step ② of the write path, coalesced: what a window of file-system events asks of the index,
/// as one value — its structural changes, the folders to walk and the files to look at again,
/// and the watch's states — that ``FolderScanner/update(_:)`` takes through inspection and
/// extraction (③) into one transaction (④).
///
/// The folders of ``subtrees`` are watched before it is handed over (the watcher walks them
/// first, watching each folder before listing it): what changes in them afterwards has events,
/// and the pipeline calls nothing back.
struct ChangeSet: Sendable {
    /// Structural changes (moves, deletes), written first; the walks and refreshes compare
    /// the disk with the index as these changes leave it.
    var structure: [IndexBatch.Change] = []
    /// Folders walked and reconciled (none below another).
    var subtrees: [ItemIdentifier] = []
    /// Paths brought up to date as after events (see ``FolderScanner/refresh(_:progress:)``);
    /// none in one of ``subtrees``.
    var files: [ItemIdentifier] = []
    /// Files whose status was taken already (`nil`: gone), so they are not taken twice.
    var statuses: [ItemIdentifier: FileStatus?] = [:]
    /// Files inspected even when their stamp is as indexed: the events said they were
    /// written, on a filesystem whose times cannot tell two writes apart (FAT keeps 2 s).
    var reinspected: Set<ItemIdentifier> = []
    /// Domain states written in the same transaction (the watch's bookkeeping).
    var states: [String: DomainState] = [:]
}
