import Foundation
import Glibc
import SearchlightTestSupport
import Testing

/// Removable drives indexed automatically (`[removable] index = true`,
/// Docs/Contract.md#removable-drives), with real exFAT images loop-mounted in a "media" folder of
/// the test's own (`[removable] places`): each drive a domain of its own keyed by its UUID,
/// picked up when mounted, kept offline, found again wherever it is mounted, forgotten after
/// `keep-offline-days`. exFAT is mounted through exfat-fuse: these machines' kernel has no
/// vfat or exfat module. Its inode numbers last one mount, as FAT's do.
@Suite("removable drives", .serialized, .ownThread)
struct RemovableDriveTests {
    let work = TemporaryTree("removable-index")

    /// A media folder at `relative` in `mounts`' work folder, and a configuration that
    /// indexes the drives mounted in it, kept `days` days offline.
    func places(_ relative: String, in mounts: DriveMounts, days: Int = 3) -> (media: String, config: String) {
        let media = mounts.mountPoint(relative)
        return (media, configuration(media: media, days: days))
    }

    /// A drive image of `kind` labelled `label`, not mounted yet, the index file `name`, a
    /// configuration that indexes the drives mounted in `media` (``places(_:in:days:)``), and,
    /// when asked, a `searchlight watch` of them, stopped when the value goes.
    final class Drive {
        let mounts: DriveMounts
        let index: String
        let config: String
        let image: String
        var watch: ChildProcess?
        var log = ""

        init(mounts: DriveMounts, index: String, config: String, image: String) {
            (self.mounts, self.index, self.config, self.image) = (mounts, index, config, image)
        }

        deinit {
            watch?.terminate()
            watch?.waitUntilExit()
        }
    }

    func makeDrive(_ kind: String, label: String, media: String, index name: String, watching: Bool = false) throws -> Drive {
        let mounts = DriveMounts()
        let drive = Drive(mounts: mounts, index: work.path + "/\(name).sqlite", config: places(media, in: mounts).config,
                          image: mounts.makeImage(kind, label: label))
        if watching { (drive.watch, drive.log) = try startWatch(index: drive.index, config: drive.config) }
        return drive
    }

    func configuration(media: String, days: Int, roots: [String] = []) -> String {
        let file = work.path + "/config-\(UUID().uuidString).toml"
        FileManager.default.createFile(atPath: file, contents: Data((roots.map { "[[roots]]\npath = \"\($0)\"\n" }.joined() + """
            [removable]
            index = true
            places = ["\(media)"]
            keep-offline-days = \(days)

            """).utf8))
        return file
    }

    func run(_ arguments: [String], index: String, config: String) throws -> CommandResult {
        try Searchlight.run(arguments, index: index, environment: ["SEARCHLIGHT_CONFIG": config])
    }

    func listed(_ index: String, config: String) -> Set<String> {
        Set((try? run(["list"], index: index, config: config).lines) ?? [])
    }

    /// Starts `searchlight watch` without folders, its log in a file, and waits until it
    /// watches for drives.
    func startWatch(index: String, config: String, extra: [String] = []) throws -> (ChildProcess, String) {
        let log = work.path + "/watch-\(UUID().uuidString).log"
        let process = try ChildProcess([Searchlight.binary, "watch", "--no-thumbnails"] + extra + Searchlight.busyMachine,
                                       environment: Searchlight.environment(index: index, extra: [
                                           "SEARCHLIGHT_CONFIG": config,
                                           "SEARCHLIGHT_PRESSURE_ROOT": work.path + "/no-pressure"]),
                                       stderr: .file(log))
        #expect(waitUntil { Self.text(log).contains("watching for removable drives") }, "\(Self.text(log))")
        return (process, log)
    }

