import Dispatch
import Foundation
import Logging
import Searchlight
import ServiceLifecycle
import Synchronization
import SystemCalls
import SystemPackage

/// Keeps a root folder's items in step with the disk: reconciles it once, then follows every
/// change through inotify until shut down.
///
/// Step ① of the write path, and the service that drives the rest: inotify events → a window
/// of coalesced changes (② ``PendingChanges``) → structural index changes (moves, subtree
/// deletes) in one transaction → crawls of new folders and refreshes of changed files in one
/// run of the ``FolderScanner`` with its ``IndexingPipeline`` (③ libmagic on inspector threads
/// that live as long as the watch, then the extraction workers) → one batched write (④) →
/// queryable. The scanner hands back what happened (a ``ScanReport``), which the watcher acts
/// on once the run has returned: the names of hard-linked files it keeps, a self-check's repairs.
///
/// Every folder is watched before it is listed, so nothing created in it can be missed. When
/// the kernel's queue overflows the root is reconciled; when the watch limit is reached the
/// folders that could not be watched are listed in the health (see ``WatchHealth``) and
/// rescanned every ``Options/rescanInterval``. Nothing is silently lost.
///
/// ## Overview
///
/// A watcher is a `Service` of swift-service-lifecycle: it does nothing when made, and
/// ``run()`` reconciles the root, installs its watches, and then processes windows of events
/// until the `ServiceGroup` that runs it shuts down gracefully (SIGTERM, SIGINT) or its task is
/// cancelled. Several roots are several watchers, which can share one ``InotifyHub`` (one
/// inotify descriptor per process, passed as `inotify`) and one index.
///
/// ```swift
/// let index = try SearchableIndex(path: indexPath)
/// let root = try RootFolder(path: "/home/ada/Documents")
/// let watcher = try FolderWatcher(index: index, root: root,
///                                 options: .init(scan: .init(domain: root.path)), logger: logger)
/// let group = ServiceGroup(configuration: .init(services: [watcher],
///                                               gracefulShutdownSignals: [.sigterm], logger: logger))
/// try await group.run()
/// ```
///
/// While ``run()`` runs, the watcher holds the domain's ``WatchLock``: a second watch of the
/// same domain fails at once, and `searchlight status` tells a running watch by the lock. Its
/// health (watches used, pending changes, overflows, repairs, pause and backoff) and since
/// when its drive is away are written into the domain's state in the index, where `status`
/// and `pause` read them.
///
/// ## Threads and blocking
///
/// `run()` is async, but every step that blocks (the reconcile, libmagic, the extraction
/// workers, SQLite writes) runs on a dispatch thread outside the cooperative pool, the task
/// awaiting it. One window is processed at a time; events that arrive meanwhile wait in the
/// watcher's inbox and form the next window. The scanner's inspector threads live as long as
/// the watch. The public properties (``watchCount``, ``degradedSubtrees``, …) may be read from
/// any thread while the watch runs.
///
/// ## What it follows and what it cannot
///
/// The watcher survives what happens to its surroundings: a drive that is unmounted
/// (the watch waits, offline, and catches up once the drive is mounted again, wherever), a
/// network or FUSE root whose server stops answering (left alone until it answers, and
/// reconciled every ``Options/rescanInterval`` since no event tells of changes made elsewhere),
/// an index that cannot be written for a while (events wait; the write is retried), a damaged
/// index (reset and rebuilt from the disk). It ends, throwing, when the root itself is deleted
/// or moved away.
///
/// ## Topics
///
/// ### Making and running a watcher
///
/// - ``init(index:root:options:logger:notifier:inotify:onReady:)``
/// - ``Options``
/// - ``run()``
/// - ``stop()``
///
/// ### Health
///
/// - ``isOffline``
/// - ``recordHealth()``
/// - ``watchCount``
/// - ``degradedSubtrees``
/// - ``overflowCount``
/// - ``selfCheckRepairs``
/// - ``recentRepairs``
public final class FolderWatcher: Service, Sendable {
    /// How the watcher runs.
    ///
    /// The defaults suit a person's folders: a window after 100 ms of quiet or at most one
    /// second after its first event, a check of the whole root every ten minutes, of the
    /// index's pages every hour.
    ///
    /// ```swift
    /// var options = FolderWatcher.Options(scan: .init(domain: "notes"))
    /// options.settleInterval = .milliseconds(250)   // editors that save in several steps
    /// options.selfCheckInterval = nil               // no periodic reconcile
    /// ```
    public struct Options: Sendable {
        /// The scan underneath: domain, exclusions, threads, batches.
        ///
        /// Its domain names the watch: the ``WatchLock`` and the health are per domain. The index's
        /// own files are added to its exclusions when the watcher is made.
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
        ///
        /// Also how often a network or FUSE root is reconciled whole, and how often a root whose
        /// server stopped answering is asked again.
        public var rescanInterval: Duration = .seconds(300)
        /// How often the whole root is checked against the disk (`nil`: never). A check is a
        /// reconcile that should change nothing: each item it repairs is logged as a warning
        /// and counted (see ``WatchHealth/selfCheckRepairs``). It also runs after an overflow
        /// and after a folder moved where the watcher could not follow it.
        public var selfCheckInterval: Duration? = .seconds(600)
        /// How often the index's pages are checked (SQLite's `quick_check`, when no event
        /// waits; `nil`: never): damage no read met yet resets the index, rebuilt from the disk.
        public var integrityCheckInterval: Duration? = .seconds(3600)
        /// At most this many watches, below the kernel's own limit (`nil`: the kernel's).
        ///
        /// Each watch costs the kernel about a kilobyte of unswappable memory; a limit keeps a huge
        /// tree from taking all of a user's watches (which every inotify user of the account shares).
        public var maximumWatches: Int?
        /// Pauses and backoff, from `searchlight pause` and the pressure monitor (`nil`: never).
        ///
        /// While paused, events keep coming into the inbox and nothing is written; while backing
        /// off, windows settle longer and extraction is left for later.
        public var control: WatchControl?
        /// How long the server of a network or FUSE root has to answer before the root is
        /// taken as unreachable (and left alone until it answers).
        ///
        /// Only roots on network or FUSE filesystems are asked; a local root never is.
        public var reachabilityDeadline: Duration = .seconds(5)

