import ArgumentParser
import Foundation
import Searchlight
import SearchlightFiles
import SearchlightJSON
import Synchronization

struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Reconcile folders into the index once, then exit.",
        discussion: """
            Without ROOT, scans the roots of the configuration file and the folders already in \
            the index (scanned before by hand; `searchlight remove FOLDER` forgets one), and the \
            removable drives when the configuration says `[removable] index = true`. Adds new files, \
            re-inspects changed ones (size, mtime, ctime or inode differ), removes vanished \
            and newly excluded ones and skips unchanged ones. Prints a summary per root, and \
            a total for several. Runs at idle CPU and I/O priority unless --priority normal.
            """
    )

    @Argument(help: "The folders to index (default: the configured roots).")
    var roots: [String] = []

    @Option(help: ArgumentHelp("The domain of the folder's items (default: its canonical path).", valueName: "name"))
    var domain: String?

    @OptionGroup var thumbnails: ThumbnailOptions

    @OptionGroup var configurationOptions: ConfigurationOptions

    @Flag(help: "Print the summary as JSON (one line per root).")
    var json = false

    @Option(help: ArgumentHelp("Append a line per decoded file to this file (kind, format, CPU and wall milliseconds, bytes of text, outcome, path); Benchmarks/content-timings.py sums it up.",
                               valueName: "file"))
    var timings: String?

    @OptionGroup var indexOptions: IndexOptions

    func run() throws {
        let started = ContinuousClock.now
        let logger = indexOptions.logger
        var configuration = try configurationOptions.load(for: Self.self, index: indexOptions.choice)
        thumbnails.apply(to: &configuration)
        let selected = try indexOptions.rootsToIndex(configuration, arguments: roots, domain: domain, command: "scanning")
        // Every root is opened first: a typo in the last one fails before any work (once the
        // index says it is no drive that is away: ``RootFolder/placing(_:opened:index:)``).
        let opened = selected.map { root in Result { () throws(FileSystemError) in try RootFolder(path: root.path) } }
        let timingsPath = try timings.map(Self.timingsFile)
        configuration.applyPriority()
        let inspectorCount = max(1, ProcessInfo.processInfo.activeProcessorCount)
        // The workers load their libraries (tens of milliseconds) while the index opens.
        let workers = try ThumbnailOptions.startWorkers(configuration, workers: inspectorCount, timingsPath: timingsPath,
                                                        logger: logger)
        defer { workers?.pool.shutdown() }
        let index = try indexOptions.openForIndexing(configuration: configuration)
        // The walker's thread may hold the index a moment after the scan: closed here, the
        // index leaves no write-ahead log behind.
        defer { index.close() }
        // Removable drives, when the configuration indexes them: each a root of its own domain.
        let removable = roots.isEmpty && domain == nil && configuration.removable.value
            ? try RemovableRoots.prepare(configuration, index: index) : []
        let all = Array(zip(selected, opened))
            + removable.map { root in (root, Result { () throws(FileSystemError) in try RootFolder(path: root.path) }) }
        if all.isEmpty {
            throw CommandFailure.fail("no folder to index: no removable drive is mounted in "
                + configuration.removablePlacesInEffect.joined(separator: " or ") + ", and there are no [[roots]]", code: 1)
        }
        let places = try all.map { root, opened in try RootFolder.placing(root, opened: opened, index: index) }
        let extraction = ThumbnailOptions.makeExtraction(workers, index: index, logger: logger)
        let output = StandardOutput()
        var total = ScanSummary()
        for place in places {
            let (root, domain) = (place.root, place.domain)
            guard let folder = place.folder else {
                // Its drive is not mounted: nothing is reconciled, its items stay (offline).
                if json {
                    var line = JSONLine()
                    line.add("domain", domain)
                    line.add("root", place.path)
                    line.add("offline", true)
                    line.add("offlineSince", place.offlineSince)
                    output.write(line.finished + [0x0A])
                } else {
                    output.write("\(place.path): \(place.offlineLine(index: index))\n")
                }
                continue
            }
            var options = FolderScanner.Options(domain: domain)
            options.inspectorCount = inspectorCount
            options.walk = DirectoryWalker.Options(exclusions: configuration.exclusionRules(for: root))
            options.pipeline.extraction = extraction
            // Before the scan: what it indexes now, the first pass queues and reads itself.
            extraction?.queueOlderItems(of: index, domain: domain, root: folder.path)
            extraction?.rereadNewlyReadable(in: index, domain: domain)
            let summary = try CommandFailure.rebuildingDamage(index) {
                try scan(folder, domain: domain, options: options, index: index)
            }
            total.add(summary)
            if json {
                output.write(Self.json(summary, domain: domain, root: folder.path).finished + [0x0A])
            } else {
                output.write("\(folder.path): \(Self.describe(summary))\n")
            }
        }
        if places.filter({ $0.folder != nil }).count > 1 && !json {
            output.write("total (\(places.count) roots): \(Self.describe(total))\n")
        }
        output.flush()
        let ocrSeconds = extraction.flatMap { recognizeText($0, index: index, threads: inspectorCount, output: output) }
        let meaningSeconds = extraction.flatMap {
            embedTexts($0, index: index, configuration: configuration, threads: inspectorCount, output: output)
        }
        // Space that removed and rewritten files left, given back (SQLite) or made reusable
        // (PostgreSQL) when it is worth it, and a first scan's full-text segments merged
        // (SQLite); an index that cannot be vacuumed now works as well.
        _ = try? index.reclaimSpaceIfChurned()
        if ocrSeconds != nil || meaningSeconds != nil, !json {
            // Each pass printed its own time: the whole command's, which a person timed, closes.
            let elapsed = ContinuousClock.now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            var passes = String(format: "scan %.2f s", total.seconds)
            if let ocrSeconds { passes += String(format: ", text in pictures %.2f s", ocrSeconds) }
            if let meaningSeconds { passes += String(format: ", meaning %.2f s", meaningSeconds) }
            output.write(String(format: "done in %.2f s (", seconds) + passes + ")\n")
            output.flush()
        }
    }

    /// Reconciles one root, with a progress bar on a terminal, and records the summary.
    private func scan(_ folder: RootFolder, domain: String, options: FolderScanner.Options, index: any FileIndexWriter)
        throws -> ScanSummary
    {
        let scanner = FolderScanner(index: index, root: folder, options: options, logger: indexOptions.logger)
        let previous = try CommandFailure.wrap { try index.domainState(domain) }
        try CommandFailure.wrap {
            var state = previous ?? DomainState(root: folder.path)
            state.root = folder.path
            try index.setState(state, domain: domain)
        }
        var bar: ProgressBar?
        let currentFolder = CurrentFolder()
        if ProgressBar.isTerminal {
            // The files walked last time are the estimate; a first scan shows counts only.
            let known = try CommandFailure.wrap { try index.statistics().domains.first { $0.name == domain }?.itemCount }
            bar = ProgressBar(estimatedTotal: previous?.lastScan?.walked ?? known ?? 0, root: folder.path)
        }
        var onDirectory: (@Sendable (ItemIdentifier) -> Void)?
        if bar != nil { onDirectory = { folder in currentFolder.set(folder) } }
        let summary = try CommandFailure.wrap {
            try scanner.reconcile(onDirectory: onDirectory, progress: { summary in
                bar?.draw(summary, folder: currentFolder.get())
            })
        }
        bar?.clear()
        try CommandFailure.wrap {
            var state = try index.domainState(domain) ?? DomainState(root: folder.path)
            state.lastScan = summary
            try index.setState(state, domain: domain)
        }
        return summary
    }

    /// `3 added, … 0 failed, 2 without a preview in 0.12 s`.
    static func describe(_ summary: ScanSummary) -> String {
        summary.counts + String(format: " in %.2f s", summary.seconds)
    }

    static func json(_ summary: ScanSummary, domain: String, root: String) -> JSONLine {
        var line = JSONLine()
        line.add("domain", domain)
        line.add("root", root)
        for counter in ScanSummary.counters { line.add(counter.name, summary[keyPath: counter.keyPath]) }
        line.add("seconds", (summary.seconds * 1000).rounded() / 1000)
        return line
    }
}

/// The folder the walk is in, written by the walker thread, read by the progress bar.
final class CurrentFolder: Sendable {
    private let folder = Mutex(ItemIdentifier(bytes: []))

    func set(_ path: ItemIdentifier) { folder.withLock { $0 = path } }

    func get() -> ItemIdentifier { folder.withLock { $0 } }
}
