import Foundation
import Logging
import Searchlight
import Synchronization

// The walk: the tree, merged in byte order with the index's identifiers (or compared path by
// path against it), becomes jobs for the inspectors and findings for the writer.
extension FolderScanner {
    /// A file for the inspectors.
    ///
    /// Made on the walking thread, queued to an inspector thread (``inspect(_:with:results:)``):
    /// a small value, copied across threads.
    struct Job: Sendable {
        /// The file's path relative to the root, as its item's identifier.
        var path: ItemIdentifier
        /// Whether the index holds an item for it (so a vanished file must be deleted).
        var isIndexed: Bool
        /// The index's stamp of the file when only its change time moved since
        /// (``FileStatus/differsOnlyInChangeTime(from:)``: `setfattr`, `chmod`): if that still
        /// holds when the job runs, the file's user attributes are read again, its content is not.
        var contentStamp: [UInt8]? = nil

        /// A job for `path`; the cheap path (user attributes only) is chosen here when `status`
        /// differs from the `stored` stamp by the change time alone.
        ///
        /// - Parameters:
        ///   - path: The file's path relative to the root.
        ///   - isIndexed: Whether the index holds an item for it.
        ///   - status: The file's status as the walk or a `stat` saw it.
        ///   - stored: The index's change stamp of the file, when there is one.
        init(path: ItemIdentifier, isIndexed: Bool, status: FileStatus? = nil, stored: [UInt8]? = nil) {
            self.path = path
            self.isIndexed = isIndexed
            if let status, status.differsOnlyInChangeTime(from: stored) { contentStamp = stored }
        }
    }

    /// What the walker and the inspectors hand to the writer.
    ///
    /// The writer (``write(results:into:records:progress:changes:draining:)``) turns each into a
    /// change of the batch and a count of the report; the order in which they arrive is the
    /// order of the batch.
    enum Finding: Sendable {
        /// This many files were found as indexed.
        case unchanged(Int)
        /// An item to write: a new file (`isNew`) or a changed one, inspected and extracted.
        case upsert(SearchableItem, isNew: Bool)
        /// An indexed file that is gone, or that the inspection found vanished or secret.
        case delete(ItemIdentifier)
        /// A path that is no longer a file: its item and everything indexed below it go.
        case deleteTree(ItemIdentifier)
        /// An indexed file whose content did not change: its user attributes as read now,
        /// whether they differ from the indexed ones, and its new stamp.
        case userAttributes(ItemIdentifier, UserAttributes, FileAccess, changeStamp: [UInt8], changed: Bool)
        /// A file or folder that could not be looked at, and why; its items are kept as they are.
        case unreadable(ItemIdentifier, String)
        /// Who may pass through a folder (recorded by a shared index only).
        case folderAccess(IndexBatch.FolderAccessKey, FileAccess)
        /// What the walk saw at a name of a hard-linked file, for the report (only when asked:
        /// ``ScanReport/Records/hardLinks``).
        case linkSighting(ScanReport.LinkSighting)
        /// An error that ends the scan: the writer throws it.
        case fatal(any Error)
    }

