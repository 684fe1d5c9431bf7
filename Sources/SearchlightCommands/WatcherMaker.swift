import Foundation
import Logging
import SearchlightFiles

/// Makes the watcher of one root, sharing what every watcher of a `watch` shares: the index's
/// writer, the pool of extraction workers, the one inotify instance, pauses and backoff. The
/// roots given at the start get theirs from it, and so does each removable drive plugged in
/// later (``RemovableDriveWatch``).
struct WatcherMaker: Sendable {
    var index: any FileIndexWriter
    var extraction: ItemExtraction?
    var inotify: InotifyHub
    var control: WatchControl
    /// The options every root shares; ``make(_:folder:exclusions:notifier:onReady:)`` sets the domain
    /// and exclusions.
    var options: FolderWatcher.Options
    var logger: Logger

    init(index: any FileIndexWriter, extraction: ItemExtraction?, inotify: InotifyHub, control: WatchControl,
         configuration: Configuration, maximumWatches: Int?, logger: Logger) {
        self.index = index
        self.extraction = extraction
        self.inotify = inotify
        self.control = control
        self.logger = logger
        var options = FolderWatcher.Options(scan: FolderScanner.Options(domain: ""))
        options.scan.inspectorCount = max(1, ProcessInfo.processInfo.activeProcessorCount)
        options.rescanInterval = .seconds(configuration.rescanInterval.value)
        options.maximumWatches = maximumWatches
        let selfCheck = configuration.selfCheckInterval.value
        options.selfCheckInterval = selfCheck == 0 ? nil : .seconds(selfCheck)
        options.control = control
        self.options = options
    }

    /// The domain of `root` in `folder`: its own, else the folder's default.
    func domain(of root: Configuration.Root, folder: RootFolder) -> String {
        root.domain ?? index.defaultDomain(forFolder: folder.path)
    }

    /// The watcher of `root`, opened as `folder`; queues what the extraction workers left of
    /// its domain before.
    /// - Throws: a ``CommandFailure`` when it cannot be made.
    func make(_ root: Configuration.Root, folder: RootFolder, exclusions: ExclusionRules,
              notifier: SystemdNotifier = SystemdNotifier(environment: [:]),
              onReady: (@Sendable () -> Void)? = nil) throws -> FolderWatcher {
        var options = options
        options.scan.domain = domain(of: root, folder: folder)
        // A new domain is recorded as done now, before its first scan; an older one's items
        // are queued by the second pass, in the background.
        extraction?.queueOlderItems(of: index, domain: options.scan.domain, root: folder.path, onlyIfEmpty: true)
        // Before the first reconcile, which reads them again.
        extraction?.rereadNewlyReadable(in: index, domain: options.scan.domain)
        options.scan.walk = DirectoryWalker.Options(exclusions: exclusions)
        options.scan.pipeline.extraction = extraction
        do {
            return try FolderWatcher(index: index, root: folder, options: options, logger: logger,
                                     notifier: notifier, inotify: inotify, onReady: onReady)
        } catch {
            throw CommandFailure.fail("cannot start watching \(folder.path): \(error)")
        }
    }
}