        /// The default timings over a scan with `scan`'s options.
        public init(scan: FolderScanner.Options) { self.scan = scan }
    }

    /// What the watch knows of its watches and its health, behind ``state``'s lock.
    ///
    /// Read by the public properties from any thread, and changed by the window's work on its
    /// dispatch thread; every access takes ``state``'s lock, briefly.
    struct WatchState {
        /// Which folder each watch descriptor stands for, and back.
        var table = WatchTable()
        /// The root's own watch: its events say that the root was deleted or moved.
        var rootWatch = WatchDescriptor.none
        /// Folders that are not watched (the limit was reached); what is below them is neither.
        var degraded: Set<ItemIdentifier> = []
        /// Whether the limit of watches was already reported: a warning once, not per folder.
        var warnedAboutLimit = false
        /// Times the kernel's event queue overflowed (``overflowCount``).
        var overflows = 0
        /// Items the self-checks repaired (``selfCheckRepairs``).
        var selfCheckRepairs = 0
        /// The latest counted repairs, oldest first (at most ``repairsKept``).
        var repaired: [SelfCheckRepair] = []
        /// When the last self-check ended.
        var lastSelfCheck: Date?
        /// Since when the root's drive is not mounted (nil while it is).
        var offlineSince: Date?
        /// The root's filesystem is a network or FUSE one: changes made elsewhere reach no
        /// inotify watch, so it is reconciled every ``Options/rescanInterval``.
        var isRemote = false
        /// Since when the server of a network or FUSE root does not answer.
        var unreachableSince: Date?
    }

