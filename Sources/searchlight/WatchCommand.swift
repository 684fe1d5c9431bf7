import ArgumentParser
import Foundation
import Logging
import Searchlight
import SearchlightFiles
import ServiceLifecycle

struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Reconcile a folder, then follow its changes with inotify until SIGINT or SIGTERM.",
        discussion: """
            Logs a line containing "watching" once the watches are installed and the first \
            reconcile is committed; under systemd (Type=notify) it sends READY=1, STATUS= lines \
            and STOPPING=1. SIGINT and SIGTERM finish the changes in hand, commit and exit 0. \
            If the folder itself is deleted or moved away it exits 1 and leaves the index alone.
            """
    )

    @Argument(help: "The folder to index and watch.")
    var root: String

    @Option(help: ArgumentHelp("The domain of the folder's items (default: its canonical path).", valueName: "name"))
    var domain: String?

    @OptionGroup var thumbnails: ThumbnailOptions

    @Option(help: ArgumentHelp("Seconds between rescans of folders that could not be watched.", valueName: "seconds"))
    var rescanInterval: Int = 300

    @Option(help: ArgumentHelp("Use at most this many inotify watches (default: the system's limit).", valueName: "n"))
    var maxWatches: Int?

    @OptionGroup var indexOptions: IndexOptions

    func validate() throws {
        if rescanInterval < 1 { throw ValidationError("--rescan-interval must be at least 1 second.") }
        if let maxWatches, maxWatches < 1 { throw ValidationError("--max-watches must be at least 1.") }
    }

    func run() async throws {
        var logger = indexOptions.logger
        if !indexOptions.verbose { logger.logLevel = .notice }
        let rootFolder = try CommandFailure.wrap { try RootFolder(path: root) }
        let index = try indexOptions.openForWriting()
        var options = FolderWatcher.Options(scan: FolderScanner.Options(domain: domain ?? rootFolder.path))
        options.scan.walk.excluded = IndexFiles.relativePaths(of: index.path, below: rootFolder)
        options.rescanInterval = .seconds(rescanInterval)
        options.maximumWatches = maxWatches
        let thumbnailer = try thumbnails.makeThumbnailer(workers: options.scan.inspectorCount, logger: logger)
        defer { thumbnailer?.shutdown() }
        let watcher: FolderWatcher
        do {
            watcher = try FolderWatcher(index: index, root: rootFolder, options: options, logger: logger,
                                        enricher: thumbnailer?.enricher,
                                        notifier: SystemdNotifier(environment: ProcessInfo.processInfo.environment))
        } catch {
            throw CommandFailure.fail("cannot start watching: \(error)")
        }
        var quiet = logger
        quiet.logLevel = .warning
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: watcher)],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: quiet))
        do {
            try await group.run()
        } catch let error as ExitCode {
            throw error
        } catch {
            throw CommandFailure.fail("\(error)")
        }
    }
}
