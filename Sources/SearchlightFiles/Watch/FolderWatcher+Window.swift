import Foundation
import Logging
import Searchlight
import Synchronization

// One window of events: coalesced, structural changes and crawls applied in one transaction.
extension FolderWatcher {
    /// Applies one window of events. Runs on a thread of its own, never on the cooperative pool.
    /// With `reconcile`, the whole root is reconciled instead of the window's changes being
    /// applied: a window before it was not written (see ``recovering(_:)``).
    ///
    /// In order:
    /// 1. the events are coalesced (``PendingChanges``) under the state's lock, which keeps the
    ///    table of watches in step with the moves they report; folders whose ignore file
    ///    changed are noted;
    /// 2. folders moved into a new folder not watched yet are found there by their watch
    ///    (``adoptMovedFolders(_:)``); one that cannot be found asks for a self-check;
    /// 3. moves whose other half never came become deletions, and their watches are removed;
    /// 4. a root that went away ends the window: offline when its drive was unmounted, else
    ///    ``FileSystemError/rootGone(_:)`` ends the watch;
    /// 5. the window is written: after an overflow the root is reconciled (a counted self-check),
    ///    with `reconcile` likewise but uncounted, else ``commit(_:)`` writes it in one
    ///    transaction and the folders whose ignore file changed are reconciled;
    /// 6. with `rescanDegraded`, the folders that could not be watched are rescanned.
    ///
    /// The log gets the window's coalesced changes and its counts at debug level, and systemd a
    /// `STATUS=` line as the window starts and ends. An overflow is counted (``overflowCount``)
    /// and warned about.
    ///
    /// - Throws: ``SearchlightError`` when the index cannot be written (the recovery retries),
    ///   ``FileSystemError`` when the root is gone.
    /// - Parameters:
    ///   - events: The window's events, in the order the kernel reported them.
    ///   - rescanDegraded: Whether the periodic rescan of unwatched folders is due.
    ///   - rootWatch: The root's watch descriptor when the events were read; a root watched again
    ///     since (its drive came back) is told apart by it.
    ///   - reconcile: Whether an earlier window failed to be written.
    func process(_ events: [InotifyEvent], rescanDegraded: Bool, rootWatch: WatchDescriptor, reconcile: Bool = false) throws {
        var changes = PendingChanges(domain: options.scan.domain, rootWatch: rootWatch, excluded: options.scan.walk.excluded,
                                     includeHidden: options.scan.walk.includeHidden, followsFolderAccess: index.isShared)
        // Folders whose ignore file changed: their subtrees are judged again.
        var ignoreFolders: Set<ItemIdentifier> = []
        state.withLock { state in
            for event in events {
                changes.add(event, table: &state.table)
                if event.name.elementsEqual(ExclusionRules.ignoreFileName.utf8), let folder = state.table.path(for: event.watch) {
                    ignoreFolders.insert(ItemIdentifier(bytes: folder))
                }
            }
        }
        if !changes.unpairedFolders.isEmpty && !changes.crawl.isEmpty {
            adoptMovedFolders(&changes)
            // Moved into a folder too new to be watched, and not found there: moved out of
            // the root, or somewhere the walk missed. Check once things are quiet.
            if !changes.unpairedFolders.isEmpty {
                inbox.requestSelfCheck(reason: "a folder moved where it could not be followed")
            }
        }
        let stale = state.withLock { changes.resolveUnpairedMoves(table: &$0.table) }
        logger.debug("window of \(events.count) events: \(changes)")
        for watch in stale { try? inotify.removeWatch(watch, for: subscriber) }
        if changes.rootGone {
            // Its drive unmounted (or mounted again elsewhere): offline, not gone.
            let recorded = ((try? index.domainState(options.scan.domain)) ?? nil)?.volume
            if recorded.map({ !$0.isSystemRoot }) ?? false, try !checkDrive() || state.withLock({ $0.rootWatch }) != rootWatch {
                return
            }
            throw FileSystemError.rootGone(root.path)
        }
        notifier.notify("STATUS=indexing \(events.count) changes")
        WindowCrashPoint.coalesced.reach(logger: logger, window: "(\(events.count) events: \(changes))")
        var summary = ScanSummary()
        if changes.overflowed {
            logger.warning("""
                the inotify event queue overflowed (raise fs.inotify.max_queued_events); \
                reconciling \(root.path) so that nothing is lost
                """)
            state.withLock { $0.overflows += 1 }
            summary = try selfCheck(reason: "the event queue overflowed", afterOverflow: true)
            if reconcile { reconciled() }
        } else if reconcile {
            // Its repairs are the changes that waited: expected, not counted.
            summary = try selfCheck(reason: "changes waited for the index", counted: false)
            reconciled()
        } else {
            summary = try commit(changes)
            for folder in Self.outermost(ignoreFolders) {
                summary.add(try reconcileWatched(subtree: folder).summary)
            }
        }
        WindowCrashPoint.committed.reach(logger: logger, window: "(\(events.count) events, reconcile \(reconcile), overflow \(changes.overflowed))")
        if rescanDegraded { summary.add(try rescanUnwatched()) }
        logger.debug("\(events.count) events: \(summary.counts)")
        notifier.notify("STATUS=watching \(root.path) (\(watchCount) folders)")
    }

