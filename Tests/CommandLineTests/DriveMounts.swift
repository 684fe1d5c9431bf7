import Foundation
import Glibc
import SearchlightTestSupport
import Testing

/// Real mounts a test makes (it runs as root, as CI does): a tmpfs, or a loop-mounted image
/// made by `mkfs`; every mount is undone when the value goes, lazily if it is busy, so that a
/// failing test never leaves one behind.
final class DriveMounts {
    let work = TemporaryTree("drive-mounts")
    private var mounted: [String] = []
    /// FUSE servers started, with the file that makes each stop answering.
    private var servers: [(process: ChildProcess, hang: String)] = []

    deinit {
        // A server that does not answer answers again first: nothing stays stuck on it.
        for server in servers { unlink(server.hang) }
        for point in mounted.reversed() where isMounted(point) {
            if (try? ChildProcess.run(["umount", point]))?.status != 0 { _ = try? ChildProcess.run(["umount", "-l", point]) }
        }
        for server in servers where server.process.isRunning {
            server.process.terminate()
            server.process.waitUntilExit()
        }
    }

    /// The FUSE filesystem of the tests (Tests/Scripts/hanging-fs.py): `backing` shown at
    /// `point`, read-only, until the file it returns exists: then no request is answered.
    func mountFUSE(_ backing: String, at point: String) throws -> String {
        let hang = work.path + "/hang-\(UUID().uuidString)"
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scripts/hanging-fs.py").path
        let process = try ChildProcess(["/usr/bin/python3", script, backing, point, hang], stderr: .file(work.path + "/fuse.log"))
        servers.append((process, hang))
        mounted.append(point)
        #expect(waitUntil(timeout: 300) { isMounted(point) }, "the FUSE filesystem did not mount: \((try? String(contentsOfFile: work.path + "/fuse.log", encoding: .utf8)) ?? "")")
        return hang
    }

