import Foundation
import Synchronization
import SystemCalls

// Filesystems whose inode numbers do not survive a remount (Docs/Contract.md#removable-drives):
// FAT and exFAT make them up at each mount, FUSE filesystems hand out node ids of their own.
// A file there is known by its path, size and times: a drive mounted again must not look
// as if every file on it changed.
extension FileStatus {
    /// The devices of filesystems whose inodes are not stable, as ``RootFolder`` met them.
    private static let unstableInodeDevices = Mutex(Set<UInt64>())

    /// `statfs(2)`'s `f_type` of FAT (`MSDOS_SUPER_MAGIC`), exFAT and FUSE (which also
    /// serves `fuseblk`: exFAT through exfat-fuse, NTFS through ntfs-3g).
    static let unstableInodeFileSystems: Set<Int> = [0x4d44, 0x2011_BAB0, 0x6573_5546]

    /// Records whether the filesystem of the open folder `descriptor` on `device` keeps its
    /// inode numbers across mounts. The corresponding C function is `fstatfs(2)`.
    static func noteInodeStability(of descriptor: Int32, device: UInt64) {
        guard let type = try? SystemCall.fileSystemType(of: descriptor), unstableInodeFileSystems.contains(type) else { return }
        unstableInodeDevices.withLock { _ = $0.insert(device) }
    }

    /// Whether files on `device` are known without their inode (``noteInodeStability(of:device:)``).
    static func hasUnstableInodes(device: UInt64) -> Bool {
        unstableInodeDevices.withLock { $0.contains(device) }
    }

    /// The numbers a packed ``changeStamp`` holds: inode, size, mtime and ctime's zigzag
    /// difference from mtime; `nil` for the fixed form of older indexes or a damaged stamp.
    static func values(ofStamp stored: [UInt8]) -> [UInt64]? {
        var values: [UInt64] = []
        var value: UInt64 = 0, shift: UInt64 = 0
        for byte in stored {
            guard shift < 64 else { return nil }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 {
                values.append(value)
                (value, shift) = (0, 0)
            } else {
                shift += 7
            }
        }
        guard values.count == 4, shift == 0 else { return nil }
        return values
    }

    /// Whether `stored` is this status's stamp but for the inode: on a filesystem whose
    /// inodes are not stable (``inode`` is 0 there), a stamp written before it was known as such.
    func matchesIgnoringInode(_ stored: [UInt8]) -> Bool {
        guard inode == 0, let values = Self.values(ofStamp: stored), let own = Self.values(ofStamp: changeStamp) else {
            return false
        }
        return values.dropFirst() == own.dropFirst()
    }
}
