import Foundation
import Logging
import SearchlightFiles
import ServiceLifecycle
import Synchronization

/// Watches the removable drives of `watch` (Docs/Contract.md#removable-drives): a watcher for
/// each drive the index knows and each drive mounted in the places later on, started as it
/// comes (the mount table changed), and stopped — its domain forgotten — once its drive has
/// been away for longer than `[removable] keep-offline-days`.
///
/// A drive that goes away keeps its watcher, which holds nothing on it and marks its items
/// offline (``FolderWatcher``'s drive handling), and catches it up when it comes back anywhere.
final class RemovableDriveWatch: Service, Sendable {
    private let maker: WatcherMaker
    private let drives: RemovableDrives
    private let keepOfflineDays: Int
    private let exclusions: ExclusionRules
    private let initial: [Configuration.Root]
    /// The running watchers, by domain, and the tasks that run them.
    private let running = Mutex([String: (watcher: FolderWatcher, task: Task<Void, Never>)]())
    /// How often drives away are looked at for retention, besides every change of the mount
    /// table: every rescan interval, at most a minute.
    private let retentionCheckInterval: Duration

    init(maker: WatcherMaker, configuration: Configuration, initial: [Configuration.Root]) {
        self.maker = maker
        drives = configuration.removableDrives
        keepOfflineDays = configuration.keepOfflineDays.value
        exclusions = configuration.exclusionRules(for: Configuration.Root(path: ""))
        self.initial = initial
        retentionCheckInterval = .seconds(min(60, configuration.rescanInterval.value))
    }

    /// The drives' watchers running now.
    var watchers: [FolderWatcher] { running.withLock { running in running.values.map(\.watcher) } }

    func run() async throws {
        let (looks, request) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let listener = MountMonitor.shared.add { request.yield() }
        defer { MountMonitor.shared.remove(listener) }
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: retentionCheckInterval)
                request.yield()
            }
        }
        defer { ticker.cancel() }
        await withGracefulShutdownHandler {
            for root in initial { start(root) }
            maker.logger.notice("watching for removable drives in \(drives.places.joined(separator: ", "))")
            request.yield()
            for await _ in looks {
                startNewDrives()
                await forgetExpired()
            }
        } onGracefulShutdown: {
            request.finish()
        }
        // The watchers had the shutdown too (a task inherits it): each finishes its window.
        let tasks = running.withLock { running in running.values.map(\.task) }
        for task in tasks { await task.value }
    }

    /// Starts watching `root`; a failure is logged, and the drive is tried again at the next change of mounts.
    private func start(_ root: Configuration.Root) {
        guard let domain = root.domain, running.withLock({ $0[domain] == nil }) else { return }
        do {
            let folder = try RootFolder.watching(root, index: maker.index)
            let watcher = try maker.make(root, folder: folder, exclusions: exclusions)
            let logger = maker.logger
            let task = Task {
                do {
                    try await watcher.run()
                } catch {
                    logger.error("stopped watching the removable drive \(domain): \(error)")
                }
            }
            running.withLock { $0[domain] = (watcher, task) }
        } catch {
            maker.logger.error("cannot watch the removable drive \(domain) at \(root.path): \(error)")
        }
    }

    /// Watches each drive mounted in the places that has no watcher yet.
    private func startNewDrives() {
        guard let table = try? MountTable.read() else { return }
        for drive in drives.mounted(in: table) where running.withLock({ $0[drive.domain] == nil }) {
            maker.logger.notice("a new removable drive: \(drive.volume.name) at \(drive.path), indexed as \(drive.domain)")
            start(Configuration.Root(path: drive.path, domain: drive.domain, origin: .option("[removable]")))
        }
    }

    /// Stops the watchers of drives away for too long, then forgets their domains.
    private func forgetExpired() async {
        let expired = ((try? maker.index.removableDomains(offlineLongerThan: keepOfflineDays)) ?? []).map(\.domain)
        guard !expired.isEmpty else { return }
        let stopping = running.withLock { running in
            expired.compactMap { domain in running.removeValue(forKey: domain) }
        }
        // A watcher that went on would record its domain again.
        for (watcher, task) in stopping {
            watcher.stop()
            await task.value
        }
        let forgotten = RemovableRoots.forgetExpired(keepOfflineDays: keepOfflineDays, index: maker.index)
        for domain in forgotten { maker.logger.notice("forgot the removable drive \(domain): away for too long") }
    }
}