    /// Walks `subtree` and merges it with the index's identifiers below it (or `view`'s): new
    /// and changed files become jobs, vanished ones deletions. With `recordsLinks`, each regular
    /// file with more than one name is a ``Finding/linkSighting(_:)``.
    ///
    /// Runs on the producing thread. The walk and the index are both in byte order, so they are
    /// merged like two sorted lists, in constant memory: the index's side is read a page at a
    /// time (``IndexStampCursor``). An unchanged file costs the walk's `stat` and a comparison
    /// of stamps, nothing else. What the index holds below an unreadable folder is kept.
    ///
    /// The index's items left after the walk's last file are deleted only when the walk ran to
    /// its end: stopped (``isStopping``, or `submit` refusing a job), it returns at once, and
    /// what it did not reach is not taken as gone. Unchanged files are counted in batches
    /// (``UnchangedTally``), the last one handed over however the walk ends.
    ///
    /// On a shared index (``FileIndexReader/isShared``) the walker reads each folder's owner,
    /// mode and ACL too, each a ``Finding/folderAccess(_:_:)``.
    ///
    /// - Parameters:
    ///   - subtree: The folder to walk, relative to the root (empty: the whole root).
    ///   - view: A watch window's view of the index with its pending changes, when they are
    ///     not written yet; `nil` reads the index itself.
    ///   - onDirectory: Called with each folder met, for progress.
    ///   - recordsLinks: Whether to report each file with more than one name.
    ///   - submit: Hands a job to the inspectors; `false` stops the walk.
    ///   - results: Where deletions, unchanged counts and other findings go.
    /// - Throws: The index's errors when its side cannot be read, and the walker's errors other
    ///   than an unreadable folder (which is a finding).
    func walkAndMerge(_ subtree: ItemIdentifier, view: PendingIndexView?,
                      onDirectory: (@Sendable (ItemIdentifier) -> Void)?, recordsLinks: Bool,
                      submit: Submit, results: BlockingQueue<Finding>) throws {
        var indexed = if let view, !view.changes.isEmpty {
            IndexStampCursor(index: index, domain: options.domain, entries: try view.entries(below: subtree))
        } else {
            try IndexStampCursor(index: index, domain: options.domain, below: subtree)
        }
        var unchanged = UnchangedTally(results: results)
        defer { unchanged.handOver() }
        var walk = options.walk
        walk.reportsFolderAccess = index.isShared
        let walker = DirectoryWalker(root: root, options: walk)
        struct Stopped: Error {}
        // Items before `path` in byte order that the walk did not meet are gone.
        func deleteIndexed(before path: ItemIdentifier) throws {
            while let head = try indexed.peek(), head.identifier < path {
                results.put(.delete(head.identifier))
                indexed.advance()
            }
        }
        do {
            try walker.walk(from: subtree) { event in
                if isStopping { throw Stopped() }
                switch event {
                case .directory(let path, _):
                    // For progress only: a watcher watched every folder before this walk began
                    // (``FolderWatcher/watchFolders(below:)``).
                    onDirectory?(path)
                case .folderAccess(let path, let access):
                    results.put(.folderAccess(.inside(path), access))
                case .file(let path, let status):
                    try deleteIndexed(before: path)
                    if let head = try indexed.peek(), head.identifier == path {
                        indexed.advance()
                        let isUnchanged = status.hasChangeStamp(head.changeStamp)
                        if recordsLinks && status.linkCount > 1 {
                            results.put(.linkSighting(.init(path: path, status: status, changed: !isUnchanged)))
                        }
                        if isUnchanged {
                            unchanged.add()
                            return
                        }
                        if !submit(Job(path: path, isIndexed: true, status: status, stored: head.changeStamp)) { throw Stopped() }
                    } else {
                        if recordsLinks && status.linkCount > 1 {
                            results.put(.linkSighting(.init(path: path, status: status, changed: true)))
                        }
                        if !submit(Job(path: path, isIndexed: false)) { throw Stopped() }
                    }
                case .unreadable(let path, let error):
                    logger.warning("cannot read \(error.description); its items are kept as they are")
                    results.put(.unreadable(path, error.description))
                    try deleteIndexed(before: path)
                    // Keep what the index knows below an unreadable folder: we cannot see it.
                    while let head = try indexed.peek(), head.identifier.isInSubtree(at: path) {
                        indexed.advance()
                    }
                }
            }
        } catch is Stopped {
            return
        }
        if isStopping { return }
        while let head = try indexed.peek() {
            results.put(.delete(head.identifier))
            indexed.advance()
        }
    }

    /// Counts unchanged files and hands them to the writer a few thousand at a time: a
    /// rescan's files are nearly all unchanged, and one queue hand-over (a lock and a wake-up)
    /// each cost more than the comparison.
    struct UnchangedTally {
        /// How many unchanged files are counted before the count is handed to the writer.
        static let handOverCount = 4096
        /// The writer's queue, shared with the walk's other findings: a count handed over lands
        /// between them, in the order it was made.
        let results: BlockingQueue<Finding>
        /// Unchanged files counted since the last hand-over.
        private var count = 0

        /// A tally with nothing counted, handing its counts to `results`.
        init(results: BlockingQueue<Finding>) { self.results = results }

        /// Counts one unchanged file, handing the count over once it reaches ``handOverCount``.
        mutating func add() {
            count += 1
            if count >= Self.handOverCount { handOver() }
        }

        /// Hands what was counted to the writer as one ``Finding/unchanged(_:)``, if anything was;
        /// the tally's owner calls it once more at the end (a `defer`).
        mutating func handOver() {
            guard count > 0 else { return }
            results.put(.unchanged(count))
            count = 0
        }
    }

    /// Paths whose change stamps are looked up in one read.
    ///
    /// Large enough that a window of many changed files costs a few reads of the index, small
    /// enough that one read's statement stays short.
    static let lookupBatchSize = 512

