import Foundation
import Searchlight
import SystemCalls
import SystemPackage

/// The mounts of this process's namespace, as `/proc/self/mountinfo` lists them
/// (proc(5)): where each filesystem is mounted, its device, type and source.
///
/// What a drive's presence is judged by: a root whose recorded filesystem is not the one
/// mounted where the root lies now is offline (``VolumePresence``).
///
/// ```swift
/// let table = try MountTable.read()
/// table.mount(holding: "/media/alice/PHOTOS/2024")?.fileSystem  // "vfat"
/// ```
public struct MountTable: Sendable {
    /// One line of `mountinfo`.
    public struct Mount: Sendable, Equatable {
        /// The device, as ``FileStatus/device`` encodes it (major in the high 32 bits).
        public var device: UInt64
        /// The folder of the filesystem that is mounted (`/` unless a bind mount of a subfolder).
        public var root: String
        /// Where it is mounted.
        public var mountPoint: String
        /// The filesystem's type (`ext4`, `vfat`, `fuse.sshfs`, `nfs4`…).
        public var fileSystem: String
        /// What was mounted: a device (`/dev/sdb1`), a share (`server:/export`), or a name (`tmpfs`).
        public var source: String
    }

    /// Every mount, in the order listed (a later mount on the same point hides an earlier one).
    public var mounts: [Mount]

    /// A table of these mounts (tests build their own; ``read(_:)`` reads the machine's).
    public init(mounts: [Mount]) { self.mounts = mounts }

    /// Reads `/proc/self/mountinfo` (or `file`).
    /// - Throws: ``FileSystemError`` when it cannot be read.
    public static func read(_ file: String = "/proc/self/mountinfo") throws(FileSystemError) -> MountTable {
        let bytes = try FileSystemError.attributing("read", path: ItemIdentifier(file)) { () throws(Errno) in
            let descriptor = try SystemCall.open(Array(file.utf8), .readOnly)
            defer { SystemCall.close(descriptor) }
            return try SystemCall.readBytes(descriptor, limit: 16 << 20)
        }
        return MountTable(parsing: String(decoding: bytes, as: UTF8.self))
    }

    /// Parses the text of a `mountinfo` file; a line it cannot read is left out.
    public init(parsing text: String) {
        mounts = text.split(separator: "\n").compactMap(Self.mount(line:))
    }

    /// `36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue`
    static func mount(line: Substring) -> Mount? {
        let fields = line.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count >= 10, let separator = fields.firstIndex(of: "-"), separator >= 6,
              separator + 2 < fields.count else { return nil }
        let numbers = fields[2].split(separator: ":")
        guard numbers.count == 2, let major = UInt64(numbers[0]), let minor = UInt64(numbers[1]) else { return nil }
        return Mount(device: major << 32 | minor, root: unescaped(fields[3]), mountPoint: unescaped(fields[4]),
                     fileSystem: String(fields[separator + 1]), source: unescaped(fields[separator + 2]))
    }

    /// mountinfo writes a space, tab, newline and backslash in octal (`\040`).
    static func unescaped(_ field: Substring) -> String {
        unescaped(String(field), marker: "\\", digits: 3, radix: 8)
    }

    /// `text` with each `marker` followed by `digits` digits in `radix` made the byte they
    /// write (mountinfo's octal `\040`, udev's hexadecimal `\x20`).
    static func unescaped(_ text: String, marker: String, digits: Int, radix: Int) -> String {
        guard text.contains(marker) else { return text }
        let utf8 = Array(text.utf8), mark = Array(marker.utf8)
        var bytes: [UInt8] = []
        var index = 0
        while index < utf8.count {
            let end = index + mark.count + digits
            if end <= utf8.count, utf8[index..<index + mark.count].elementsEqual(mark),
               let value = UInt8(String(decoding: utf8[(index + mark.count)..<end], as: UTF8.self), radix: radix) {
                bytes.append(value)
                index = end
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The mount that holds `path` (absolute, canonical): the last listed whose mount point is
    /// the path or one of its folders, the longest such.
    public func mount(holding path: String) -> Mount? {
        var best: Mount?
        for mount in mounts where Self.isPath(path, at: mount.mountPoint) {
            if best == nil || mount.mountPoint.utf8.count >= best!.mountPoint.utf8.count { best = mount }
        }
        return best
    }

    /// Whether `path` is `folder` or below it.
    static func isPath(_ path: String, at folder: String) -> Bool {
        if folder == "/" { return path.hasPrefix("/") }
        return path == folder || path.hasPrefix(folder + "/")
    }
}
