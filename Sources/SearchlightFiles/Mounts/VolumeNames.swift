import Foundation
import Searchlight
import SystemCalls

/// A filesystem's UUID and label: from udev's `/dev/disk/by-uuid` and `/dev/disk/by-label`
/// links when they name the mount's device, else read from the device's superblock (ext2/3/4,
/// FAT12/16/32, exFAT), which needs the right to read the device. Filesystems without a
/// device (tmpfs, FUSE, network shares) have neither.
struct VolumeNames: Equatable {
    var uuid: String?
    var label: String?

    static func of(_ mount: MountTable.Mount) -> VolumeNames {
        // A device number with major 0 is no block device (tmpfs, FUSE, NFS, overlay).
        guard mount.device >> 32 != 0 else { return VolumeNames() }
        var names = VolumeNames(uuid: link(in: "/dev/disk/by-uuid", to: mount.device),
                                label: link(in: "/dev/disk/by-label", to: mount.device).map(udevUnescaped))
        if names.uuid == nil, let device = devicePath(of: mount), let read = superblock(of: device) {
            names.uuid = read.uuid
            names.label = names.label ?? read.label
        }
        return names
    }

    /// The name of the link in `folder` that leads to the block device `device`.
    static func link(in folder: String, to device: UInt64) -> String? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        for entry in entries.sorted() {
            guard let target = try? SystemCall.status(followingLinksOf: folder + "/" + entry),
                  target.st_mode & S_IFMT == S_IFBLK else { continue }
            if number(UInt64(target.st_rdev)) == device { return entry }
        }
        return nil
    }

    /// A `dev_t` as ``FileStatus/device`` encodes it (glibc's `major`/`minor` split).
    static func number(_ device: UInt64) -> UInt64 {
        let major = (device >> 8) & 0xFFF | (device >> 32) & ~UInt64(0xFFF)
        let minor = device & 0xFF | (device >> 12) & ~UInt64(0xFF)
        return major << 32 | minor & 0xFFFF_FFFF
    }

    /// udev writes a label's unsafe bytes as `\x20`.
    static func udevUnescaped(_ name: String) -> String {
        MountTable.unescaped(name, marker: "\\x", digits: 2, radix: 16)
    }

    /// The device file of the mount: sysfs's name for its number (`/sys/dev/block/7:0/uevent`
    /// → `DEVNAME=loop0`), else the source when it is a device file of that number.
    static func devicePath(of mount: MountTable.Mount) -> String? {
        let number = "\(mount.device >> 32):\(mount.device & 0xFFFF_FFFF)"
        if let uevent = try? String(contentsOfFile: "/sys/dev/block/\(number)/uevent", encoding: .utf8),
           let line = uevent.split(separator: "\n").first(where: { $0.hasPrefix("DEVNAME=") }) {
            return "/dev/" + line.dropFirst("DEVNAME=".count)
        }
        return mount.source.hasPrefix("/dev/") ? mount.source : nil
    }

    /// The UUID and label in the superblock of the device at `path`, for the filesystems
    /// whose layout is known here; `nil` when it cannot be read or is of another kind.
    static func superblock(of path: String) -> VolumeNames? {
        guard let descriptor = try? SystemCall.open(Array(path.utf8), .readOnly) else { return nil }
        defer { SystemCall.close(descriptor) }
        guard let bytes = try? SystemCall.readBytes(descriptor, limit: 2048, at: 0), bytes.count == 2048 else { return nil }
        if var names = exFAT(bytes) {
            // exFAT keeps its label in the root folder: its first cluster is read.
            if let (offset, length) = exFATRootFolder(bytes),
               let folder = try? SystemCall.readBytes(descriptor, limit: length, at: offset) {
                names.label = exFATLabel(in: folder)
            }
            return names
        }
        return ext(bytes) ?? fat(bytes)
    }

    /// Where exFAT's root folder starts and its first cluster's size (at most 64 KiB read):
    /// the cluster heap's offset in sectors at 0x58, the root's first cluster at 0x60, the
    /// shifts of bytes per sector and sectors per cluster at 0x6C and 0x6D.
    static func exFATRootFolder(_ bytes: [UInt8]) -> (offset: Int64, length: Int)? {
        func word(_ at: Int) -> UInt64 { (0..<4).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) } }
        let heap = word(0x58), cluster = word(0x60)
        let sectorShift = UInt64(bytes[0x6C]), clusterShift = UInt64(bytes[0x6D])
        guard cluster >= 2, (9...12).contains(sectorShift), clusterShift <= 25 else { return nil }
        let offset = (heap + ((cluster - 2) << clusterShift)) << sectorShift
        return (Int64(offset), min(1 << Int(sectorShift + clusterShift), 65_536))
    }

    /// The volume label entry (type 0x83) of an exFAT folder: its length at 1, UTF-16LE from 2.
    static func exFATLabel(in folder: [UInt8]) -> String? {
        var at = 0
        while at + 32 <= folder.count, folder[at] != 0 {
            if folder[at] == 0x83 {
                let count = min(Int(folder[at + 1]), 11)
                let units = (0..<count).map { UInt16(folder[at + 2 + 2 * $0]) | UInt16(folder[at + 3 + 2 * $0]) << 8 }
                let label = String(decoding: units, as: UTF16.self)
                return label.isEmpty ? nil : label
            }
            at += 32
        }
        return nil
    }

    /// ext2/3/4: the superblock at 1024, magic 0xEF53 at 0x38, UUID at 0x68, label at 0x78.
    static func ext(_ bytes: [UInt8]) -> VolumeNames? {
        let base = 1024
        guard bytes[base + 0x38] == 0x53, bytes[base + 0x39] == 0xEF else { return nil }
        let uuid = bytes[base + 0x68..<base + 0x78]
        return VolumeNames(uuid: uuid.allSatisfy { $0 == 0 } ? nil : formatted(uuid), label: text(bytes[base + 0x78..<base + 0x88]))
    }

    /// exFAT: `EXFAT   ` at 3, the volume serial number at 0x64 (the label is in the root folder).
    static func exFAT(_ bytes: [UInt8]) -> VolumeNames? {
        guard bytes[3..<11].elementsEqual("EXFAT   ".utf8) else { return nil }
        return VolumeNames(uuid: serial(bytes, at: 0x64), label: nil)
    }

    /// FAT12/16/32: the boot sector's extended parameters (signature 0x29) hold the serial
    /// number and label, at 0x27/0x2B, or 0x43/0x47 on FAT32 (no 16-bit FAT size at 0x16).
    static func fat(_ bytes: [UInt8]) -> VolumeNames? {
        guard bytes[510] == 0x55, bytes[511] == 0xAA else { return nil }
        let isFAT32 = bytes[0x16] == 0 && bytes[0x17] == 0
        let signature = isFAT32 ? 0x42 : 0x26
        guard bytes[signature] == 0x29 || bytes[signature] == 0x28 else { return nil }
        let serialAt = signature + 1
        let label = bytes[signature] == 0x29 ? text(bytes[serialAt + 4..<serialAt + 15]) : nil
        return VolumeNames(uuid: serial(bytes, at: serialAt), label: label == "NO NAME" ? nil : label)
    }

    /// A little-endian 32-bit serial number as blkid writes it: `4A1F-09C2`.
    static func serial(_ bytes: [UInt8], at offset: Int) -> String? {
        let value = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
        guard value != 0 else { return nil }
        return String(format: "%04X-%04X", value >> 16, value & 0xFFFF)
    }

    /// 16 bytes as `8-4-4-4-12` lowercase hex.
    static func formatted(_ uuid: ArraySlice<UInt8>) -> String {
        let hex = Hexadecimal.lowercase(uuid)
        var parts: [Substring] = []
        var start = hex.startIndex
        for length in [8, 4, 4, 4, 12] {
            let end = hex.index(start, offsetBy: length)
            parts.append(hex[start..<end])
            start = end
        }
        return parts.joined(separator: "-")
    }

    /// A label field: padded with NULs or spaces; `nil` when empty.
    static func text(_ field: ArraySlice<UInt8>) -> String? {
        let bytes = field.prefix { $0 != 0 }
        let label = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return label.isEmpty ? nil : label
    }
}