    /// Compares `paths` with the index, a batch of ``lookupBatchSize`` at a time.
    ///
    /// For the paths a watch window names (no walk): each path is looked at with one `stat`,
    /// unless `known` has its status already. Stops early when the scan is stopping.
    ///
    /// Stopped (the scan stopping, or `submit` refusing a job), it returns without an error; the
    /// paths of the batches not reached are left as the index has them.
    ///
    /// - Parameters:
    ///   - paths: The paths to compare, relative to the root.
    ///   - view: A watch window's view of the index with its pending changes, or `nil`.
    ///   - known: Statuses already read (`nil` values: known to be gone).
    ///   - reinspected: Paths to inspect whatever their stamps.
    ///   - recordsLinks: Whether to report what is seen at each path, for hard links.
    ///   - submit: Hands a job to the inspectors; `false` stops the comparison.
    ///   - results: Where the findings go.
    /// - Throws: The index's errors when stamps cannot be read.
    func statAndCompare(_ paths: [ItemIdentifier], view: PendingIndexView?, known: [ItemIdentifier: FileStatus?],
                        reinspected: Set<ItemIdentifier> = [], recordsLinks: Bool,
                        submit: Submit, results: BlockingQueue<Finding>) throws {
        var start = paths.startIndex
        while start < paths.endIndex {
            let end = min(start + Self.lookupBatchSize, paths.endIndex)
            if try !statAndCompare(paths[start..<end], view: view, known: known, reinspected: reinspected,
                                   recordsLinks: recordsLinks, submit: submit, results: results) { return }
            start = end
        }
    }

    /// Compares a batch of paths with the index, looking their stamps up in one read; a file
    /// of `reinspected` is inspected even when its stamp is as indexed. With `recordsLinks`,
    /// what it sees at each path is a ``Finding/linkSighting(_:)``, whatever is there.
    /// Returns `false` when the scan is stopping.
    ///
    /// A path the exclusion rules exclude (a secret, an ignore file's pattern) is treated as
    /// gone, so that an item indexed before the rule existed is removed; a path of
    /// `options.walk.excluded` (the index's own files) is skipped. A path that cannot be looked at is an unreadable
    /// finding, and its item is kept.
    ///
    /// A path that is gone, or is now something other than a regular file, is a
    /// ``Finding/deleteTree(_:)`` when the index holds it (and when it is gone, whether or not
    /// it does): whatever was indexed below it goes too. A folder of a shared index hands its
    /// owner, mode and ACL over, so that a `chmod` of a folder reaches who may pass it.
    ///
    /// - Parameters:
    ///   - paths: One batch, at most ``lookupBatchSize`` paths, relative to the root.
    ///   - view: A watch window's view of the index with its pending changes, or `nil`.
    ///   - known: Statuses already read (`nil` values: known to be gone).
    ///   - reinspected: Paths to inspect whatever their stamps.
    ///   - recordsLinks: Whether to report what is seen at each path, for hard links.
    ///   - submit: Hands a job to the inspectors; `false` stops the comparison.
    ///   - results: Where the findings go.
    /// - Returns: `false` when the scan is stopping or `submit` refused a job.
    /// - Throws: The index's errors when stamps cannot be read.
    func statAndCompare(_ paths: ArraySlice<ItemIdentifier>, view: PendingIndexView?,
                        known: [ItemIdentifier: FileStatus?], reinspected: Set<ItemIdentifier> = [], recordsLinks: Bool,
                        submit: Submit, results: BlockingQueue<Finding>) throws -> Bool {
        var statuses: [(path: ItemIdentifier, status: FileStatus?)] = []
        var exclusions = ExclusionRules.FileJudge(rules: options.walk.exclusions, root: root)
        for path in paths {
            if isStopping { return false }
            if options.walk.excluded.contains(path) { continue }
            // Excluded (a secret, a node_modules, an ignore file's pattern): as if gone, so
            // that an item indexed before the rule goes too.
            if exclusions.excludes(path) {
                statuses.append((path, nil))
                continue
            }
            if let status = known[path] {
                statuses.append((path, status))
                continue
            }
            do {
                statuses.append((path, try root.status(of: path)))
            } catch where error.isNoSuchFile {
                statuses.append((path, nil))
            } catch {
                // Cannot look (a folder on the way is unreadable): keep what the index knows.
                logger.warning("cannot read \(error.description); its item is kept as it is")
                results.put(.unreadable(path, error.description))
            }
        }
        let stamps = try view?.changeStamps(of: statuses.map(\.path))
            ?? index.changeStamps(of: statuses.map(\.path), domain: options.domain)
        var unchanged = UnchangedTally(results: results)
        defer { unchanged.handOver() }
        for (path, status) in statuses {
            let stored = stamps[path]
            if recordsLinks {
                let changed = status.map { !$0.hasChangeStamp(stored ?? nil) } ?? true
                results.put(.linkSighting(.init(path: path, status: status, changed: changed)))
            }
            if let status, status.kind == .directory, index.isShared, let access = try? root.folderAccess(path) {
                // A folder whose owner, mode or ACL changed (the watcher's refresh of it).
                results.put(.folderAccess(.inside(path), access))
            }
            guard let status, status.kind == .regular else {
                // Gone, or no longer a file: its item (and anything once below it) goes.
                if stored != nil || status == nil { results.put(.deleteTree(path)) }
                continue
            }
            if let stored, status.hasChangeStamp(stored), !reinspected.contains(path) {
                unchanged.add()
            } else if !submit(Job(path: path, isIndexed: stored != nil, status: status, stored: stored ?? nil)) {
                return false
            }
        }
        return true
    }
}
