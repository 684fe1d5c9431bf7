import Foundation
import Logging
import Searchlight

// The root's drive going away and coming back (Docs/Contract.md#drives-and-mounts): while it is
// not mounted the watch holds nothing on it, keeps its items (offline) and goes on with the
// other roots; mounted again, at the same place or another, it is watched and caught up.
extension FolderWatcher {
    /// Whether the root's drive is away now.
    ///
    /// True from the moment the watcher finds the drive unmounted (at the start, or when a
    /// mount or unmount wakes it) until it is mounted again and caught up. Reads a lock-protected
    /// field: cheap, and safe from any thread while the watch runs.
    public var isOffline: Bool { state.withLock { $0.offlineSince != nil } }

    /// Ends ``run()`` as a graceful shutdown does (the window in hand is finished): the
    /// watch of a removable drive forgotten while the other roots go on.
    ///
    /// Returns at once; ``run()`` returns once the window in hand is written. Safe from any
    /// thread or task, and more than once. A stopped watcher cannot be run again: its scanner's
    /// stop is for good.
    ///
    /// ```swift
    /// // The drive the root is on is about to be ejected: end its watch only.
    /// watcher.stop()
    /// ```
    public func stop() {
        inbox.requestStop()
        scanner.stop()
    }

    /// Looks at the mount table: goes offline when the root's filesystem went away, and
    /// comes back when it is mounted again (caught up by a reconcile). Runs between windows.
    ///
    /// Blocks: it reads the mount table and the domain's stored volume, and, when the drive
    /// is back, watches and reconciles the root (``comeBack(at:presence:volume:)``). Called
    /// through ``recovering(_:)`` when a mount or unmount wakes the loop.
    ///
    /// The drive is found by ``VolumePresence/locate(path:recorded:)`` from the volume the domain
    /// recorded (none when the record cannot be read). An online root whose drive is mounted at
    /// its path, on its device, is left as it is. Otherwise the root comes back where the drive
    /// is mounted; an online one (mounted elsewhere, or unmounted and mounted again between two
    /// looks) goes offline first, its old watches forgotten, and is watched anew.
    ///
    /// - Returns: Whether the root is online.
    /// - Throws: The errors of watching and reconciling the root when it comes back.
    @discardableResult
    func checkDrive() throws -> Bool {
        let recorded = ((try? index.domainState(options.scan.domain)) ?? nil)?.volume
        let path = root.path
        let presence = VolumePresence.locate(path: path, recorded: recorded)
        switch presence {
        case .absent:
            if !isOffline { goOffline() }
            return false
        case .mounted(let mounted, let volume):
            let folder = try? RootFolder(path: mounted)
            // Its drive where it was and the folder not: the folder was deleted or moved away
            // (as ``run()`` tells it), not a drive unmounted and mounted again. A mount elsewhere
            // waking the look just as the root moved once took it for one, and the root's items
            // were shown offline.
            if !isOffline, mounted == path, folder == nil, !state.withLock({ $0.isRemote }) {
                throw FileSystemError.rootGone(path)
            }
            let sameMount = mounted == path && folder?.device == root.device
            if !isOffline && sameMount { return true }
            if !isOffline {
                // Unmounted and mounted again between two looks: caught up all the same.
                goOffline()
            }
            try comeBack(at: mounted, presence: presence, volume: volume)
            return true
        }
    }

    /// Forgets every watch of the root (the kernel removed them with the filesystem) and
    /// records the root offline; its items stay.
    ///
    /// Pending events are dropped: they name paths of a filesystem that is gone, and the
    /// reconcile at the drive's return finds whatever changed. The time the drive went away is
    /// recorded in the domain's state (the index's record of the volume, when it can be
    /// written), so that `status` shows it even after a restart.
    ///
    /// Never throws: when the absence cannot be recorded, the watch is offline since now; the
    /// domain's item count in the notice is read from the index's statistics (0 when it cannot
    /// be). Also empties the degraded folders: the reconcile at the drive's return finds them again.
    func goOffline() {
        let watches = state.withLock { state in
            defer {
                state.table = WatchTable()
                state.rootWatch = .none
                state.degraded = []
            }
            return state.table.entries.map(\.watch)
        }
        for watch in watches { try? inotify.removeWatch(watch, for: subscriber) }
        _ = inbox.drain()
        let since = (try? index.record(.absent, root: root.path, domain: options.scan.domain)) ?? nil ?? Date()
        state.withLock { $0.offlineSince = since }
        writeHealth(running: true)
        let items = (try? index.statistics().domains.first { $0.name == options.scan.domain }?.itemCount) ?? nil
        logger.notice("""
            \(root.path) is not connected (its drive is not mounted): its \(items ?? 0) items are kept, shown \
            offline, and caught up when it is mounted again
            """)
        notifier.notify("STATUS=\(root.path) not connected")
    }

