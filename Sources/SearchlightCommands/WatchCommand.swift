import ArgumentParser
@preconcurrency import Dispatch
import Foundation
import Logging
import Searchlight
import SearchlightFiles
import ServiceLifecycle
import Synchronization
import SystemCalls

struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Reconcile folders, then follow their changes with inotify until SIGINT or SIGTERM.",
        discussion: """
            Without ROOT, watches the roots of the configuration file and the folders already in the \
            index (scanned before by hand), and the removable drives as they are mounted when the \
            configuration says `[removable] index = true`, all in this one process \
            (one watcher per root, sharing the index's writer and the extraction workers). Logs \
            a line containing "watching" for each root once its watches are installed and its \
            first reconcile is committed; under systemd (Type=notify) it sends READY=1 once \
            every root is watched, STATUS= lines and STOPPING=1. SIGINT and SIGTERM finish the \
            changes in hand, commit and exit 0. If a root itself is deleted or moved away it \
            exits 1 and leaves the index alone. Runs at idle CPU and I/O priority unless \
            --priority normal.
            """
    )

    @Argument(help: "The folders to index and watch (default: the configured roots).")
    var roots: [String] = []

    @Option(help: ArgumentHelp("The domain of the folder's items (default: its canonical path).", valueName: "name"))
    var domain: String?

    @OptionGroup var thumbnails: ThumbnailOptions

    @Option(help: ArgumentHelp("Seconds between rescans of folders that could not be watched (default 300).",
                               valueName: "seconds"))
    var rescanInterval: Int?

    @Option(help: ArgumentHelp("""
        Seconds between self-checks, reconciles of the whole folder that should change nothing \
        (each repair is logged and counted in `status`); 0 turns them off (default 600).
        """, valueName: "seconds"))
    var selfCheckInterval: Int?

    @Option(help: ArgumentHelp("Use at most this many inotify watches (default: the system's limit).", valueName: "n"))
    var maxWatches: Int?

    @OptionGroup var configurationOptions: ConfigurationOptions

    @OptionGroup var indexOptions: IndexOptions

    func validate() throws {
        if let rescanInterval, rescanInterval < 1 { throw ValidationError("--rescan-interval must be at least 1 second.") }
        if let selfCheckInterval, selfCheckInterval < 0 {
            throw ValidationError("--self-check-interval must be 0 (off) or more seconds.")
        }
        if let maxWatches, maxWatches < 1 { throw ValidationError("--max-watches must be at least 1.") }
    }

    func run() async throws {
        var logger = indexOptions.logger
        if !indexOptions.verbose { logger.logLevel = .notice }
        var configuration = try configurationOptions.load(for: Self.self, index: indexOptions.choice)
        thumbnails.apply(to: &configuration)
        configuration.rescanInterval.override(rescanInterval, option: "--rescan-interval")
        configuration.selfCheckInterval.override(selfCheckInterval, option: "--self-check-interval")
        let selected = try indexOptions.rootsToIndex(configuration, arguments: roots, domain: domain, command: "watching")
        configuration.applyPriority()
        let index = try indexOptions.openForIndexing(configuration: configuration)
        // Removable drives, when the configuration indexes them: each a root of its own domain.
        let removable = roots.isEmpty && domain == nil && configuration.removable.value
            ? try RemovableRoots.prepare(configuration, index: index) : nil
        let watch = try Self.makeWatchers(selected, removable: removable, index: index, configuration: configuration,
                                          maximumWatches: maxWatches, logger: logger)
        var quiet = logger
        quiet.logLevel = .warning
        let group = ServiceGroup(configuration: .init(
            services: watch.services,
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: quiet))
        let upkeep = Task { await watch.upkeep() }
        defer { upkeep.cancel() }
        do {
            try await group.run()
            if selected.count > 1 { watch.systemd.notify("STOPPING=1") }
        } catch let error as ExitCode {
            throw error
        } catch {
            throw CommandFailure.fail("\(error)")
        }
        // Every window written and the upkeep done: the index then leaves no write-ahead log.
        upkeep.cancel()
        await upkeep.value
        index.close()
    }

    /// The watchers of `roots`, sharing `index`'s writer and one pool of extraction workers,
    /// as `watch` and `serve --watch` run them.
    struct Watchers {
        /// The pool's shutdown first, then a watcher per root: a group shuts its services down
        /// last to first, so the watchers finish their windows (which may still need the
        /// workers) before the workers go.
        var services: [ServiceGroupConfiguration.ServiceConfiguration]
        /// The watchers running now: one per root, and one per removable drive as it comes and goes.
        var watchers: @Sendable () -> [FolderWatcher]
        var control: WatchControl
        var systemd: SystemdNotifier
        var backoff: Bool
        var idle: Bool
        var logger: Logger
        /// SIGUSR1 and SIGUSR2, handled from the start.
        var signals: WatchSignals

        /// Backs off under pressure until cancelled; then stops handling the signals.
        func upkeep() async {
            defer { signals.cancel() }
            await WatchCommand.upkeep(control: control, watchers: watchers, backoff: backoff, idle: idle, logger: logger)
        }
    }

    /// - Parameter removable: The removable drives' roots to watch from the start
    ///   (``RemovableRoots``), and every drive mounted later; `nil` when they are not indexed.
    static func makeWatchers(_ selected: [Configuration.Root], removable: [Configuration.Root]? = nil, index: any FileIndexWriter,
                             configuration: Configuration, maximumWatches: Int? = nil, logger: Logger) throws -> Watchers {
        let folders = try selected.map { root in try RootFolder.watching(root, index: index) }
        let extraction = try ThumbnailOptions.makeExtraction(configuration, workers: max(1, ProcessInfo.processInfo.activeProcessorCount), index: index,
                                                             logger: logger)
        let systemd = SystemdNotifier(environment: ProcessInfo.processInfo.environment)
        // With one root its watcher speaks to systemd; with several, READY=1 waits for all of them.
        let readiness = Readiness(count: selected.count, notifier: systemd)
        let control = WatchControl()
        // One inotify instance follows every root.
        let inotify: InotifyHub
        do {
            inotify = try InotifyHub()
        } catch {
            extraction?.shutdown()
            throw CommandFailure.fail("cannot watch: \(error)")
        }
        let maker = WatcherMaker(index: index, extraction: extraction, inotify: inotify, control: control,
                                 configuration: configuration, maximumWatches: maximumWatches, logger: logger)
        var watchers: [FolderWatcher] = []
        var ocrRoots: [OCRService.Root] = []
        for (root, folder) in zip(selected, folders) {
            ocrRoots.append(.init(domain: maker.domain(of: root, folder: folder), path: folder.path))
            let single = selected.count == 1
            let notifier = single ? systemd : SystemdNotifier(environment: [:])
            var onReady: (@Sendable () -> Void)?
            if !single { onReady = { @Sendable in readiness.oneIsReady() } }
            do {
                watchers.append(try maker.make(root, folder: folder, exclusions: configuration.exclusionRules(for: root),
                                               notifier: notifier, onReady: onReady))
            } catch {
                extraction?.shutdown()
                throw error
            }
        }
        // Only removable drives, which come and go: ready at once.
        if selected.isEmpty { systemd.notify("READY=1\nSTATUS=watching for removable drives") }
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        if let extraction { services.append(.init(service: ShutdownService { extraction.shutdown() })) }
        // OCR's second pass stops before the workers, after the watchers.
        if let service = OCRService(extraction: extraction, index: index, roots: ocrRoots, control: control,
                                         logger: logger) {
            services.append(.init(service: service))
        }
        // So does the pass of search by meaning.
        if let service = MeaningService(extraction: extraction, index: index, configuration: configuration, control: control,
                                        logger: logger) {
            services.append(.init(service: service))
        }
        services += watchers.map { .init(service: $0) }
        // Removable drives, when the configuration indexes them: watched as they come and go.
        let drives = removable.map { RemovableDriveWatch(maker: maker, configuration: configuration, initial: $0) }
        if let drives { services.append(.init(service: drives)) }
        let roots = watchers
        let current: @Sendable () -> [FolderWatcher] = { roots + (drives?.watchers ?? []) }
        return Watchers(services: services, watchers: current, control: control, systemd: systemd,
                        backoff: configuration.backoff.value, idle: configuration.priority.value == .idle, logger: logger,
                        signals: WatchSignals(control: control, watchers: current, logger: logger))
    }
}

