import Foundation
import Logging
import Searchlight
import Synchronization

// Watching folders: a watch per folder, and the folders the watch limit left unwatched.
extension FolderWatcher {
    /// Tries again to watch the folders that could not be, and reconciles them.
    ///
    /// The degraded set is emptied first: a folder that still cannot be watched is put back by
    /// ``watchDirectory(_:)``. Each folder costs a reconcile of its subtree.
    ///
    /// Called by a window when the periodic rescan is due (``Options/rescanInterval``, only
    /// while some folder is degraded). The folders are taken in byte order.
    ///
    /// - Returns: The counts of the reconciles.
    /// - Throws: The reconciles' errors. The folders not reached are no longer marked then; an
    ///   index that cannot be written marks the root for a reconcile (``fail(with:)``), whose
    ///   walk watches them, or marks them again.
    func rescanUnwatched() throws -> ScanSummary {
        let degraded = state.withLock { state in
            defer { state.degraded = [] }
            return state.degraded
        }
        var summary = ScanSummary()
        for folder in degraded.sorted() {
            watchDirectory(folder)
            summary.add(try reconcileWatched(subtree: folder).summary)
        }
        if !degraded.isEmpty {
            logger.info("rescanned \(degraded.count) unwatched folders: \(summary.counts)")
        }
        return summary
    }

    /// Reconciles `subtree` (the whole root when empty) once every folder below it is watched
    /// (``watchFolders(below:)``): the scanner's walk then lists no folder unwatched, and needs
    /// to tell the watcher nothing while it runs. What it did comes back in the report, with
    /// what `records` asks for (a self-check's: each change, its repairs).
    ///
    /// Blocks for the walk that watches the folders, then for the scanner's reconcile.
    ///
    /// - Parameters:
    ///   - subtree: The folder to reconcile, relative to the root.
    ///   - records: What the report should record beyond the counts.
    /// - Returns: The scanner's report.
    /// - Throws: The scanner's errors (the index, the root gone).
    func reconcileWatched(subtree: ItemIdentifier = ItemIdentifier(bytes: []),
                          recording records: ScanReport.Records = []) throws -> ScanReport {
        watchFolders(below: subtree)
        return try scanned(recording: records) { try scanner.reconcile(subtree: subtree, records: $0) }
    }

    /// Watches every folder below `subtree` (the whole root when empty; `subtree` itself is the
    /// caller's), each before it is listed: a folder made in one after its listing has an
    /// event, so the walk of the scanner that follows lists no folder unwatched whose changes
    /// could be lost. The walk skips what the scanner's walk skips; it stops when the watch does.
    ///
    /// Errors of the walk are ignored: a folder that cannot be listed is met again, and reported,
    /// by the scanner's own walk.
    ///
    /// The walk reports folders only (``DirectoryWalker/Options/foldersOnly``): it costs a
    /// listing and an `inotify_add_watch(2)` per folder, and a name `readdir` says is no folder
    /// costs no `statx`.
    ///
    /// - Parameter subtree: The folder whose folders below are watched, relative to the root.
    func watchFolders(below subtree: ItemIdentifier) {
        struct Stopped: Error {}
        var walk = options.scan.walk
        walk.foldersOnly = true
        let walker = DirectoryWalker(root: root, options: walk)
        try? walker.walk(from: subtree) { event in
            if scanner.isStopping { throw Stopped() }
            // Reported before the folder is listed: a watch added here misses nothing.
            if case .directory(let path, _) = event { watchDirectory(path) }
        }
    }

    /// Watches one folder; called before the folder is listed.
    ///
    /// Never throws: a folder that is gone is skipped, one that cannot be watched for another
    /// reason is logged, and one beyond the watch limit (the kernel's or
    /// ``Options/maximumWatches``) is marked degraded; the limit is warned about once per
    /// watcher. A folder below
    /// a degraded one is not tried.
    ///
    /// With ``Options/maximumWatches``, a folder already watched is watched again (its
    /// descriptor is the same) even at the limit; a new one is refused before the kernel is asked.
    ///
    /// - Parameter path: The folder, relative to the root (empty for the root).
    func watchDirectory(_ path: ItemIdentifier) {
        let skip = state.withLock { state in
            state.degraded.contains { PendingChanges.isPath(path, inSubtreeAt: $0) }
                || (options.maximumWatches.map { state.table.count >= $0 } ?? false)
                    && state.table.watch(forPath: path.bytes) == nil
        }
        do {
            if skip { throw WatchLimitReached() }
            let watch = try inotify.addWatch(pathBytes: root.absolutePath(of: path), for: subscriber)
            state.withLock { _ = $0.table.insert(watch, path: path.bytes) }
        } catch let error as FileSystemError where error.isNoSuchFile {
            // Gone already: its parent's events say so.
        } catch let error as FileSystemError where !error.isWatchLimitReached {
            logger.warning("cannot watch \(path.lossyString.debugDescription): \(error)")
        } catch {
            let first = state.withLock { state in
                if !state.degraded.contains(where: { PendingChanges.isPath(path, inSubtreeAt: $0) }) {
                    state.degraded.insert(path)
                }
                defer { state.warnedAboutLimit = true }
                return !state.warnedAboutLimit
            }
            if first {
                logger.warning("""
                    the inotify watch limit (\(watchLimit.map(String.init) ?? "unknown")) is reached: \
                    \(path.lossyString.debugDescription) and other folders are not watched and are rescanned \
                    every \(options.rescanInterval). Raise the limit with \
                    `sudo sysctl fs.inotify.max_user_watches=524288` (and in /etc/sysctl.d/ to keep it)
                    """)
            }
        }
    }

    /// Thrown inside the watching walk when a folder cannot be watched for the limit: the
    /// folder is then marked degraded instead of failing the window.
    fileprivate struct WatchLimitReached: Error {}
}
