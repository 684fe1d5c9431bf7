import ArgumentParser
import ExtractionProtocol
import Foundation
import Searchlight
import SearchlightFiles
import SearchlightJSON
import SystemCalls

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Items per domain, index size, last scan, failures and watch health."
    )

    @Flag(help: "Print the status as one JSON object.")
    var json = false

    @Flag(help: "List the files indexed without a preview and the files that could not be indexed, with reasons.")
    var failures = false

    @OptionGroup var indexOptions: IndexOptions

    func run() throws {
        let index = try indexOptions.openForReading()
        let statistics = try CommandFailure.wrap { try index.statistics() }
        let states = try CommandFailure.wrap { try index.domainStates() }
        let output = StandardOutput()
        if failures {
            try listFailures(index, output: output)
        } else if json {
            let object = SandboxSupport.current.adding(to: StatusJSON.object(for: statistics, states: states))
            let meaning = MeaningStatus(index: index, configuration: fileConfiguration)
            output.write(meaning.adding(to: OCRMarks(index: index).addingQueue(to: object, languages: ocrLanguages)) + [0x0A])
        } else {
            let kinds = try failureKinds(index, statistics)
            output.write("index: \(statistics.path) (\(Self.megabytes(statistics.byteCount)))\n")
            if let pending = OCRMarks(index: index).pendingCount { output.write("ocr queue: \(pending) pictures waiting\n") }
            output.write(ocrLanguages.line)
            output.write(MeaningStatus(index: index, configuration: fileConfiguration).line)
            output.write(SandboxSupport.current.line)
            output.write(Self.resetLine(index))
            if statistics.domains.isEmpty { output.write("no domains: run `searchlight scan FOLDER`\n") }
            let configured = configuredRoots
            var keepOfflineDays: Int?
            for domain in statistics.domains {
                output.write(describe(domain, state: states[domain.name], index: statistics.path,
                                      failures: kinds[domain.name] ?? [:]))
                if RemovableDrives.isRemovable(domain: domain.name) {
                    keepOfflineDays = keepOfflineDays ?? fileConfiguration.keepOfflineDays.value
                    output.write("  origin:      a removable drive ([removable] index); kept \(keepOfflineDays!) days "
                        + "while not connected, then forgotten\n")
                } else if let root = states[domain.name]?.root, let configured, !configured.contains(root) {
                    output.write("  origin:      scanned by hand; plain `scan` and `watch` refresh it "
                        + "(`searchlight remove \(root)` forgets it)\n")
                }
            }
        }
        output.flush()
    }

    /// The configuration file as it is (`status` reports, it does not check the configuration).
    var fileConfiguration: Configuration {
        Configuration.load(explicit: nil, environment: ProcessInfo.processInfo.environment)
    }

    /// OCR's language packs, with the configuration's `ocr-languages` (the defaults when the
    /// file cannot be read: `status` reports, it does not check the configuration).
    var ocrLanguages: OCRLanguageStatus {
        let configuration = Configuration.load(explicit: nil, environment: ProcessInfo.processInfo.environment)
        return OCRLanguageStatus(configured: configuration.ocrLanguageList)
    }

    /// The configured roots, canonical; `nil` when the file has a mistake and no roots could be
    /// read (`status` reports, it does not check the configuration: it then says nothing of
    /// where a domain came from).
    var configuredRoots: Set<String>? {
        let configuration = Configuration.load(explicit: nil, environment: ProcessInfo.processInfo.environment)
        if configuration.roots.isEmpty && !configuration.problems.isEmpty { return nil }
        return Set(configuration.roots.map { (try? SystemCall.resolvedPath($0.path)) ?? $0.path })
    }

    static func megabytes(_ bytes: Int64) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }

    /// The recorded failures of each domain, counted by kind.
    func failureKinds(_ index: any FileIndexWriter, _ statistics: IndexStatistics) throws -> [String: [ExtractionFailure.Reason: Int]] {
        var kinds: [String: [ExtractionFailure.Reason: Int]] = [:]
        for domain in statistics.domains where domain.failureCount > 0 {
            let recorded = try CommandFailure.wrap { try index.failures(domain: domain.name, limit: domain.failureCount) }
            for failure in recorded { kinds[domain.name, default: [:]][ExtractionFailure(stored: failure.reason).reason, default: 0] += 1 }
        }
        return kinds
    }

    /// `status --failures`: one line per failure, `domain<TAB>kind<TAB>path: reason`.
    func listFailures(_ index: any FileIndexWriter, output: StandardOutput) throws {
        let recorded = try CommandFailure.wrap { try index.failures(limit: Int(Int32.max)) }
        if recorded.isEmpty && !json { output.write("no failures\n") }
        for failure in recorded {
            let parsed = ExtractionFailure(stored: failure.reason)
            if json {
                var line = JSONLine()
                line.add("domain", failure.domain)
                line.add("id", bytes: failure.identifier.bytes)
                line.add("kind", parsed.reason.name)
                line.add("indexed", parsed.isIndexed)
                line.add("reason", parsed.message)
                output.write(line.finished + [0x0A])
            } else {
                output.write("\(failure.domain)\t\(parsed.reason.label)\t")
                output.write(failure.identifier.bytes)
                output.write(": \(parsed.message)\n")
            }
        }
    }

    /// `index`: the index's path, next to which a running watch holds its ``WatchLock``.
    func describe(_ domain: IndexStatistics.Domain, state: DomainState?, index: String,
                  failures: [ExtractionFailure.Reason: Int]) -> String {
        var text = "\n\(domain.name)\n"
        if let root = state?.root, root != domain.name { text += "  root:        \(root)\n" }
        text += "  items:       \(domain.itemCount) (\(domain.thumbnailCount) with thumbnails)\n"
        if let volume = state?.volume, !volume.isSystemRoot {
            // A removable drive's domain is its UUID: the label says which drive it is.
            let removable = RemovableDrives.isRemovable(domain: domain.name)
            text += (removable ? "  removable:   " : "  drive:       ") + "\(volume.name) (\(volume.fileSystem))"
            if let since = state?.offlineSince {
                text += ", offline since \(RootPlace.describe(since)): not connected, its items are kept and shown offline"
            } else {
                text += ", connected"
            }
            if let since = state?.unreachableSince {
                text += ", unreachable since \(RootPlace.describe(since)) (its server does not answer; the other roots go on)"
            }
            if volume.isRemote {
                text += "; a network or FUSE filesystem: changes made elsewhere are found by a reconcile every rescan interval"
            }
            text += "\n"
        }
        let failed = failures[.unreadable] ?? 0
        text += "  failures:    \(failed) failed, \(domain.failureCount - failed) without a preview"
        let kinds = ExtractionFailure.Reason.allCases.compactMap { kind in failures[kind].map { "\($0) \(kind.label)" } }
        if !kinds.isEmpty { text += " (\(kinds.joined(separator: ", ")); see status --failures)" }
        text += "\n"
        text += "  last scan:   \(domain.lastUpdateDate.map { $0.formatted(.iso8601) } ?? "never completed")"
        if let scan = state?.lastScan {
            text += " (\(ScanCommand.describe(scan)))"
        }
        text += "\n"
        if let watch = state?.watch {
            let alive = WatchLock.isHeld(index: index, domain: domain.name)
            text += "  watch:       \(alive ? "running (pid \(watch.pid))" : "not running (last pid \(watch.pid))")"
            if alive && watch.paused { text += ", paused (searchlight resume)" }
            if alive, let backoff = watch.backoff { text += ", backing off (\(backoff))" }
            text += ", updated \(watch.updated.formatted(.iso8601))\n"
            if alive { text += Self.faultLine(index: index, domain: domain.name) }
            text += "  watches:     \(watch.watchesUsed) used / \(watch.watchLimit.map(String.init) ?? "unknown") limit\n"
            text += "  pending:     \(watch.pendingChanges) changes\n"
            text += "  overflows:   \(watch.overflows)\n"
            text += "  self-check:  repaired \(watch.selfCheckRepairs ?? 0) items since start"
            text += watch.lastSelfCheck.map { " (last run \($0.formatted(.iso8601)))\n" } ?? " (not run yet)\n"
            if watch.degradedSubtrees.isEmpty {
                text += "  degraded:    none\n"
            } else {
                text += "  degraded:    \(watch.degradedSubtrees.count) unwatched folders, rescanned periodically "
                text += "(raise fs.inotify.max_user_watches)\n"
                for subtree in watch.degradedSubtrees.prefix(10) { text += "               \(subtree)\n" }
            }
        }
        return text
    }
}
