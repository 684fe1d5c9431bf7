import Dispatch
import Foundation
import Glibc
import Logging
import Searchlight
import ServiceLifecycle
import Synchronization

/// Keeps a root folder's items in step with the disk: reconciles it once, then follows every
/// change through inotify until shut down.
///
/// Data flows one way: inotify events → a window of coalesced changes (``PendingChanges``) →
/// structural index changes (moves, subtree deletes) in one transaction → crawls of new
/// folders and refreshes of changed files in one run of the ``FolderScanner`` pipeline
/// (libmagic on inspector threads that live as long as the watch, batched writes) →
/// queryable.
///
/// Every folder is watched before it is listed, so nothing created in it can be missed. When
/// the kernel's queue overflows the root is reconciled; when the watch limit is reached the
/// folders that could not be watched are listed in the health (see ``WatchHealth``) and
/// rescanned every ``Options/rescanInterval``. Nothing is silently lost.
public final class FolderWatcher: Service, Sendable {
    /// How the watcher runs.
    public struct Options: Sendable {
        /// The scan underneath: domain, exclusions, threads, batches.
        public var scan: FolderScanner.Options
        /// A window of events is processed after this much quiet...
        public var settleInterval: Duration = .milliseconds(100)
        /// ...or once its first event is this old...
        public var maximumDelay: Duration = .seconds(1)
        /// ...or once it holds this many events, whichever comes first: a burst is not
        /// worth waiting for (there is little to coalesce in it, and the inspectors would
        /// idle), it flows through in windows of about this size while it lasts.
        public var maximumWindowEvents = 1024
        /// How often folders that could not be watched are rescanned.
        public var rescanInterval: Duration = .seconds(300)
        /// At most this many watches, below the kernel's own limit (`nil`: the kernel's).
        public var maximumWatches: Int?

        public init(scan: FolderScanner.Options) { self.scan = scan }
    }

    struct WatchState {
        var table = WatchTable()
        var rootWatch = WatchDescriptor.none
        /// Folders that are not watched (the limit was reached); what is below them is neither.
        var degraded: Set<ItemIdentifier> = []
        var warnedAboutLimit = false
        var overflows = 0
    }

    let index: SearchableIndex
    let root: RootFolder
    let options: Options
    let logger: Logger
    let notifier: SystemdNotifier
    let scanner: FolderScanner
    let inotify: Inotify
    let inbox = WatchInbox()
    let onReady: (@Sendable () -> Void)?
    private let state = Mutex(WatchState())
    private let watchLimit: Int?

    /// Creates a watcher; nothing happens until ``run()``.
    /// - Parameter onReady: Called once the watches are installed and the first reconcile is committed.
    public init(index: SearchableIndex, root: RootFolder, options: Options, logger: Logger,
                enricher: FolderScanner.Enricher? = nil, notifier: SystemdNotifier = SystemdNotifier(environment: [:]),
                onReady: (@Sendable () -> Void)? = nil) throws {
        self.index = index
        self.root = root
        self.options = options
        self.logger = logger
        self.notifier = notifier
        self.onReady = onReady
        scanner = FolderScanner(index: index, root: root, options: options.scan, logger: logger, enricher: enricher)
        inotify = try Inotify()
        watchLimit = options.maximumWatches ?? (try? Inotify.maximumUserWatches())
    }

    /// Watches in use.
    public var watchCount: Int { state.withLock { $0.table.count } }
    /// Folders that could not be watched, rescanned periodically.
    public var degradedSubtrees: [ItemIdentifier] { state.withLock { $0.degraded.sorted() } }
    /// Times the kernel's event queue overflowed.
    public var overflowCount: Int { state.withLock { $0.overflows } }

    /// Reconciles, then follows changes until a graceful shutdown (SIGINT, SIGTERM through a
    /// `ServiceGroup`) or cancellation; then finishes the window in hand and returns.
    ///
    /// - Throws: ``WatchError`` when the root disappears (the index is left untouched),
    ///   ``InotifyError`` when inotify cannot be used, ``SearchlightError`` when the index
    ///   cannot be written.
    public func run() async throws {
        try await withGracefulShutdownHandler {
            try await self.follow()
        } onGracefulShutdown: {
            self.inbox.requestStop()
            self.scanner.stop()
        }
        notifier.notify("STOPPING=1")
        writeHealth(running: false)
        logger.notice("stopped watching \(root.path)")
    }

    /// Keeps the scanner's inspector threads for the whole watch, so that a burst handled a
    /// window at a time does not start threads and load libmagic's database every window.
    private func follow() async throws {
        try await Self.blocking { try self.scanner.startInspectors() }
        do {
            try await followChanges()
        } catch {
            _ = try? await Self.blocking { self.scanner.stopInspectors() }
            throw error
        }
        _ = try? await Self.blocking { self.scanner.stopInspectors() }
    }

