import ArgumentParser
import Foundation
import Searchlight
import SearchlightFiles

struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Reconcile a folder into the index once, then exit.",
        discussion: """
            Adds new files, re-inspects changed ones (size, mtime, ctime or inode differ), \
            removes vanished ones and skips unchanged ones. Prints a summary.
            """
    )

    @Argument(help: "The folder to index.")
    var root: String

    @Option(help: ArgumentHelp("The domain of the folder's items (default: its canonical path).", valueName: "name"))
    var domain: String?

    @OptionGroup var thumbnails: ThumbnailOptions

    @Flag(help: "Print the summary as JSON.")
    var json = false

    @OptionGroup var indexOptions: IndexOptions

    func run() throws {
        let logger = indexOptions.logger
        let rootFolder = try CommandFailure.wrap { try RootFolder(path: root) }
        let index = try indexOptions.openForWriting()
        let domain = self.domain ?? rootFolder.path
        var options = FolderScanner.Options(domain: domain)
        options.walk.excluded = IndexFiles.relativePaths(of: index.path, below: rootFolder)
        let thumbnailer = try thumbnails.makeThumbnailer(workers: options.inspectorCount, logger: logger)
        defer { thumbnailer?.shutdown() }
        let scanner = FolderScanner(index: index, root: rootFolder, options: options, logger: logger,
                                    enricher: thumbnailer?.enricher)
        let previous = try CommandFailure.wrap { try index.domainState(domain) }
        try CommandFailure.wrap {
            try index.setState(DomainState(root: rootFolder.path, lastScan: previous?.lastScan,
                                           watch: previous?.watch).json, domain: domain)
        }
        var bar: ProgressBar?
        if ProgressBar.isTerminal {
            let known = try CommandFailure.wrap { try index.statistics().domains.first { $0.name == domain }?.itemCount }
            bar = ProgressBar(estimatedTotal: known ?? 0)
        }
        let summary = try CommandFailure.wrap {
            try scanner.reconcile(progress: { summary in bar?.draw(summary) })
        }
        bar?.clear()
        try CommandFailure.wrap {
            var state = try index.domainState(domain) ?? DomainState(root: rootFolder.path)
            state.lastScan = summary
            try index.setState(state.json, domain: domain)
        }
        let output = StandardOutput()
        if json {
            var line = JSONLine()
            line.add("domain", domain)
            line.add("root", rootFolder.path)
            line.add("added", summary.added)
            line.add("updated", summary.updated)
            line.add("removed", summary.removed)
            line.add("unchanged", summary.unchanged)
            line.add("failed", summary.failed)
            line.add("seconds", (summary.seconds * 1000).rounded() / 1000)
            output.write(line.finished + [0x0A])
        } else {
            output.write(String(format: "%@: %d added, %d updated, %d removed, %d unchanged, %d failed in %.2f s\n",
                                rootFolder.path, summary.added, summary.updated, summary.removed,
                                summary.unchanged, summary.failed, summary.seconds))
        }
        output.flush()
    }
}