extension WatchCommand {
    /// Every two seconds: samples the machine's pressure and power, and backs the watchers off
    /// while it is high or on battery (see ``PressureMonitor``; `$SEARCHLIGHT_PRESSURE_ROOT`
    /// replaces `/proc` and `/sys`, for tests on fixture files); and keeps every thread at idle
    /// priority (Linux keeps priorities per thread, and a thread libdispatch starts for a
    /// queue does not always inherit its creator's).
    static func upkeep(control: WatchControl, watchers: @Sendable () -> [FolderWatcher], backoff: Bool, idle: Bool,
                       logger: Logger) async {
        let environment = ProcessInfo.processInfo.environment
        var monitor = PressureMonitor()
        if let root = environment["SEARCHLIGHT_PRESSURE_ROOT"], !root.isEmpty {
            monitor = PressureMonitor(procRoot: root + "/proc", sysRoot: root + "/sys")
        }
        // CPU pressure the watch makes itself (a burst on two cores) does not back it off.
        var sampler = PressureSampler(monitor: monitor)
        while !Task.isCancelled {
            if idle { try? ProcessPriority.lowerToIdle() }
            let reason = backoff ? sampler.read().backoffReason(thresholds: sampler.thresholds) : nil
            if reason != control.backoffReason {
                control.backoffReason = reason
                if let reason { logger.notice("backing off: \(reason)") } else { logger.notice("no longer backing off") }
                for watcher in watchers() { watcher.recordHealth() }
            }
            try? await Task.sleep(for: .seconds(2))
        }
    }
}

