import Foundation
import Searchlight
import SearchlightFiles
import SystemCalls

/// A root of `scan` or `watch` placed on its drive: opened where its filesystem is mounted now
/// (where it was, or wherever a drive known by its UUID or label is mounted today), or
/// absent, its items kept offline (Docs/Contract.md#drives-and-mounts).
struct RootPlace {
    var root: Configuration.Root
    var domain: String
    /// The path the root is known by (its canonical path when it could be resolved).
    var path: String
    /// The root, opened; nil when its drive is not mounted.
    var folder: RootFolder?
    /// Since when it is offline.
    var offlineSince: Date?

    /// The line `scan` prints for a root whose drive is away: its items stay.
    func offlineLine(index: any FileIndexWriter) -> String {
        let count = (try? index.statistics().domains.first { $0.name == domain }?.itemCount) ?? nil
        let since = offlineSince.map { " since " + RootPlace.describe($0) } ?? ""
        let kept = count ?? 0
        return "not connected\(since) (its drive is not mounted): nothing reconciled, \(kept) \(kept == 1 ? "item" : "items") kept, shown offline"
    }

    /// A date as `status` and `scan` say it: local time, to the second.
    static func describe(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: date)
    }
}

extension RootFolder {
    /// Places the root `root`, whose folder `opened` tried to open, on its drive, and
    /// records it in `index`: online (its path and filesystem), or offline since now.
    /// - Throws: the failure of `opened` when the root is no drive that is away (a typo, a
    ///   folder deleted); an index failure as a ``CommandFailure``.
    static func placing(_ root: Configuration.Root, opened: Result<RootFolder, FileSystemError>,
                        index: any FileIndexWriter) throws -> RootPlace {
        // The user's mistake in plain words, said once (``opening(_:command:)``).
        func opening() throws -> RootFolder {
            if let folder = try? opened.get() { return folder }
            return try RootFolder.opening(root.path, command: "scan")
        }
        let given = (try? opened.get())?.path ?? (try? SystemCall.resolvedPath(root.path)) ?? absolute(root.path)
        let domain = root.domain ?? index.defaultDomain(forFolder: given)
        let presence = index.presence(ofRoot: given, domain: domain)
        var place = RootPlace(root: root, domain: domain, path: given)
        switch presence {
        case .absent:
            // A root never recorded on a drive fails as it fails (no such folder).
            guard ((try? index.domainState(domain)) ?? nil)?.volume != nil else { _ = try opening(); break }
            place.offlineSince = try CommandFailure.wrap { try index.record(presence, root: given, domain: domain) }
            return place
        case .mounted(let path, _):
            if path != given {
                // Its drive is mounted elsewhere now.
                place.folder = try RootFolder.opening(path, command: "scan")
                place.path = path
            }
        }
        place.folder = try place.folder ?? opening()
        try CommandFailure.wrap { try index.record(presence, root: place.folder!.path, domain: domain) }
        return place
    }

    /// Opens a root for `watch`; a root whose folder is missing because its drive is not
    /// mounted is watched offline, and caught up when the drive comes.
    static func watching(_ root: Configuration.Root, index: any FileIndexWriter) throws -> RootFolder {
        if let folder = try? RootFolder(path: root.path) { return folder }
        let path = absolute(root.path)
        let domain = root.domain ?? index.defaultDomain(forFolder: path)
        if let volume = ((try? index.domainState(domain)) ?? nil)?.volume, !volume.isSystemRoot,
           index.presence(ofRoot: path, domain: domain) == .absent {
            return RootFolder(offline: path)
        }
        return try RootFolder.opening(root.path, command: "watch")
    }

    /// `path` from the working folder, when relative.
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
