import Synchronization

/// Step ① of the write path, the event: reads inotify and routes each event to its watcher.
///
/// One inotify instance for every watcher of a process: `watch` with several roots follows
/// them all through one descriptor and one reading task (the kernel limits instances per user
/// to 128 by default, and each costs a descriptor and a reader).
///
/// Each watcher subscribes with its inbox and adds and removes its watches through the hub,
/// which remembers which watchers own each watch descriptor and hands every event to those
/// owners only (a queue overflow, which has no descriptor, to all of them). The kernel gives
/// one descriptor per folder per instance, so a folder two roots contain (nested roots), or a
/// folder moving from one root into another, is owned by both for a while: each watcher reads
/// its events against its own table, and the watch is removed from the kernel only when its
/// last owner lets it go.
///
/// ```swift
/// let hub = try InotifyHub()
/// let watchers = try roots.map { try FolderWatcher(index: index, root: $0, options: options, logger: logger, inotify: hub) }
/// ```
public final class InotifyHub: Sendable {
    /// The process's one instance, read by the hub's task and given watches by every watcher.
    private let inotify: Inotify
    /// How long the reader lets a burst's events queue after each batch: far below a window's
    /// settle time, and far from filling the kernel's queue (16 384 events by default).
    static let gathering: Duration = .milliseconds(5)

    /// Who owns each watch, each subscriber's inbox, the next subscriber's number, and the
    /// reading task while any subscriber is there.
    private struct State {
        var owners: [WatchDescriptor: Set<Int>] = [:]
        var inboxes: [Int: WatchInbox] = [:]
        var nextSubscriber = 0
        var reader: Task<Void, Never>?
    }

    /// Shared by the reading task and the watchers' threads; held briefly, but across
    /// `inotify_add_watch(2)` in ``addWatch(pathBytes:for:)``.
    private let state = Mutex(State())

    /// Opens the instance; nothing is read until a watcher subscribes.
    ///
    /// Pass the hub to each ``FolderWatcher`` of the process (its `inotify` parameter); a watcher
    /// made without one opens an instance of its own.
    ///
    /// - Throws: ``FileSystemError`` when no instance can be made (the per-user limit).
    public init() throws(FileSystemError) {
        inotify = try Inotify()
    }

    /// A number for a new subscriber (a watcher), which it gives with each call.
    ///
    /// Numbers are never reused while the hub lives.
    func newSubscriber() -> Int {
        state.withLock { state in
            defer { state.nextSubscriber += 1 }
            return state.nextSubscriber
        }
    }

    /// Hands the events of the subscriber's watches to `inbox` from now on (subscribe before
    /// adding watches: events of a subscriber without an inbox are dropped); the first
    /// subscriber starts the reading task.
    func subscribe(_ subscriber: Int, inbox: WatchInbox) {
        state.withLock { state in
            state.inboxes[subscriber] = inbox
            if state.reader == nil {
                state.reader = Task.detached { [self] in await read() }
            }
        }
    }

    /// Stops handing events to `subscriber` and removes the watches only it owned; the last
    /// subscriber stops the reading task.
    func unsubscribe(_ subscriber: Int) {
        let (orphans, reader) = state.withLock { state -> ([WatchDescriptor], Task<Void, Never>?) in
            state.inboxes[subscriber] = nil
            var orphans: [WatchDescriptor] = []
            for (watch, owners) in state.owners where owners.contains(subscriber) {
                if owners.count == 1 {
                    orphans.append(watch)
                    state.owners[watch] = nil
                } else {
                    state.owners[watch]?.remove(subscriber)
                }
            }
            guard state.inboxes.isEmpty else { return (orphans, nil) }
            defer { state.reader = nil }
            return (orphans, state.reader)
        }
        for watch in orphans { try? inotify.removeWatch(watch) }
        reader?.cancel()
    }

    /// Watches a folder for `subscriber` (see ``Inotify/addWatch(pathBytes:for:)``).
    ///
    /// The system call runs under the hub's lock, so routing waits for it: a folder on a network
    /// filesystem whose server does not answer can hold every watcher's events back while the
    /// call waits for the server.
    ///
    /// - Throws: ``FileSystemError`` from `inotify_add_watch(2)`: the folder is gone, cannot be
    ///   read, or the watch limit is reached.
    func addWatch(pathBytes: some Collection<UInt8>, for subscriber: Int) throws(FileSystemError) -> WatchDescriptor {
        // Recorded under the lock with the call: an event the new watch reports can only be
        // routed once the call has returned, and the reader takes the lock to route it.
        try state.withLock { state throws(FileSystemError) in
            let watch = try inotify.addWatch(pathBytes: pathBytes)
            state.owners[watch, default: []].insert(subscriber)
            return watch
        }
    }

    /// `subscriber` no longer wants `watch`: the kernel stops watching the folder when no
    /// other subscriber owns it (see ``Inotify/removeWatch(_:)``).
    ///
    /// - Throws: ``FileSystemError`` from `inotify_rm_watch(2)`: the kernel dropped the watch
    ///   already (its folder went).
    func removeWatch(_ watch: WatchDescriptor, for subscriber: Int) throws(FileSystemError) {
        let last = state.withLock { state -> Bool in
            guard var owners = state.owners[watch], owners.remove(subscriber) != nil else { return false }
            state.owners[watch] = owners.isEmpty ? nil : owners
            return owners.isEmpty
        }
        if last { try inotify.removeWatch(watch) }
    }

    /// Now, for ``hasActivity(since:)``.
    func markActivity() -> Inotify.ActivityMark { inotify.markActivity() }

    /// Whether an event of any subscriber's watches was queued since `mark` and may not have
    /// reached its inbox yet (see ``Inotify/hasActivity(since:)``).
    func hasActivity(since mark: Inotify.ActivityMark) -> Bool { inotify.hasActivity(since: mark) }

    /// Reads until cancelled; a failure to read ends every subscriber's watch.
    ///
    /// Runs as a detached task, started by the first subscriber and cancelled by the last.
    private func read() async {
        do {
            // A burst's events by the hundred, not a few at a time (see ``InotifyEventBatches/gathering``).
            for try await batch in inotify.events(gathering: Self.gathering) { route(batch) }
        } catch {
            for inbox in state.withLock({ Array($0.inboxes.values) }) { inbox.fail(error) }
        }
    }

    /// Hands each event to the owners of its watch; forgets a watch the kernel dropped.
    ///
    /// Events are appended to the inboxes outside the lock, each inbox getting its events of the
    /// batch at once, in the kernel's order.
    private func route(_ batch: [InotifyEvent]) {
        let deliveries = state.withLock { state -> [(WatchInbox, [InotifyEvent])] in
            var routed: [Int: [InotifyEvent]] = [:]
            for event in batch {
                if event.mask.contains(.queueOverflow) {
                    for subscriber in state.inboxes.keys { routed[subscriber, default: []].append(event) }
                    continue
                }
                guard let owners = state.owners[event.watch] else { continue }
                for subscriber in owners { routed[subscriber, default: []].append(event) }
                if event.mask.contains(.ignored) { state.owners[event.watch] = nil }
            }
            return routed.compactMap { subscriber, events in state.inboxes[subscriber].map { ($0, events) } }
        }
        for (inbox, events) in deliveries { inbox.append(events) }
    }
}
