import Foundation
import Searchlight
import SearchlightFiles

/// The JSON object of the index's status, as `searchlight status --json` prints it and
/// `/api/status` answers it.
///
/// One home for the object, so that the command and the server cannot drift apart: both
/// read the index's ``Searchlight/IndexStatistics`` and the file indexer's domain states, and
/// hand them here. Dates are ISO 8601 strings; an absent value is `null`, never a missing key.
///
/// ```swift
/// let bytes = StatusJSON.object(for: try index.statistics(), states: try index.domainStates())
/// FileHandle.standardOutput.write(Data(bytes))
/// ```
public enum StatusJSON {
    /// `{"index":…,"bytes":…,"items":…,"domains":[…]}`: the library's counts, and the file
    /// indexer's `states` of the domains (``FileIndexReader/domainStates()``).
    ///
    /// - Parameters:
    ///   - statistics: What the index holds, per domain.
    ///   - states: The file indexer's state of each domain, by name; a domain without one
    ///     has `null` for its root and watch.
    /// - Returns: The object's UTF-8 bytes, on one line, without a newline.
    public static func object(for statistics: IndexStatistics, states: [String: DomainState]) -> [UInt8] {
        var line = JSONLine()
        line.add("index", statistics.path)
        line.add("bytes", statistics.byteCount)
        line.add("items", statistics.domains.reduce(0) { $0 + $1.itemCount })
        var bytes = Array(line.finished.dropLast())
        bytes += Array(",\"domains\":[".utf8)
        for (position, domain) in statistics.domains.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += self.domain(domain, state: states[domain.name], index: statistics.path).finished
        }
        bytes += Array("]}".utf8)
        return bytes
    }

    /// One domain: items, failures, thumbnails, last scan, root and watch health.
    ///
    /// `drive` describes the drive of a root that is not on the system's root file system;
    /// `watch.running` is read from the domain's ``SearchlightFiles/WatchLock`` (a lock the
    /// kernel releases with its process), not from the recorded process id, which may have
    /// been reused. `lastScan` is the domain's last update date.
    ///
    /// - Parameters:
    ///   - domain: The domain's counts.
    ///   - state: The file indexer's state of it, if any.
    ///   - index: The index's path, which names the domain's watch lock.
    /// - Returns: The domain's object, to be finished or nested.
    public static func domain(_ domain: IndexStatistics.Domain, state: DomainState?, index: String) -> JSONLine {
        var line = JSONLine()
        line.add("name", domain.name)
        line.add("root", state?.root)
        line.add("items", domain.itemCount)
        line.add("failures", domain.failureCount)
        line.add("thumbnails", domain.thumbnailCount)
        line.add("lastScan", domain.lastUpdateDate)
        var drive: JSONLine?
        if let volume = state?.volume, !volume.isSystemRoot {
            var object = JSONLine()
            object.add("uuid", volume.uuid)
            object.add("label", volume.label)
            object.add("fileSystem", volume.fileSystem)
            object.add("source", volume.source)
            object.add("mountPoint", volume.mountPoint)
            object.add("remote", volume.isRemote)
            object.add("removable", RemovableDrives.isRemovable(domain: domain.name))
            drive = object
        }
        line.add("drive", object: drive)
        line.add("offline", state?.offlineSince != nil)
        line.add("offlineSince", state?.offlineSince)
        line.add("unreachableSince", state?.unreachableSince)
        var watch: JSONLine?
        if let health = state?.watch {
            var object = JSONLine()
            object.add("pid", Int(health.pid))
            // The lock a running watch holds tells, not a PID that may have been reused.
            object.add("running", WatchLock.isHeld(index: index, domain: domain.name))
            object.add("updated", health.updated)
            object.add("watchesUsed", health.watchesUsed)
            object.add("watchLimit", health.watchLimit)
            object.add("pendingChanges", health.pendingChanges)
            object.add("overflows", health.overflows)
            object.add("selfCheckRepairs", health.selfCheckRepairs ?? 0)
            object.add("lastSelfCheck", health.lastSelfCheck)
            object.add("paused", health.paused)
            object.add("backoff", health.backoff)
            object.add("degradedSubtrees", strings: health.degradedSubtrees)
            watch = object
        }
        line.add("watch", object: watch)
        return line
    }
}