    /// Watches the root again where its drive is mounted now and reconciles it: what did not
    /// change is not read again.
    ///
    /// The drive may come back at another mount point: the root is relocated there, and its
    /// items keep their identifiers (paths relative to the root).
    ///
    /// Only the root's watch is added here; the reconcile watches every folder below it before
    /// listing it (``reconcileWatched(subtree:recording:)``). The root counts as online as soon
    /// as its watch is in the table, before the reconcile ends.
    ///
    /// - Parameters:
    ///   - path: Where the root is now.
    ///   - presence: What ``VolumePresence/locate(path:recorded:)`` found, recorded in the index.
    ///   - volume: The mounted volume, named in the log.
    /// - Throws: The errors of relocating, watching and reconciling the root, or of the index.
    func comeBack(at path: String, presence: VolumePresence, volume: VolumeIdentity) throws {
        try root.relocate(to: path)
        let rootWatch = try inotify.addWatch(pathBytes: Array(root.path.utf8), for: subscriber)
        state.withLock { state in
            state.rootWatch = rootWatch
            _ = state.table.insert(rootWatch, path: [])
            state.offlineSince = nil
        }
        try index.record(presence, root: root.path, domain: options.scan.domain)
        let summary = try reconcileWatched().summary
        saveLastScan(summary)
        writeHealth(running: true)
        logger.notice("\(root.path) is connected again (\(volume.name)): caught up: \(summary.counts)")
        notifier.notify("STATUS=watching \(root.path) (\(watchCount) folders)")
    }
}

extension FolderWatcher {
    /// Before the first reconcile: finds the root's drive where it is mounted now (moving
    /// the root there), or records it offline.
    ///
    /// Also tells whether the root is on a network or FUSE filesystem, which the watcher then
    /// reconciles every ``Options/rescanInterval`` and whose server it asks while working
    /// (``askingServerMeanwhile(_:)``). Blocks.
    ///
    /// A root made offline (``RootFolder/init(offline:)``, device 0) is relocated even at the
    /// same path, so that its device is read; so is one whose drive is mounted elsewhere now.
    ///
    /// - Returns: Whether the root is online.
    /// - Throws: The errors of relocating the root or of recording its volume in the index.
    func placeRoot() throws -> Bool {
        let presence = index.presence(ofRoot: root.path, domain: options.scan.domain)
        switch presence {
        case .absent:
            goOffline()
            return false
        case .mounted(let path, let volume):
            if path != root.path || root.device == 0 { try root.relocate(to: path) }
            try index.record(presence, root: root.path, domain: options.scan.domain)
            state.withLock { $0.isRemote = volume.isRemote }
            if volume.isRemote {
                logger.notice("""
                    \(root.path) is on a network or FUSE filesystem (\(volume.fileSystem)): changes made elsewhere \
                    are found by a reconcile every \(options.rescanInterval)
                    """)
            }
            return true
        }
    }
}

extension FolderWatcher {
    /// Runs `work`, which touches the root; on a network or FUSE root its server is asked
    /// meanwhile, every deadline, off the work's thread (``remoteRootAnswers()``): a server that
    /// stops answering during a window or a reconcile (whose call then waits for it) is marked
    /// unreachable at once, not only when the next window asks first.
    ///
    /// On a local root it only runs `work`. The asking task is detached and cancelled when
    /// `work` returns or throws.
    ///
    /// - Parameter work: The window, reconcile or check to run.
    /// - Throws: What `work` throws.
    func askingServerMeanwhile(_ work: () async throws -> Void) async throws {
        guard state.withLock({ $0.isRemote }) else { return try await work() }
        let asking = Task.detached { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: options.reachabilityDeadline)
                if Task.isCancelled { return }
                _ = try? await Self.blocking { self.remoteRootAnswers() }
            }
        }
        defer { asking.cancel() }
        try await work()
    }

    /// Whether the server of this network or FUSE root answers within the deadline; records
    /// when it stops and starts answering (`status` shows it). Blocks up to the deadline.
    ///
    /// The time it stopped answering is the first failed ask's, kept while asks fail; a later
    /// failure changes nothing, and the first answer clears it.
    ///
    /// The probe runs on a thread of the ``probe``'s own, so a hung server blocks it, not the
    /// caller, beyond the deadline. A change (stopped or started answering) is logged once and
    /// written to the domain's state.
    func remoteRootAnswers() -> Bool {
        let answers = probe.answers(root.path, within: options.reachabilityDeadline)
        let changed = state.withLock { state -> Bool in
            if answers {
                defer { state.unreachableSince = nil }
                return state.unreachableSince != nil
            }
            if state.unreachableSince != nil { return false }
            state.unreachableSince = Date()
            return true
        }
        guard changed else { return answers }
        let since = state.withLock { $0.unreachableSince }
        updateState { $0.unreachableSince = since }
        if answers {
            logger.notice("\(root.path) answers again")
        } else {
            logger.warning("""
                \(root.path) does not answer (its server stopped responding within \(options.reachabilityDeadline)): \
                left alone, the other roots go on; asked again every \(options.rescanInterval)
                """)
        }
        return answers
    }
}