    private func followChanges() async throws {
        let rootWatch = try inotify.addWatch(pathBytes: Array(root.path.utf8))
        state.withLock { state in
            state.rootWatch = rootWatch
            _ = state.table.insert(rootWatch, path: [])
        }
        notifier.notify("STATUS=reconciling \(root.path)")
        let summary = try await Self.blocking { try self.scanner.reconcile(onDirectory: self.watchDirectory) }
        if inbox.isStopRequested { return }
        saveLastScan(summary)
        logger.notice("watching \(root.path): \(watchCount) folders; first reconcile: \(summary.counts)")
        notifier.notify("READY=1\nSTATUS=watching \(root.path) (\(watchCount) folders)")
        writeHealth(running: true)
        onReady?()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for try await batch in self.inotify.events() { self.inbox.append(batch) }
            }
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: self.options.rescanInterval)
                    if Task.isCancelled { return }
                    if self.state.withLock({ !$0.degraded.isEmpty }) { self.inbox.requestRescan() }
                }
            }
            group.addTask { try await self.processWindows(rootWatch: rootWatch) }
            // Processing ends on shutdown; reading and the timer end when cancelled.
            defer { group.cancelAll() }
            _ = try await group.next()
        }
    }

    /// Waits for events, lets them settle, and processes them a window at a time.
    private func processWindows(rootWatch: WatchDescriptor) async throws {
        var lastWindowEnded = ContinuousClock.now
        for await _ in inbox.wakeups {
            // Let changes settle: a quiet spell, but never more than the maximum delay, and
            // not while a burst is piling up. Events that came while the last window was being
            // processed have waited already: during a burst, windows follow without a pause.
            while !inbox.isStopRequested, !inbox.hasEvents(before: lastWindowEnded), let ages = inbox.ages(),
                  ages.quiet < options.settleInterval, ages.pending < options.maximumDelay,
                  inbox.pendingCount < options.maximumWindowEvents {
                try? await Task.sleep(for: min(options.settleInterval - ages.quiet, options.maximumDelay - ages.pending))
            }
            let (events, rescan) = inbox.drain()
            if !events.isEmpty || rescan {
                try await Self.blocking { try self.process(events, rescanDegraded: rescan, rootWatch: rootWatch) }
                lastWindowEnded = .now
            }
            if inbox.isStopRequested || Task.isCancelled { return }
        }
    }

    /// Applies one window of events. Runs on a thread of its own, never on the cooperative pool.
    private func process(_ events: [InotifyEvent], rescanDegraded: Bool, rootWatch: WatchDescriptor) throws {
        var changes = PendingChanges(domain: options.scan.domain, rootWatch: rootWatch, excluded: options.scan.walk.excluded)
        state.withLock { state in
            for event in events { changes.add(event, table: &state.table) }
        }
        if !changes.unpairedFolders.isEmpty && !changes.crawl.isEmpty { adoptMovedFolders(&changes) }
        let stale = state.withLock { changes.resolveUnpairedMoves(table: &$0.table) }
        logger.debug("window of \(events.count) events: \(changes)")
        for watch in stale { try? inotify.removeWatch(watch) }
        if changes.rootGone { throw WatchError.rootGone(root.path) }
        notifier.notify("STATUS=indexing \(events.count) changes")
        var summary = ScanSummary()
        if changes.overflowed {
            logger.warning("""
                the inotify event queue overflowed (raise fs.inotify.max_queued_events); \
                reconciling \(root.path) so that nothing is lost
                """)
            state.withLock { $0.overflows += 1 }
            summary = try scanner.reconcile(onDirectory: watchDirectory)
        } else {
            try index.apply(changes.batch)
            summary.add(try crawlAndRefresh(changes))
        }
        if rescanDegraded { summary.add(try rescanUnwatched()) }
        logger.debug("\(events.count) events: \(summary.counts)")
        notifier.notify("STATUS=watching \(root.path) (\(watchCount) folders)")
        writeHealth(running: true)
    }

    /// Finds folders that moved away into a new, not yet watched folder: inotify reports only
    /// the move's first half, but watching the new folders hands back the moved folder's own
    /// watch descriptor (a watch belongs to an inode).
    private func adoptMovedFolders(_ changes: inout PendingChanges) {
        var wanted: [WatchDescriptor: ItemIdentifier] = state.withLock { state in
            var watches: [WatchDescriptor: ItemIdentifier] = [:]
            for folder in changes.unpairedFolders {
                if let watch = state.table.watch(forPath: folder.bytes) { watches[watch] = folder }
            }
            return watches
        }
        struct AllFound: Error {}
        func check(_ path: ItemIdentifier) throws {
            guard let watch = try? inotify.addWatch(pathBytes: root.absolutePath(of: path)) else { return }
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
    static func outermost(_ folders: Set<ItemIdentifier>) -> [ItemIdentifier] {
        folders.filter { !PendingChanges.hasAncestor($0, in: folders) }.sorted()
    }

    /// Walks new folders (watching them first) and refreshes changed files.
    private func crawlAndRefresh(_ changes: PendingChanges) throws -> ScanSummary {
        // What a path is now decides how it is handled, not what the events said it was:
        // a folder may have become a file (or vanished) since.
        func isDirectory(_ path: ItemIdentifier) -> Bool {
            let status = try? DirectoryWalker.Level.withCString(path.bytes) { name throws(FileSystemError) in
                try FileStatus.of(name, in: root.descriptor, path: path)
            }
            return status?.kind == .directory
        }
        var crawl: Set<ItemIdentifier> = []
        var files: Set<ItemIdentifier> = []
        for path in changes.crawl {
            if isDirectory(path) { crawl.insert(path) } else { files.insert(path) }
        }
        for path in changes.refresh where !PendingChanges.isPath(path, inSubtreeOfAnyOf: crawl) {
            if isDirectory(path) { crawl.insert(path) } else { files.insert(path) }
        }
        // Only the outermost folders: a walk covers what is below it.
        let folders = Self.outermost(crawl)
        // A file that stood where one of these folders now stands is gone.
        if !folders.isEmpty { try index.deleteItems(withIdentifiers: folders, domain: options.scan.domain) }
        for folder in folders { watchDirectory(folder) }
        let outsideCrawls = files.filter { !PendingChanges.isPath($0, inSubtreeOfAnyOf: crawl) }
        if folders.isEmpty && outsideCrawls.isEmpty { return ScanSummary() }
        return try scanner.update(subtrees: folders, files: outsideCrawls.sorted(), onDirectory: watchDirectory)
    }

    /// Tries again to watch the folders that could not be, and reconciles them.
    private func rescanUnwatched() throws -> ScanSummary {
        let degraded = state.withLock { state in
            defer { state.degraded = [] }
            return state.degraded
        }
        var summary = ScanSummary()
        for folder in degraded.sorted() {
            watchDirectory(folder)
            summary.add(try scanner.reconcile(subtree: folder, onDirectory: watchDirectory))
        }
        if !degraded.isEmpty {
            logger.info("rescanned \(degraded.count) unwatched folders: \(summary.counts)")
        }
        return summary
    }

    /// Watches one folder; called by the walk before the folder is listed.
    @Sendable
    func watchDirectory(_ path: ItemIdentifier) {
        let skip = state.withLock { state in
            state.degraded.contains { PendingChanges.isPath(path, inSubtreeAt: $0) }
                || (options.maximumWatches.map { state.table.count >= $0 } ?? false)
                    && state.table.watch(forPath: path.bytes) == nil
        }
        do {
            if skip { throw WatchLimitReached() }
            let watch = try inotify.addWatch(pathBytes: root.absolutePath(of: path))
            state.withLock { _ = $0.table.insert(watch, path: path.bytes) }
        } catch let error as InotifyError where error.isNoSuchFile {
            // Gone already: its parent's events say so.
        } catch let error as InotifyError where !error.isWatchLimitReached {
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

    private struct WatchLimitReached: Error {}

    private func saveLastScan(_ summary: ScanSummary) {
        updateState { $0.lastScan = summary }
    }

    /// Writes how the watch is doing into the index, for `status`.
    private func writeHealth(running: Bool) {
        let health = state.withLock { state in
            WatchHealth(pid: getpid(), running: running, updated: Date(), watchesUsed: state.table.count,
                        watchLimit: watchLimit, degradedSubtrees: state.degraded.sorted().map(\.lossyString),
                        overflows: state.overflows, pendingChanges: inbox.pendingCount)
        }
        updateState { $0.watch = health }
    }

    private func updateState(_ change: (inout DomainState) -> Void) {
        do {
            var domainState = try index.domainState(options.scan.domain) ?? DomainState(root: root.path)
            domainState.root = root.path
            change(&domainState)
            try index.setState(domainState.json, domain: options.scan.domain)
        } catch {
            logger.warning("cannot record the watch's state: \(error)")
        }
    }

    /// Runs blocking work (libmagic, SQLite) on a thread outside the cooperative pool.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
        }
    }
}