    /// Finds folders that moved away into a new, not yet watched folder: inotify reports only
    /// the move's first half, but watching the new folders hands back the moved folder's own
    /// watch descriptor (a watch belongs to an inode).
    ///
    /// The new folders are walked (watching each as it is met) until every moved folder is
    /// found or the walk ends; a found one is re-keyed in the table, with its subtree.
    ///
    /// Costs a walk of the new folders until the last moved one is found; each folder met is
    /// watched on the way, which the window's commit would do anyway.
    ///
    /// Never throws: a folder that cannot be watched is passed over, and an error of the walk
    /// ends the search as finding the last one does. The folders still not found stay unpaired
    /// in `changes`, which the caller then takes as moved away.
    ///
    /// - Parameter changes: The window's coalesced changes; found moves are recorded in them.
    func adoptMovedFolders(_ changes: inout PendingChanges) {
        var wanted: [WatchDescriptor: ItemIdentifier] = state.withLock { state in
            var watches: [WatchDescriptor: ItemIdentifier] = [:]
            for folder in changes.unpairedFolders {
                if let watch = state.table.watch(forPath: folder.bytes) { watches[watch] = folder }
            }
            return watches
        }
        struct AllFound: Error {}
        func check(_ path: ItemIdentifier) throws {
            guard let watch = try? inotify.addWatch(pathBytes: root.absolutePath(of: path), for: subscriber) else { return }
            if let old = wanted.removeValue(forKey: watch) {
                logger.debug("\(old.lossyString) moved to \(path.lossyString)")
                state.withLock { changes.adoptMove(from: old, to: path, table: &$0.table) }
            } else {
                state.withLock { _ = $0.table.insert(watch, path: path.bytes) }
            }
            if wanted.isEmpty { throw AllFound() }
        }
        let walker = DirectoryWalker(root: root, options: options.scan.walk)
        for folder in Self.outermost(changes.crawl) where !wanted.isEmpty {
            do {
                try check(folder)
                try walker.walk(from: folder) { event in
                    if case .directory(let path, _) = event { try check(path) }
                }
            } catch {
                break
            }
        }
    }

    /// The folders of `folders` that are not below another one of them.
    ///
    /// Each folder costs one set look-up per folder above it, then the result is sorted.
    ///
    /// - Returns: The outermost folders, in byte order.
    static func outermost(_ folders: Set<ItemIdentifier>) -> [ItemIdentifier] {
        folders.filter { !PendingChanges.hasAncestor($0, in: folders) }.sorted()
    }

    /// Applies a window: its moves and deletes, the deletion of items where folders now stand,
    /// the walks of new folders (watching them first), the refreshes of changed files and the
    /// watch's health, in one transaction. Extraction happens before it.
    ///
    /// Makes the window's ``ChangeSet`` (step ②), watches every folder of its new subtrees, and
    /// hands it to the scanner, which takes it through its ``IndexingPipeline`` (③) into one
    /// write (④) and says what happened (a ``ScanReport``: its counts, and what it saw of
    /// hard-linked files, which the watcher then keeps).
    ///
    /// Each path the events name is looked at once (`statx`) and handled as what it is now:
    /// a folder is walked, anything else refreshed. The other names of a hard-linked file that
    /// changed are refreshed with it. On a file system whose inodes or times are not stable
    /// (FAT, exFAT, FUSE), the files the events name are inspected again whatever their stamps.
    ///
    /// - Parameter changes: The window's coalesced changes.
    /// - Returns: The counts of what was added, updated, unchanged and removed.
    /// - Throws: ``SearchlightError`` when the index cannot be written: nothing of the window is
    ///   written then, and the recovery reconciles the root later.
    func commit(_ changes: PendingChanges) throws -> ScanSummary {
        // What a path is now decides how it is handled, not what the events said it was:
        // a folder may have become a file (or vanished) since. Each path is looked at once.
        var statuses: [ItemIdentifier: FileStatus?] = [:]
        func isDirectory(_ path: ItemIdentifier) -> Bool {
            let status = try? root.status(of: path)
            statuses[path] = .some(status)
            return status?.kind == .directory
        }
        var crawl: Set<ItemIdentifier> = []
        var files: Set<ItemIdentifier> = []
        for path in changes.crawl {
            if isDirectory(path) { crawl.insert(path) } else { files.insert(path) }
        }
        for path in listedNames(of: changes.refresh) where !PendingChanges.isPath(path, inSubtreeOfAnyOf: crawl) {
            if isDirectory(path) { crawl.insert(path) } else { files.insert(path) }
        }
        // A hard-linked file changed through one name has changed under its others too.
        files = withOtherNames(files, structure: changes.batch.changes, statuses: statuses)
        // Only the outermost folders: a walk covers what is below it.
        let folders = Self.outermost(crawl)
        var changeSet = ChangeSet(subtrees: folders, files: files.filter { !PendingChanges.isPath($0, inSubtreeOfAnyOf: crawl) }.sorted())
        changeSet.structure = changes.batch.changes
        // A file that stood where one of these folders now stands is gone.
        changeSet.structure += folders.map { .delete(domain: options.scan.domain, identifier: $0) }
        changeSet.statuses = statuses
        // FAT keeps times to 2 s (exFAT to 10 ms, FUSE filesystems to what their server keeps): two
        // writes of one size within that leave the same stamp, and the second would be missed.
        // What an event names there is inspected again; a reconcile still trusts stamps.
        if FileStatus.hasUnstableInodes(device: root.device) { changeSet.reinspected = files }
        // Every folder the scanner will list is watched first: what is made in it afterwards
        // has an event of its own.
        for folder in folders {
            watchDirectory(folder)
            watchFolders(below: folder)
        }
        // The watch's health, with the watches just added, lands with the window.
        changeSet.states = [options.scan.domain: domainState { $0.watch = health(running: true) }]
        var summary = try scanned { try scanner.update(changeSet, records: $0) }.summary
        summary.add(try refreshOtherNames(besides: files, walked: folders))
        return summary
    }
}
