import Foundation
@testable import SearchlightFiles
import Testing

/// The parts of removable drives (Docs/Contract.md#removable-drives) that need no mount: which
/// mounts are drives, their domains, exFAT's label, and stamps without inodes.
@Suite("Removable drives: mounts, names and stamps")
struct RemovableDrivesTests {
    @Test func aDriveIsAMountRightInsideAPlaceAndNotHidden() {
        let table = MountTable(parsing: """
            22 1 0:21 / / rw - ext4 /dev/root rw
            30 22 0:40 / /media/alice/NOTES rw - tmpfs tmpfs rw
            31 22 0:41 / /media/alice/deep/er rw - tmpfs tmpfs rw
            32 22 0:42 / /elsewhere/STICK rw - tmpfs tmpfs rw
            """)
        // Filesystems without a UUID or label (device major 0) are no drive to follow.
        #expect(RemovableDrives(places: ["/media/alice"]).mounted(in: table).isEmpty)
        #expect(RemovableDrives.defaultPlaces(user: "alice") == ["/media/alice", "/run/media/alice"])
    }

    @Test func aDriveIsKnownByItsUUIDElseItsLabel() {
        let volume = VolumeIdentity(uuid: "7BDF-EF2C", label: "STICK", fileSystem: "exfat", source: "/dev/sdb1",
                                    mountPoint: "/media/alice/STICK", folder: "/")
        #expect(RemovableDrives.domain(of: volume) == "removable:7BDF-EF2C")
        var labelled = volume
        labelled.uuid = nil
        #expect(RemovableDrives.domain(of: labelled) == "removable:STICK")
        labelled.label = nil
        #expect(RemovableDrives.domain(of: labelled) == nil)
        #expect(RemovableDrives.isRemovable(domain: "removable:STICK"))
        #expect(!RemovableDrives.isRemovable(domain: "/media/alice/STICK"))
    }

    @Test func exFATKeepsItsLabelInTheRootFolder() {
        var folder = [UInt8](repeating: 0, count: 96)
        folder[0] = 0x81 // the allocation bitmap comes first
        folder[32] = 0x83
        folder[33] = 5
        for (offset, unit) in "STICK".utf16.enumerated() {
            folder[34 + 2 * offset] = UInt8(unit & 0xFF)
            folder[35 + 2 * offset] = UInt8(unit >> 8)
        }
        #expect(VolumeNames.exFATLabel(in: folder) == "STICK")
        #expect(VolumeNames.exFATLabel(in: [UInt8](repeating: 0, count: 64)) == nil)
    }

    @Test func fuseblkIsALocalDrive() {
        #expect(!VolumeIdentity.isRemote(fileSystem: "fuseblk"))
        #expect(VolumeIdentity.isRemote(fileSystem: "fuse.sshfs"))
    }

    @Test func aStampReadsBackAsItsNumbers() {
        // inode 5, size 300, mtime 2 000 000 000 ns, ctime 1 ns later (zigzag 2).
        var bytes: [UInt8] = [5, 0xAC, 0x02]
        var mtime: UInt64 = 2_000_000_000
        while mtime >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: mtime) | 0x80)
            mtime >>= 7
        }
        bytes += [UInt8(mtime), 2]
        #expect(FileStatus.values(ofStamp: bytes) == [5, 300, 2_000_000_000, 2])
        #expect(FileStatus.values(ofStamp: [0x80]) == nil)
    }
}