    static func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    @Test func aDriveMountedWhileWatchingIsIndexedKeptOfflineAndCaughtUpWhereverItIsMountedAgain() throws {
        let drive = try makeDrive("exfat", label: "STICK", media: "media/alice", index: "watch", watching: true)
        defer { withExtendedLifetime(drive) {} }
        let (mounts, index, config, image, watch, log) = (drive.mounts, drive.index, drive.config, drive.image, drive.watch!, drive.log)
        // Plugged in: picked up and indexed, a domain of its own.
        let first = mounts.mountPoint("media/alice/STICK")
        mounts.mountImage(image, at: first, exFAT: true)
        DriveMounts.write("boat.txt", "harbour words\n", in: first)
        DriveMounts.write("Docs/Ledger.txt", "ledger words\n", in: first)
        #expect(waitUntil { listed(index, config: config) == [first + "/boat.txt", first + "/Docs/Ledger.txt"] },
                "\(listed(index, config: config)) \(Self.text(log))")
        #expect(Self.text(log).contains("a new removable drive: STICK at \(first), indexed as removable:"), "\(Self.text(log))")
        let status = try run(["status"], index: index, config: config).output
        #expect(status.contains("removable:   STICK (fuseblk), connected"), "\(status)")
        let json = try JSONSerialization.jsonObject(with: Data(run(["status", "--json"], index: index, config: config).stdout))
        let domains = (json as? [String: Any])?["domains"] as? [[String: Any]] ?? []
        let described = domains.first { ($0["name"] as? String)?.hasPrefix("removable:") == true }?["drive"] as? [String: Any]
        #expect(described?["label"] as? String == "STICK")
        #expect(described?["removable"] as? Bool == true)
        // Paused and resumed with the rest of the watch; status says so of the drive too.
        let paused = try run(["pause"], index: index, config: config)
        #expect(paused.status == 0, "\(paused.stderr)")
        #expect(waitUntil { (try? run(["status"], index: index, config: config).output)?.contains("paused (searchlight resume)") == true })
        #expect(try run(["resume"], index: index, config: config).status == 0)
        // Names differ in case alone on FAT: a rename that changes only the case is followed.
        #expect(rename(first + "/boat.txt", first + "/Boat.txt") == 0)
        #expect(waitUntil { listed(index, config: config) == [first + "/Boat.txt", first + "/Docs/Ledger.txt"] },
                "\(listed(index, config: config))")
        // Ejected: at once, its items kept and shown offline.
        #expect(DriveMounts.descriptors(of: watch.processIdentifier, under: first) == [])
        let unmount = mounts.unmount(first)
        #expect(unmount.status == 0, "umount: \(unmount.message)")
        // UDisks2 removes the folder it mounted on.
        rmdir(first)
        #expect(waitUntil { Self.text(log).contains("is not connected") }, "\(Self.text(log))")
        #expect(try run(["search", "harbour"], index: index, config: config).lines
                == [first + "/Boat.txt  (offline: drive not connected)"])
        #expect(waitUntil { (try? run(["status"], index: index, config: config).output.contains("offline since")) == true })
        // Plugged in elsewhere: caught up without reading its files again.
        let second = mounts.mountPoint("media/alice/STICK1")
        mounts.mountImage(image, at: second, exFAT: true)
        #expect(waitUntil { Self.text(log).contains("is connected again") }, "\(Self.text(log))")
        #expect(Self.text(log).contains("caught up: 0 added, 0 updated, 0 removed, 2 unchanged"), "\(Self.text(log))")
        #expect(listed(index, config: config) == [second + "/Boat.txt", second + "/Docs/Ledger.txt"])
        #expect(try run(["search", "ledger"], index: index, config: config).lines == [second + "/Docs/Ledger.txt"])
        // Followed there.
        DriveMounts.write("trip.txt", "tram words\n", in: second)
        #expect(waitUntil { listed(index, config: config).contains(second + "/trip.txt") })
        #expect(mounts.unmount(second).status == 0)
    }

    @Test func anUnchangedDriveMountedAgainIsNotInspectedAgain() throws {
        let drive = try makeDrive("exfat", label: "CARD", media: "run/media/alice", index: "scan")
        defer { withExtendedLifetime(drive) {} }
        let (mounts, index, config, image) = (drive.mounts, drive.index, drive.config, drive.image)
        let first = mounts.mountPoint("run/media/alice/CARD")
        mounts.mountImage(image, at: first, exFAT: true)
        for name in ["DCIM/one.txt", "DCIM/two.txt", "notes.txt"] { DriveMounts.write(name, "card words\n", in: first) }
        // An odd second and a fraction: FAT keeps 2 s, exFAT 10 ms; what is compared is what the drive keeps.
        shell("touch", "-d", "2024-05-05 10:00:01.123456789", first + "/notes.txt")
        let scan = try run(["scan", "--no-thumbnails"], index: index, config: config)
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(scan.output.contains("3 added"), "\(scan.output)")
        #expect(scan.stderr.contains("a new removable drive: CARD"), "\(scan.stderr)")
        let again = try run(["scan", "--no-thumbnails"], index: index, config: config)
        #expect(again.output.hasPrefix("\(first): 0 added, 0 updated, 0 removed, 3 unchanged"), "\(again.output)")
        // Away: kept, offline.
        #expect(mounts.unmount(first).status == 0)
        let away = try run(["scan", "--no-thumbnails"], index: index, config: config)
        #expect(away.status == 0, "\(away.stderr)")
        #expect(away.output.contains("not connected"), "\(away.output)")
        #expect(listed(index, config: config).count == 3)
        // Mounted again elsewhere (new inode numbers): nothing is inspected again.
        let second = mounts.mountPoint("run/media/alice/CARD1")
        mounts.mountImage(image, at: second, exFAT: true)
        // Looked up in another order than they were made: exfat-fuse numbers them anew.
        let before = try FileManager.default.attributesOfItem(atPath: second + "/notes.txt")[.systemFileNumber] as? Int
        for name in ["DCIM/two.txt", "DCIM/one.txt"] { _ = FileManager.default.fileExists(atPath: second + "/" + name) }
        #expect(before != nil)
        let back = try run(["scan", "--no-thumbnails"], index: index, config: config)
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.output.hasPrefix("\(second): 0 added, 0 updated, 0 removed, 3 unchanged"), "\(back.output)")
        #expect(!back.stderr.contains("a new removable drive"), "\(back.stderr)")
        #expect(try run(["search", "card"], index: index, config: config).lines.count == 3)
        // A file written there is found by the next scan.
        DriveMounts.write("DCIM/three.txt", "card words\n", in: second)
        let changed = try run(["scan", "--no-thumbnails"], index: index, config: config)
        #expect(changed.output.hasPrefix("\(second): 1 added, 0 updated, 0 removed, 3 unchanged"), "\(changed.output)")
    }

    @Test func aDriveAwayLongerThanKeptIsForgotten() throws {
        let mounts = DriveMounts()
        defer { withExtendedLifetime(mounts) {} }
        let index = work.path + "/forget.sqlite"
        // Kept 0 days: forgotten the first time it is found away for good.
        let config = places("media/bob", in: mounts, days: 0).config
        let image = mounts.makeImage("exfat", label: "OLD")
        let point = mounts.mountPoint("media/bob/OLD")
        mounts.mountImage(image, at: point, exFAT: true)
        DriveMounts.write("memo.txt", "memo words\n", in: point)
        #expect(try run(["scan", "--no-thumbnails"], index: index, config: config).output.contains("1 added"))
        // A scan: the drive is away since now, then forgotten by the next one.
        #expect(mounts.unmount(point).status == 0)
        #expect(try run(["scan", "--no-thumbnails"], index: index, config: config).output.contains("not connected"))
        let later = try run(["scan", "--no-thumbnails"], index: index, config: config)
        #expect(later.stderr.contains("forgot the removable drive OLD"), "\(later.stderr)")
        #expect(listed(index, config: config).isEmpty)
        #expect(!(try run(["status"], index: index, config: config).output.contains("removable:")))
        // A watch: forgotten while it runs, within a rescan interval of its going away.
        mounts.mountImage(image, at: point, exFAT: true)
        let (watch, log) = try startWatch(index: index, config: config, extra: ["--rescan-interval", "1"])
        defer {
            watch.terminate()
            watch.waitUntilExit()
        }
        #expect(waitUntil { listed(index, config: config) == [point + "/memo.txt"] }, "\(Self.text(log))")
        #expect(mounts.unmount(point).status == 0)
        #expect(waitUntil { Self.text(log).contains("forgot the removable drive") }, "\(Self.text(log))")
        #expect(waitUntil { listed(index, config: config).isEmpty })
        #expect(watch.isRunning)
    }

    @Test func aDriveAConfiguredRootIndexesIsLeftToIt() throws {
        let mounts = DriveMounts()
        defer { withExtendedLifetime(mounts) {} }
        let index = work.path + "/configured.sqlite"
        let media = mounts.mountPoint("media/carol")
        let point = mounts.mountPoint("media/carol/BOOKS")
        let config = configuration(media: media, days: 3, roots: [point + "/shelf"])
        mounts.mountImage(mounts.makeImage("exfat", label: "BOOKS"), at: point, exFAT: true)
        DriveMounts.write("shelf/novel.txt", "novel words\n", in: point)
        let scan = try run(["scan", "--no-thumbnails"], index: index, config: config)
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(!scan.stderr.contains("removable drive"), "\(scan.stderr)")
        #expect(listed(index, config: config) == [point + "/shelf/novel.txt"])
        #expect(!(try run(["status"], index: index, config: config).output.contains("removable:")))
    }
}
