import Foundation
import SystemCalls

/// The filesystem a root lives on, as recorded with its domain (``DomainState/volume``): what
/// tells, later, whether that filesystem is the one mounted there now, and where it is
/// mounted when it comes back somewhere else.
///
/// A drive is known by its UUID or label where its filesystem has one (udev's
/// `/dev/disk/by-uuid` and `by-label` links, else its superblock read directly: ext2/3/4,
/// FAT and exFAT), otherwise by its type, source and mount point (a tmpfs, a share).
public struct VolumeIdentity: Codable, Sendable, Equatable {
    /// The filesystem's UUID (`1b6e…` for ext4, `4A1F-09C2` for FAT), when it has one.
    public var uuid: String?
    /// Its label (`PHOTOS`), when it has one.
    public var label: String?
    /// Its type, as `mountinfo` says it (`ext4`, `vfat`, `tmpfs`, `fuse.sshfs`).
    public var fileSystem: String
    /// What was mounted (`/dev/sdb1`, `server:/export`, `tmpfs`).
    public var source: String
    /// Where it was mounted when recorded.
    public var mountPoint: String
    /// The root's path below the filesystem's own top folder (`/` for a root that is the
    /// top of its drive): where the root is, wherever the drive is mounted next.
    public var folder: String

    /// An identity with its fields given: as decoded, or for a root whose mount is unknown.
    public init(uuid: String? = nil, label: String? = nil, fileSystem: String, source: String, mountPoint: String,
                folder: String) {
        self.uuid = uuid
        self.label = label
        self.fileSystem = fileSystem
        self.source = source
        self.mountPoint = mountPoint
        self.folder = folder
    }

    /// The identity of `mount`, for the root at `path` (below its mount point).
    public init(of mount: MountTable.Mount, path: String) {
        let names = VolumeNames.of(mount)
        let below = path == mount.mountPoint ? "" : String(path.dropFirst(mount.mountPoint == "/" ? 0 : mount.mountPoint.count))
        let top = mount.root == "/" ? "" : mount.root
        self.init(uuid: names.uuid, label: names.label, fileSystem: mount.fileSystem, source: mount.source,
                  mountPoint: mount.mountPoint, folder: top + below == "" ? "/" : top + below)
    }

    /// Whether `mount` holds this filesystem: the same UUID (or, without one, the same label)
    /// and type; a filesystem without either is the same when mounted from the same source at
    /// the same place.
    public func isHeld(by mount: MountTable.Mount) -> Bool {
        guard mount.fileSystem == fileSystem else { return false }
        if uuid != nil || label != nil {
            let names = VolumeNames.of(mount)
            if let uuid, let other = names.uuid { return uuid == other }
            if let label, let other = names.label { return label == other }
            // Names that cannot be read now (no udev links, the device not readable by
            // this user): judged as a filesystem without names.
            if names.uuid != nil || names.label != nil { return false }
        }
        return mount.source == source && mount.mountPoint == mountPoint
    }

    /// Whether it is the filesystem at the top of the tree (`/`): always there.
    public var isSystemRoot: Bool { mountPoint == "/" }

    /// The root's path on `mount`, which holds this filesystem; `nil` when `mount` shows
    /// another folder of it (a bind mount) that does not hold the root.
    public func path(on mount: MountTable.Mount) -> String? {
        let top = mount.root == "/" ? "" : mount.root
        guard folder == top || folder.hasPrefix(top + "/") || top.isEmpty else { return nil }
        let below = folder.dropFirst(top.count)
        if below.isEmpty || below == "/" { return mount.mountPoint }
        return (mount.mountPoint == "/" ? "" : mount.mountPoint) + below
    }

    /// How a person knows the drive: its label, else its UUID, else where it was mounted.
    public var name: String { label ?? uuid ?? "\(source) on \(mountPoint)" }

    /// Whether its changes may be made elsewhere, where inotify does not see them: a network
    /// filesystem or a FUSE one.
    public var isRemote: Bool { Self.isRemote(fileSystem: fileSystem) }

    /// Network and FUSE filesystem types; not `fuseblk`, a FUSE driver of a local block
    /// device (exFAT through exfat-fuse, NTFS through ntfs-3g), whose changes inotify sees.
    public static func isRemote(fileSystem: String) -> Bool {
        (fileSystem.hasPrefix("fuse") && fileSystem != "fuseblk") || ["nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "ceph", "glusterfs", "afs",
                                         "davfs", "sshfs"].contains(fileSystem)
    }
}
