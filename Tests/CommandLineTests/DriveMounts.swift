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
        #expect(waitUntil { isMounted(point) }, "the FUSE filesystem did not mount: \((try? String(contentsOfFile: work.path + "/fuse.log", encoding: .utf8)) ?? "")")
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

    /// Unmounts `point` (not lazily): the status of `umount` and what it said.
    func unmount(_ point: String) -> (status: Int32, message: String) {
        let result = try? ChildProcess.run(["umount", point])
        return (result?.status ?? -1, String(decoding: result?.stderr ?? [], as: UTF8.self))
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

    /// Writes `contents` at `relative` below `folder`, making folders.
    static func write(_ relative: String, _ contents: String, in folder: String) {
        let path = folder + "/" + relative
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: path, contents: Data(contents.utf8))
    }
}