/// SIGUSR1 pauses the watchers, SIGUSR2 resumes them (`searchlight pause` / `resume`).
final class WatchSignals: Sendable {
    private let sources: [any DispatchSourceSignal]

    init(control: WatchControl, watchers: @escaping @Sendable () -> [FolderWatcher], logger: Logger) {
        let queue = DispatchQueue(label: "searchlight-signals")
        sources = [(SIGUSR1, true), (SIGUSR2, false)].map { number, pausing in
            // The default action of both would end the process.
            SystemCall.ignoreSignal(number)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                if pausing { control.pause() } else { control.resume() }
                logger.notice(pausing ? "paused: changes are queued until `searchlight resume`" : "resumed")
                for watcher in watchers() { watcher.recordHealth() }
            }
            source.resume()
            return source
        }
    }

    func cancel() { sources.forEach { $0.cancel() } }
}

/// Counts the watchers that are ready, and tells systemd once all are.
final class Readiness: Sendable {
    private let remaining: Mutex<Int>
    private let notifier: SystemdNotifier

    init(count: Int, notifier: SystemdNotifier) {
        remaining = Mutex(count)
        self.notifier = notifier
    }

    func oneIsReady() {
        let left = remaining.withLock { count in
            count -= 1
            return count
        }
        if left == 0 { notifier.notify("READY=1\nSTATUS=watching every root") }
    }
}

/// A service that waits for its turn to shut down (or for the group's cancellation), then
/// runs `shutdown`: the lifetime of something that has no work loop of its own, such as a
/// pool of extraction workers.
struct ShutdownService: Service {
    let shutdown: @Sendable () -> Void

    func run() async throws {
        try? await gracefulShutdown()
        shutdown()
    }
}
