import Foundation

/// Whether a root's filesystem is mounted now, and where the root is on it.
public enum VolumePresence: Sendable, Equatable {
    /// Mounted: the root is at `path` (where it was, or where its drive is mounted now), on `volume`.
    case mounted(path: String, volume: VolumeIdentity)
    /// Not mounted anywhere: the root's folder, if it is there, belongs to another filesystem
    /// (an empty mount point), and must not be reconciled.
    case absent

    /// Where the root recorded on `recorded` at `path` is now. Without a record (a new
    /// domain, or an index older than records) or on the system's own filesystem, the root is
    /// taken as it stands, on the filesystem that holds `path`.
    ///
    /// - Parameters:
    ///   - path: Where the root was last seen (its domain's recorded root).
    ///   - recorded: The filesystem recorded with the domain (``DomainState/volume``).
    ///   - table: The mounts now (``MountTable/read(_:)``).
    public static func locate(path: String, recorded: VolumeIdentity?,
                              table: MountTable) -> VolumePresence {
        guard let current = table.mount(holding: path) else { return .absent }
        guard let recorded, !recorded.isSystemRoot else {
            return .mounted(path: path, volume: VolumeIdentity(of: current, path: path))
        }
        if recorded.isHeld(by: current), recorded.path(on: current) == path {
            return .mounted(path: path, volume: VolumeIdentity(of: current, path: path))
        }
        // Mounted elsewhere: a drive known by its UUID or label, wherever it shows the root.
        guard recorded.uuid != nil || recorded.label != nil else { return .absent }
        for mount in table.mounts.reversed() where mount.fileSystem == recorded.fileSystem {
            guard let moved = recorded.path(on: mount), table.mount(holding: moved) == mount,
                  recorded.isHeld(by: mount) else { continue }
            return .mounted(path: moved, volume: VolumeIdentity(of: mount, path: moved))
        }
        return .absent
    }

    /// Reads the mount table and locates the root (``locate(path:recorded:table:)``); when
    /// the table cannot be read, the root is taken as it stands.
    public static func locate(path: String, recorded: VolumeIdentity?) -> VolumePresence {
        guard let table = try? MountTable.read() else {
            return .mounted(path: path, volume: recorded ?? VolumeIdentity(fileSystem: "", source: "", mountPoint: "/", folder: path))
        }
        return locate(path: path, recorded: recorded, table: table)
    }
}