    /// Where the items and the watch's health are written.
    ///
    /// Most calls come from the blocking work on dispatch threads; a few (the health written
    /// between windows, the reclaim of space) come from the watch's own task.
    let index: any FileIndexWriter
    /// The folder watched.
    let root: RootFolder
    /// The options as given, with the scanner's (the index's own files excluded).
    let options: Options
    /// Where the watch reports what it does: a notice per start and stop, warnings for
    /// repairs and limits.
    let logger: Logger
    /// systemd's notification socket (`READY=1`, `STATUS=`, `STOPPING=1`), when there is one.
    let notifier: SystemdNotifier
    /// Steps ② to ④ for each window, with inspector threads kept for the whole watch.
    let scanner: FolderScanner
    /// The process's inotify instance, shared with the other roots' watchers.
    let inotify: InotifyHub
    /// This watcher's number with ``inotify``.
    let subscriber: Int
    /// The events of this root's watches, and the requests (stop, rescan, self-check) that
    /// wake the loop of windows.
    let inbox = WatchInbox()
    /// Extraction left for later while backing off (the pipeline's).
    ///
    /// Shared with the scanner's pipeline, which fills it; the watcher empties it
    /// (``catchUpOnDeferredExtraction()``).
    let deferral: ExtractionDeferral
    /// The other names of hard-linked files met so far.
    ///
    /// See ``HardLinkNames``: a change through one name refreshes the others.
    let hardLinks: HardLinkNames
    /// Called once the first reconcile is committed and the watches are in place.
    ///
    /// Called on the task that runs ``run()``; it should return quickly.
    let onReady: (@Sendable () -> Void)?
    /// The watches and the health, shared with the readers of the public properties.
    let state = Mutex(WatchState())
    /// How many watches this watcher adds at most: ``Options/maximumWatches``, else the
    /// kernel's `max_user_watches` (`nil` when it cannot be read).
    ///
    /// Read once, when the watcher is made: a limit raised afterwards with `sysctl` counts for
    /// new watchers only.
    let watchLimit: Int?
    /// Tests hold windows here (events pile up unprocessed, as behind a slow consumer).
    let holdsWindows = Atomic<Bool>(false)
    /// Whether windows are being waited for (the first reconcile is done and events flow).
    let isFollowing = Atomic<Bool>(false)
    /// Faults of the index being waited out (see ``recovering(_:)``).
    let recovery = Mutex(RecoveryState())
    /// Asks a network or FUSE root's server whether it answers, off the watch's own paths.
    ///
    /// One per watcher, so that one root's hung server does not make another root look
    /// unreachable.
    let probe = ReachabilityProbe()

    /// Creates a watcher; nothing happens until ``run()``.
    ///
    /// The scanner is made here, with a link observer that keeps the names of hard-linked
    /// files, and with ``Options/control`` as its pipeline's backoff.
    ///
    /// - Parameters:
    ///   - index: The index to keep in step: the SQLite file, or the PostgreSQL store.
    ///   - root: The folder to watch; an offline root (``RootFolder/init(offline:)``) is
    ///     caught up when its drive is mounted.
    ///   - logger: Where the watch reports what it does.
    ///   - notifier: systemd's notification socket; none by default.
    ///   - options: How it runs; `options.scan.pipeline` says what is extracted, and is left
    ///     for later while ``Options/control`` backs off.
    ///   - inotify: The inotify instance the watchers of the process share (`nil`: one of its own).
    ///   - onReady: Called once the watches are installed and the first reconcile is committed.
    /// - Throws: ``FileSystemError`` when the process's own inotify instance cannot be made
    ///   (`inotify_init1(2)`: the limit of instances per user).
    public init(index: any FileIndexWriter, root: RootFolder, options: Options, logger: Logger,
                notifier: SystemdNotifier = SystemdNotifier(environment: [:]),
                inotify: InotifyHub? = nil, onReady: (@Sendable () -> Void)? = nil) throws {
        self.index = index
        self.root = root
        self.logger = logger
        self.notifier = notifier
        self.onReady = onReady
        hardLinks = HardLinkNames()
        var scanOptions = options.scan
        scanOptions.pipeline.backoff = options.control
        scanner = FolderScanner(index: index, root: root, options: scanOptions, logger: logger)
        deferral = scanner.pipeline.deferral
        // The scanner's options: with the index's own files excluded.
        var options = options
        options.scan = scanner.options
        self.options = options
        self.inotify = try inotify ?? InotifyHub()
        subscriber = self.inotify.newSubscriber()
        watchLimit = options.maximumWatches ?? (try? Inotify.maximumUserWatches())
    }