    /// A new empty folder to mount on.
    func mountPoint(_ name: String) -> String {
        let path = work.path + "/" + name
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Mounts a new tmpfs on `point`.
    func mountTmpfs(at point: String) {
        shell("mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", point)
        mounted.append(point)
    }

    /// Makes an image of `kind` (`ext4`, `vfat`, `exfat`) labelled `label`, in the work folder.
    func makeImage(_ kind: String, label: String) -> String {
        let image = work.path + "/\(label).img"
        shell("truncate", "-s", "16M", image)
        switch kind {
        case "ext4": shell("mkfs.ext4", "-q", "-F", "-L", label, image)
        case "exfat": shell("mkfs.exfat", "-L", label, image)
        default: shell("mkfs.vfat", "-n", label, image)
        }
        return image
    }

    /// Loop-mounts `image` on `point`; an exFAT image through exfat-fuse (`fuseblk`): a kernel
    /// without the vfat and exfat modules (these machines') still mounts a FAT-family drive.
    func mountImage(_ image: String, at point: String, exFAT: Bool = false) {
        shell(["mount"] + (exFAT ? ["-t", "exfat-fuse"] : []) + ["-o", "loop", image, point])
        mounted.append(point)
    }

    /// Mounts the FAT `image` on `point` as a desktop mounts a USB stick, through fusefat
    /// (Debian's FUSE FAT driver: this kernel has no vfat module): from a loop device of its
    /// own, a block device as a stick's partition is, mounted `fuseblk` from it, so that
    /// mountinfo says `fuseblk /dev/loopN` and the mount's device is the loop's (as exFAT
    /// through exfat-fuse, or NTFS through ntfs-3g). The loop device goes with the mount.
    /// fusefat shows the volume label's directory entry as a file, which vfat does not:
    /// that entry is dropped from the image first (the boot sector keeps the label).
    func mountFAT(_ image: String, at point: String) {
        Self.dropVolumeLabelEntry(of: image)
        let attached = try? ChildProcess.run(["losetup", "-f", "--show", image])
        let loop = String(decoding: attached?.stdout ?? [], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        precondition(attached?.status == 0 && loop.hasPrefix("/dev/loop"), "losetup: \(String(decoding: attached?.stderr ?? [], as: UTF8.self))")
        shell("fusefat", "-o", "rw+,blkdev,fsname=\(loop)", loop, point)
        mounted.append(point)
        // Detached once it is unmounted (autoclear: it is in use now).
        shell("losetup", "-d", loop)
    }

    /// Marks the root folder's volume label entry (attribute 0x08) of a FAT12/16 image deleted.
    static func dropVolumeLabelEntry(of image: String) {
        guard let handle = FileHandle(forUpdatingAtPath: image) else { return }
        defer { try? handle.close() }
        let boot = [UInt8](handle.readData(ofLength: 512))
        func word(_ at: Int) -> Int { Int(boot[at]) | Int(boot[at + 1]) << 8 }
        let sector = word(0x0B), fatSize = word(0x16)
        guard boot.count == 512, fatSize != 0 else { return }
        let start = UInt64((word(0x0E) + Int(boot[0x10]) * fatSize) * sector)
        try? handle.seek(toOffset: start)
        let folder = [UInt8](handle.readData(ofLength: word(0x11) * 32))
        for entry in stride(from: 0, to: folder.count, by: 32) where folder[entry] != 0 && folder[entry] != 0xE5
            && folder[entry + 11] & 0x1F == 0x08 {
            try? handle.seek(toOffset: start + UInt64(entry))
            handle.write(Data([0xE5]))
        }
    }

    /// Copies `contents` onto the FAT `image`, not mounted, as `name` (UTF-8), with mtools, as
    /// another machine's tools would write it: mtools gives a name that fits 8.3 once
    /// upper-cased (`café.txt`) a short name only, in the OEM code page (`CAF\u{90}.TXT`).
    func copyOntoFAT(_ image: String, name: String, contents: String) {
        let source = work.path + "/mtools-\(UUID().uuidString)"
        FileManager.default.createFile(atPath: source, contents: Data(contents.utf8))
        let result = try? ChildProcess.run(["mcopy", "-i", image, source, "::" + name],
                                           environment: ["LC_ALL": "C.UTF-8", "MTOOLS_SKIP_CHECK": "1"])
        precondition(result?.status == 0, "mcopy: \(String(decoding: result?.stderr ?? [], as: UTF8.self))")
    }

    /// Unmounts `point` (not lazily): the status of `umount` and what it said.
    ///
    /// "Target is busy" is tried again until `deadline`, as a person clicks eject again: a
    /// walk of the drive (a reconcile, a file read again two seconds after its write on FAT)
    /// holds a folder or file open while it runs; no descriptor stays held between them
    /// (``descriptors(of:under:)``).
    func unmount(_ point: String, deadline: TimeInterval = 60) -> (status: Int32, message: String) {
        let end = Date().addingTimeInterval(deadline)
        while true {
            let result = try? ChildProcess.run(["umount", point])
            let outcome = (result?.status ?? -1, String(decoding: result?.stderr ?? [], as: UTF8.self))
            guard outcome.0 == 32, outcome.1.contains("busy"), Date() < end else { return outcome }
            if waitUntil(timeout: 0.2, { !isMounted(point) }) { return outcome }
        }
    }

    /// Whether something is mounted on `point`, by the mount table.
    func isMounted(_ point: String) -> Bool {
        let table = (try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8)) ?? ""
        return table.split(separator: "\n").contains { $0.split(separator: " ").dropFirst(4).first.map(String.init) == point }
    }

    /// What the process `pid` holds open under `folder` (its `/proc/PID/fd` links).
    static func descriptors(of pid: Int32, under folder: String) -> [String] {
        let fds = "/proc/\(pid)/fd"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: fds)) ?? []
        return entries.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: fds + "/" + $0) }
            .filter { $0 == folder || $0.hasPrefix(folder + "/") }
    }

    /// The names `folder` lists, byte for byte (`.` and `..` left out).
    static func entryNames(_ folder: String) -> [[UInt8]] {
        guard let stream = opendir(folder) else { return [] }
        defer { closedir(stream) }
        var names: [[UInt8]] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
        }
        return names
    }

    /// Writes `contents` over the file at `path`, in place (open, truncate, write): the file
    /// keeps its entry, whatever case of its name `path` uses.
    static func overwrite(_ path: String, _ contents: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_TRUNC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let bytes = Array(contents.utf8)
        return Glibc.write(descriptor, bytes, bytes.count) == bytes.count
    }

    /// Writes `contents` at `relative` below `folder`, making folders.
    static func write(_ relative: String, _ contents: String, in folder: String) {
        let path = folder + "/" + relative
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: path, contents: Data(contents.utf8))
    }
}
