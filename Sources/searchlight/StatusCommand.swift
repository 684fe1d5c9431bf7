import ArgumentParser
import Foundation
import Searchlight
import SearchlightFiles

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Items per domain, index size, last scan, failures and watch health."
    )

    @Flag(help: "Print the status as one JSON object.")
    var json = false

    @OptionGroup var indexOptions: IndexOptions

    func run() throws {
        let index = try indexOptions.openForReading()
        let statistics = try CommandFailure.wrap { try index.statistics() }
        let output = StandardOutput()
        if json {
            var line = JSONLine()
            line.add("index", statistics.path)
            line.add("bytes", statistics.byteCount)
            line.add("items", statistics.domains.reduce(0) { $0 + $1.itemCount })
            output.write(line.finished.dropLast())
            output.write(",\"domains\":[")
            for (position, domain) in statistics.domains.enumerated() {
                if position > 0 { output.write(",") }
                output.write(domainJSON(domain).finished)
            }
            output.write("]}\n")
        } else {
            output.write("index: \(statistics.path) (\(Self.megabytes(statistics.byteCount)))\n")
            if statistics.domains.isEmpty { output.write("no domains: run `searchlight scan FOLDER`\n") }
            for domain in statistics.domains {
                output.write(describe(domain))
            }
        }
        output.flush()
    }

    static func megabytes(_ bytes: Int64) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }

    func describe(_ domain: IndexStatistics.Domain) -> String {
        let state = DomainState(json: domain.state)
        var text = "\n\(domain.name)\n"
        if let root = state?.root, root != domain.name { text += "  root:        \(root)\n" }
        text += "  items:       \(domain.itemCount) (\(domain.thumbnailCount) with thumbnails)\n"
        text += "  failures:    \(domain.failureCount)\n"
        text += "  last scan:   \(domain.lastUpdateDate.map { $0.formatted(.iso8601) } ?? "never completed")"
        if let scan = state?.lastScan {
            text += String(format: " (%d added, %d updated, %d removed, %d unchanged, %d failed in %.2f s)",
                           scan.added, scan.updated, scan.removed, scan.unchanged, scan.failed, scan.seconds)
        }
        text += "\n"
        if let watch = state?.watch {
            let alive = watch.running && kill(watch.pid, 0) == 0
            text += "  watch:       \(alive ? "running (pid \(watch.pid))" : "not running (last pid \(watch.pid))")"
            text += ", updated \(watch.updated.formatted(.iso8601))\n"
            text += "  watches:     \(watch.watchesUsed) used / \(watch.watchLimit.map(String.init) ?? "unknown") limit\n"
            text += "  pending:     \(watch.pendingChanges) changes\n"
            text += "  overflows:   \(watch.overflows)\n"
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

    func domainJSON(_ domain: IndexStatistics.Domain) -> JSONLine {
        let state = DomainState(json: domain.state)
        var line = JSONLine()
        line.add("name", domain.name)
        line.add("root", state?.root)
        line.add("items", domain.itemCount)
        line.add("failures", domain.failureCount)
        line.add("thumbnails", domain.thumbnailCount)
        line.add("lastScan", domain.lastUpdateDate)
        var watch: JSONLine?
        if let health = state?.watch {
            var object = JSONLine()
            object.add("pid", Int(health.pid))
            object.add("running", health.running && kill(health.pid, 0) == 0)
            object.add("updated", health.updated)
            object.add("watchesUsed", health.watchesUsed)
            object.add("watchLimit", health.watchLimit)
            object.add("pendingChanges", health.pendingChanges)
            object.add("overflows", health.overflows)
            object.add("degradedSubtrees", strings: health.degradedSubtrees)
            watch = object
        }
        line.add("watch", object: watch)
        return line
    }
}