    /// Watches in use.
    ///
    /// Takes the watch state's lock briefly: safe from any thread while the watch runs.
    public var watchCount: Int { state.withLock { $0.table.count } }
    /// Folders that could not be watched, rescanned periodically.
    ///
    /// A folder listed here has nothing below it watched either; the list empties as the
    /// periodic rescan manages to watch them.
    public var degradedSubtrees: [ItemIdentifier] { state.withLock { $0.degraded.sorted() } }
    /// Items the self-check repaired since the start.
    ///
    /// Repairs found while the disk changed during the check, or expected ones (changes that
    /// waited for an index that could not be written), are not counted.
    public var selfCheckRepairs: Int { state.withLock { $0.selfCheckRepairs } }
    /// The latest items the self-check repaired (at most 100, oldest first): what a
    /// diagnosis of a repair starts from.
    public var recentRepairs: [SelfCheckRepair] { state.withLock { $0.repaired } }
    /// Times the kernel's event queue overflowed.
    ///
    /// Each overflow cost a reconcile of the whole root. Frequent overflows call for a larger
    /// `fs.inotify.max_queued_events`.
    public var overflowCount: Int { state.withLock { $0.overflows } }

    /// Reconciles, then follows changes until a graceful shutdown (SIGINT, SIGTERM through a
    /// `ServiceGroup`) or cancellation; then finishes the window in hand and returns.
    ///
    /// In order: the domain's ``WatchLock`` is taken, the root is watched and reconciled
    /// (each folder watched before it is listed), the health is written as running, systemd is
    /// told `READY=1`, `onReady` is called, and windows are processed. On the way out, however
    /// it ends, the health is written as stopped and the lock released. A watcher runs once:
    /// its scanner's stop is for good.
    ///
    /// - Throws: ``FileSystemError`` with ``FileSystemError/Code/rootGone`` when the root
    ///   disappears (the index is left untouched), or an inotify code when inotify cannot be
    ///   used; ``SearchlightError`` when the index cannot be written.
    public func run() async throws {
        // Held while this runs: `status` asks the lock, and a second watch is refused.
        let lock = try WatchLock(index: index.path, domain: options.scan.domain)
        do {
            try await withGracefulShutdownHandler {
                try await self.follow()
            } onGracefulShutdown: {
                self.inbox.requestStop()
                self.scanner.stop()
            }
        } catch {
            finish(lock)
            throw rootGone(instead: error)
        }
        finish(lock)
    }

    /// `error`, or, when the root is no longer there, its going: a walk or a look at the root
    /// that met it gone before its event was read (a busy machine reads events late) fails on
    /// a system call, where the person is told that the folder was deleted or moved away.
    ///
    /// Blocks on one look at the root's path (never while the drive is away or a remote root
    /// does not answer).
    private func rootGone(instead error: any Error) -> any Error {
        guard (error as? FileSystemError)?.code == .systemCall || error is Errno else { return error }
        // A drive away or a server that does not answer: said otherwise, and never asked here.
        guard !isOffline, !state.withLock({ $0.isRemote }), (try? RootFolder(path: root.path)) == nil else { return error }
        return FileSystemError.rootGone(root.path)
    }

    /// Says that the watch ends, however it ends: to systemd, in the index, in the log.
    ///
    /// Releases the lock last, once the health says the watch stopped, so that `status` never
    /// finds the lock free and the health still running.
    private func finish(_ lock: WatchLock) {
        notifier.notify("STOPPING=1")
        if notifier.droppedCount > 0 {
            logger.notice("\(notifier.droppedCount) notifications to the supervisor were dropped: its queue was full")
        }
        writeHealth(running: false)
        recordFault(nil)
        logger.notice("stopped watching \(root.path)")
        withExtendedLifetime(lock) {}
    }

    /// Keeps the scanner's inspector threads for the whole watch, so that a burst handled a
    /// window at a time does not start threads and load libmagic's database every window.
    ///
    /// - Throws: What ``followChanges()`` throws; the inspectors are stopped either way.
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

