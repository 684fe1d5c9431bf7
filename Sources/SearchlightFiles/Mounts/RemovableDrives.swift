import Foundation
import SystemCalls

/// The removable drives the desktop mounted (Docs/Contract.md#removable-drives): every
/// filesystem mounted on a folder right inside one of ``places`` — UDisks2 mounts a USB stick
/// labelled `PHOTOS` at `/media/alice/PHOTOS` or `/run/media/alice/PHOTOS`.
///
/// Each drive is indexed as a domain of its own named after its filesystem's UUID, else its
/// label (``domain(of:)``: `removable:4A1F-09C2`), so that it is the same domain wherever it is
/// mounted next; a filesystem with neither (a tmpfs) is no drive to follow.
///
/// ```swift
/// let drives = RemovableDrives(places: RemovableDrives.defaultPlaces(user: "alice"))
/// for drive in drives.mounted(in: try MountTable.read()) { print(drive.domain, drive.path) }
/// ```
public struct RemovableDrives: Sendable {
    /// One drive mounted now.
    public struct Drive: Sendable, Equatable {
        /// Where it is mounted: its top folder is the domain's root.
        public var path: String
        /// The filesystem mounted there, as its domain records it.
        public var volume: VolumeIdentity
        /// ``RemovableDrives/domain(of:)``.
        public var domain: String
    }

    /// The folders drives are mounted in (canonical when they exist).
    public var places: [String]
    /// Folders indexed as roots of their own (`[[roots]]`): a drive that holds one, or lies
    /// in one, is left to it.
    public var roots: [String]

    /// Drives mounted in `places`, less those `roots` cover; paths are resolved once, here.
    ///
    /// - Parameters:
    ///   - places: The folders drives are mounted in (``defaultPlaces(user:)``); one that
    ///     does not exist is kept as given.
    ///   - roots: The configured roots, which no drive's domain may overlap.
    public init(places: [String], roots: [String] = []) {
        self.places = places.map { (try? SystemCall.resolvedPath($0)) ?? $0 }
        self.roots = roots.map { (try? SystemCall.resolvedPath($0)) ?? $0 }
    }

    /// UDisks2's folders for `user`: `/media/USER` (Debian, Ubuntu) and `/run/media/USER` (Fedora, Arch).
    ///
    /// - Parameter user: The user's login name.
    /// - Returns: The two folders, whether they exist or not.
    public static func defaultPlaces(user: String) -> [String] {
        ["/media/\(user)", "/run/media/\(user)"]
    }

    /// What every removable drive's domain starts with.
    public static let domainPrefix = "removable:"

    /// The domain of the drive `volume`: `removable:` and its UUID, else its label; `nil`
    /// for a filesystem with neither.
    ///
    /// - Parameter volume: The drive's filesystem.
    /// - Returns: `removable:UUID`, `removable:LABEL`, or `nil`.
    public static func domain(of volume: VolumeIdentity) -> String? {
        (volume.uuid ?? volume.label).map { domainPrefix + $0 }
    }

    /// Whether `domain` is a removable drive's.
    ///
    /// - Parameter domain: A domain's name.
    /// - Returns: Whether it starts with ``domainPrefix``.
    public static func isRemovable(domain: String) -> Bool { domain.hasPrefix(domainPrefix) }

    /// The drives mounted in ``places`` now, by the mount table: each mount whose mount point
    /// is a folder right inside a place and is not hidden by a later mount; one per domain.
    ///
    /// A mount inside a configured root, or holding one, is left out, as is a filesystem with
    /// neither a UUID nor a label. Nothing is opened: only the table is read.
    ///
    /// - Parameter table: The mount table, read once by the caller (``MountTable/read()``).
    /// - Returns: The drives, in the table's order.
    public func mounted(in table: MountTable) -> [Drive] {
        var drives: [Drive] = []
        for mount in table.mounts {
            let parent = (mount.mountPoint as NSString).deletingLastPathComponent
            guard places.contains(parent), table.mount(holding: mount.mountPoint) == mount,
                  !roots.contains(where: { MountTable.isPath($0, at: mount.mountPoint) || MountTable.isPath(mount.mountPoint, at: $0) })
            else { continue }
            let volume = VolumeIdentity(of: mount, path: mount.mountPoint)
            guard let domain = Self.domain(of: volume), !drives.contains(where: { $0.domain == domain }) else { continue }
            drives.append(Drive(path: mount.mountPoint, volume: volume, domain: domain))
        }
        return drives
    }
}

extension FileIndexWriter {
    /// The removable drives' domains of this machine (``localRoots()``) that are not mounted
    /// and were last seen more than `days` days before `now`: what ``dropRemovableDomains(_:)``
    /// forgets. A drive offline since an unknown date is kept.
    ///
    /// - Parameters:
    ///   - days: How long a drive may stay away before its items are forgotten.
    ///   - now: The instant the days are counted back from.
    /// - Returns: Each such domain, by name, with its state.
    /// - Throws: The index's error when the domains' states cannot be read.
    public func removableDomains(offlineLongerThan days: Int, now: Date = Date()) throws -> [(domain: String, state: DomainState)] {
        let limit = now.addingTimeInterval(-Double(days) * 86_400)
        return try localRoots().keys.sorted().compactMap { domain in
            guard RemovableDrives.isRemovable(domain: domain), let state = try domainState(domain),
                  let since = state.offlineSince, since <= limit else { return nil }
            return (domain, state)
        }
    }

    /// Deletes every item of `domains` and their records. Returns the number of items deleted.
    ///
    /// A domain that is no removable drive's is left alone, whatever the list says.
    ///
    /// - Parameter domains: The domains to forget, as ``removableDomains(offlineLongerThan:now:)`` gave them.
    /// - Returns: The number of items deleted.
    /// - Throws: The index's error when it cannot be written; then nothing is deleted.
    @discardableResult
    public func dropRemovableDomains(_ domains: [String]) throws -> Int {
        try deleteAllItems(inDomains: domains.filter(RemovableDrives.isRemovable(domain:)))
    }
}