    /// Installs the root's watch, reconciles, says the watch is ready, and runs the loop of
    /// windows with its timers (rescans, self-checks, integrity checks) until it ends.
    ///
    /// The timers run as child tasks of a task group: the first child to end (the loop of
    /// windows, at a stop or an error) cancels the others.
    ///
    /// - Throws: The loop's errors: the root gone, inotify failing, an index error that is no
    ///   fault to wait out.
    private func followChanges() async throws {
        // Events of this root's watches come into the inbox from the first watch on.
        inotify.subscribe(subscriber, inbox: inbox)
        defer { inotify.unsubscribe(subscriber) }
        // Mounts and unmounts wake the loop, which looks for the root's drive.
        let mountListener = MountMonitor.shared.add { [inbox] in inbox.poke() }
        defer { MountMonitor.shared.remove(mountListener) }
        var summary = ScanSummary()
        if try await Self.blocking({ try self.placeRoot() }) {
            // A server that hangs now (the watch's own calls wait for it) is marked unreachable.
            try await askingServerMeanwhile {
                let rootWatch = try await Self.blocking { try self.inotify.addWatch(pathBytes: Array(self.root.path.utf8), for: self.subscriber) }
                state.withLock { state in
                    state.rootWatch = rootWatch
                    _ = state.table.insert(rootWatch, path: [])
                }
                notifier.notify("STATUS=reconciling \(root.path)")
                do {
                    summary = try await Self.blocking { try self.reconcileWatched().summary }
                } catch where error.isIndexUnavailable {
                    // Watched all the same: the reconcile is retried once the index can be written.
                    fail(with: error as! SearchlightError)
                }
            }
        }
        if inbox.isStopRequested { return }
        // The end of a backoff wakes the loop, to extract what waited.
        options.control?.onBackoffEnd { [inbox] in inbox.poke() }
        if !isOffline { saveLastScan(summary) }
        // The health record first: whoever reads "watching" or READY=1 (`pause`, `status`, a
        // supervisor) finds the running watch in the index.
        await recordHealthOffThePool()
        if isOffline {
            logger.notice("watching \(root.path): not connected; caught up when its drive is mounted")
        } else {
            logger.notice("watching \(root.path): \(watchCount) folders; first reconcile: \(summary.counts)")
        }
        notifier.notify("READY=1\nSTATUS=watching \(root.path) (\(watchCount) folders)")
        onReady?()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: self.options.rescanInterval)
                    if Task.isCancelled { return }
                    if self.state.withLock({ !$0.degraded.isEmpty }) { self.inbox.requestRescan() }
                    // Changes made on another machine: no event tells of them.
                    if self.state.withLock({ $0.isRemote && $0.offlineSince == nil }) {
                        self.inbox.requestSelfCheck(reason: "a network or FUSE filesystem is reconciled periodically", counted: false)
                    }
                }
            }
            if let interval = self.options.selfCheckInterval {
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: interval)
                        if Task.isCancelled { return }
                        self.inbox.requestSelfCheck(reason: "periodic")
                    }
                }
            }
            if let interval = self.options.integrityCheckInterval {
                group.addTask { await self.scheduleIntegrityChecks(every: interval) }
            }
            group.addTask { try await self.processWindows() }
            // Processing ends on shutdown; reading and the timer end when cancelled.
            defer { group.cancelAll() }
            _ = try await group.next()
        }
    }

    /// Waits for events, lets them settle, and processes them a window at a time.
    ///
    /// Returns when a stop is requested or the task is cancelled, after the window in hand.
    ///
    /// - Throws: An error of the shared inotify reader (``WatchInbox/failure``), or of a window
    ///   that the recovery does not handle.
    private func processWindows() async throws {
        var lastWindowEnded = ContinuousClock.now
        var mountsSeen = MountMonitor.shared.generation
        isFollowing.store(true, ordering: .relaxed)
        for await _ in inbox.wakeups {
            if let failure = inbox.failure { throw failure }
            // A filesystem was mounted or unmounted: is the root's drive still (or again) there?
            // (A look at the root that waits on a hung server marks it unreachable meanwhile.)
            let mounts = MountMonitor.shared.generation
            if mounts != mountsSeen {
                mountsSeen = mounts
                try await askingServerMeanwhile { try await recovering { _ = try self.checkDrive() } }
            }
            // Away: nothing to process; the drive's return wakes the loop.
            if isOffline {
                _ = inbox.drain()
                if inbox.isStopRequested || Task.isCancelled { return }
                continue
            }
            // A network or FUSE root whose server does not answer is left alone (its events
            // wait) until it answers: the next periodic reconcile asks again.
            if state.withLock({ $0.isRemote }), !(try await Self.blocking { self.remoteRootAnswers() }) {
                if inbox.isStopRequested || Task.isCancelled { return }
                _ = inbox.takeSelfCheck(afterQuiet: .zero)
                continue
            }
            // The index cannot be written: events wait in the inbox until the next attempt.
            if retryWait() != nil {
                if inbox.isStopRequested || Task.isCancelled { return }
                continue
            }
            // Let changes settle: a quiet spell, but never more than the maximum delay, and
            // not while a burst is piling up. Events that came while the last window was being
            // processed have waited already: during a burst, windows follow without a pause.
            // Paused: events keep coming into the inbox, the window waits.
            var reportedPending = -1
            await options.control?.waitWhilePaused(isStopping: { inbox.isStopRequested }, tick: {
                // `status` shows the changes queued while paused.
                if inbox.pendingCount != reportedPending {
                    reportedPending = inbox.pendingCount
                    await recordHealthOffThePool()
                }
            })
            // Backing off (pressure, battery): windows settle longer.
            let settle = options.control?.stretched(options.settleInterval) ?? options.settleInterval
            let maximumDelay = options.control?.stretched(options.maximumDelay) ?? options.maximumDelay
            // A cancelled sleep returns at once: stop waiting then, rather than spin.
            while !inbox.isStopRequested, !Task.isCancelled, !inbox.hasEvents(before: lastWindowEnded),
                  let ages = inbox.ages(), ages.quiet < settle, ages.pending < maximumDelay,
                  inbox.pendingCount < options.maximumWindowEvents {
                do {
                    try await Task.sleep(for: min(settle - ages.quiet, maximumDelay - ages.pending))
                } catch {
                    break
                }
            }
            while holdsWindows.load(ordering: .relaxed), !inbox.isStopRequested, !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(5))
            }
            let (events, rescan) = inbox.drain()
            let reconcile = needsReconcile
            if !events.isEmpty || rescan || reconcile {
                let rootWatch = state.withLock { $0.rootWatch }
                try await askingServerMeanwhile {
                    try await recovering { try self.process(events, rescanDegraded: rescan, rootWatch: rootWatch, reconcile: reconcile) }
                }
                lastWindowEnded = .now
            }
            if inbox.isStopRequested || Task.isCancelled { return }
            if deferral.isPending && options.control?.backoffReason == nil {
                try await askingServerMeanwhile { try await recovering { try self.catchUpOnDeferredExtraction() } }
            }
            // A check runs once the disk is quiet: one that overlaps changes sees the disk ahead
            // of the events still to be applied (see ``selfCheck(reason:counted:)``).
            let (check, wait) = inbox.takeSelfCheck(afterQuiet: selfCheckQuiet)
            if let check {
                try await askingServerMeanwhile { try await recovering { try self.selfCheck(reason: check.reason, counted: check.counted) } }
            } else if let wait {
                Task { [inbox] in
                    try? await Task.sleep(for: wait)
                    inbox.poke()
                }
            }
            try await checkIntegrityIfDue()
            // SQLite's work (an `optimize`, a `VACUUM`) off the cooperative pool, which two
            // threads make on a two-core machine: blocking one stalls every task of the process.
            _ = try? await Self.blocking { self.reclaimSpaceIfChurned() }
        }
    }

    /// ``writeHealth(running:)`` of a running watch, on a thread outside the cooperative pool
    /// (``blocking(_:)``): a read and a write of the index, which wait for its lock.
    func recordHealthOffThePool() async {
        _ = try? await Self.blocking { self.writeHealth(running: true) }
    }

    /// Runs blocking work (libmagic, SQLite) on a thread outside the cooperative pool.
    ///
    /// The work runs on a global dispatch queue; the awaiting task is suspended, not blocked, so
    /// the cooperative pool stays free for other tasks meanwhile.
    ///
    /// - Parameter body: The blocking work.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
        }
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
