import Foundation
import Glibc
import SearchlightTestSupport
import Testing

/// Drives that come and go (Docs/Contract.md#drives-and-mounts), with real mounts: an
/// unmounted drive's items stay, marked offline; a watch never keeps it busy, and catches it up
/// when it is mounted again, anywhere.
@Suite("drives and mounts", .serialized, .ownThread)
struct DriveCommandTests {
    let work = TemporaryTree("drives-index")

    /// Starts `searchlight watch` of `roots`, its log in a file, and waits for a "watching"
    /// line per root.
    func startWatch(_ roots: [String], index: String) throws -> (ChildProcess, String) {
        let log = work.path + "/watch-\(UUID().uuidString).log"
        let process = try ChildProcess([Searchlight.binary, "watch"] + roots + ["--no-thumbnails"] + Searchlight.busyMachine,
                                       environment: ["SEARCHLIGHT_INDEX": index,
                                                     "SEARCHLIGHT_PRESSURE_ROOT": work.path + "/no-pressure"],
                                       stderr: .file(log))
        let ready = waitUntil { Self.text(log).components(separatedBy: "watching ").count - 1 >= roots.count }
        #expect(ready, "no 'watching' line per root: \(Self.text(log))")
        return (process, log)
    }

    static func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    func run(_ arguments: [String], index: String) throws -> CommandResult { try Searchlight.run(arguments, index: index) }

    func listed(_ index: String) -> Set<String> { Set((try? run(["list"], index: index).lines) ?? []) }

    @Test func aScanOfAnUnmountedDriveKeepsItsItemsMarkedOffline() throws {
        let mounts = DriveMounts()
        defer { withExtendedLifetime(mounts) {} }
        let index = work.path + "/scan.sqlite"
        let drive = mounts.mountPoint("usb")
        mounts.mountTmpfs(at: drive)
        for name in ["alpha report.txt", "notes/beta.txt", "notes/gamma.txt"] { DriveMounts.write(name, "quarterly words\n", in: drive) }
        let first = try run(["scan", drive, "--no-thumbnails"], index: index)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.output.contains("3 added"))
        #expect(mounts.unmount(drive).status == 0)
        // The empty mount point is not the drive: nothing is removed, one line says why.
        let second = try run(["scan", drive, "--no-thumbnails"], index: index)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.lines.count == 1, "\(second.output)")
        #expect(second.output.contains("not connected"), "\(second.output)")
        #expect(second.output.contains("3 items kept"), "\(second.output)")
        #expect(listed(index).count == 3)
        // Found by name and by words, marked offline in text and JSON.
        let found = try run(["search", "alpha"], index: index)
        #expect(found.lines == [drive + "/alpha report.txt  (offline: drive not connected)"], "\(found.output)")
        let json = try run(["search", "quarterly", "--json"], index: index)
        let objects = json.lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.count == 3)
        #expect(objects.allSatisfy { $0["offline"] as? Bool == true })
        // -0 stays the exact path.
        let raw = try run(["search", "alpha", "-0"], index: index)
        #expect(raw.stdout == Array((drive + "/alpha report.txt").utf8) + [0])
        let status = try run(["status"], index: index)
        #expect(status.output.contains("offline since"), "\(status.output)")
        let open = try run(["open", drive + "/alpha report.txt"], index: index)
        #expect(open.status == 1)
        #expect(open.stderr.contains("not connected"), "\(open.stderr)")
        // Mounted again (a new, empty tmpfs): online, and reconciled to what it holds now.
        mounts.mountTmpfs(at: drive)
        DriveMounts.write("alpha report.txt", "quarterly words\n", in: drive)
        let third = try run(["scan", drive, "--no-thumbnails"], index: index)
        #expect(third.status == 0, "\(third.stderr)")
        #expect(listed(index) == [drive + "/alpha report.txt"])
        #expect(try run(["search", "alpha"], index: index).lines == [drive + "/alpha report.txt"])
        #expect(!(try run(["status"], index: index).output.contains("offline since")))
    }

    @Test func aRootBelowAnUnmountedDriveIsOfflineNotMissing() throws {
        let mounts = DriveMounts()
        defer { withExtendedLifetime(mounts) {} }
        let index = work.path + "/below.sqlite"
        let drive = mounts.mountPoint("disk")
        mounts.mountTmpfs(at: drive)
        DriveMounts.write("Documents/plan.txt", "plan\n", in: drive)
        let root = drive + "/Documents"
        #expect(try run(["scan", root, "--no-thumbnails"], index: index).status == 0)
        #expect(mounts.unmount(drive).status == 0)
        let again = try run(["scan", root, "--no-thumbnails"], index: index)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.output.contains("not connected"), "\(again.output)")
        #expect(listed(index) == [root + "/plan.txt  (offline: drive not connected)"])
        // A folder that never was on a drive is still refused.
        let typo = try run(["scan", work.path + "/nowhere", "--no-thumbnails"], index: index)
        #expect(typo.status == 1)
    }

    @Test func aWatchedDriveUnmountsAtOnceAndTheOtherRootGoesOn() throws {
        let mounts = DriveMounts()
        defer { withExtendedLifetime(mounts) {} }
        let index = work.path + "/watch.sqlite"
        let drive = mounts.mountPoint("stick")
        mounts.mountTmpfs(at: drive)
        DriveMounts.write("holiday plans.txt", "beach words\n", in: drive)
        DriveMounts.write("deep/er/folder/notes.txt", "more words\n", in: drive)
        let home = TemporaryTree("drives-home")
        home.write("home note.txt")
        let (watch, log) = try startWatch([drive, home.path], index: index)
        defer {
            watch.terminate()
            watch.waitUntilExit()
        }
        #expect(waitUntil { listed(index).count == 3 })
        // Between windows the watch holds nothing on the drive.
        #expect(DriveMounts.descriptors(of: watch.processIdentifier, under: drive) == [])
        let unmount = mounts.unmount(drive)
        #expect(unmount.status == 0, "umount: \(unmount.message)")
        #expect(waitUntil { Self.text(log).contains("is not connected") }, "\(Self.text(log))")
        #expect(watch.isRunning)
        #expect(waitUntil { (try? run(["status"], index: index).output.contains("offline since")) == true })
        #expect(try run(["search", "beach"], index: index).lines == [drive + "/holiday plans.txt  (offline: drive not connected)"])
        // The other root is still followed.
        home.write("later.txt")
        #expect(waitUntil { listed(index).contains(home.path + "/later.txt") })
        #expect(listed(index).count == 4)
        // The empty mount point was not taken for the drive.
        #expect(try run(["search", "notes"], index: index).lines.first?.hasSuffix("(offline: drive not connected)") == true)
    }

    @Test func aDriveMountedAgainElsewhereIsCaughtUpWithoutReadingUnchangedFiles() throws {
        let mounts = DriveMounts()
        defer { withExtendedLifetime(mounts) {} }
        let index = work.path + "/again.sqlite"
        let image = mounts.makeImage("ext4", label: "PHOTOS")
        let first = mounts.mountPoint("media/alice/PHOTOS")
        let second = mounts.mountPoint("run/media/alice/PHOTOS")
        mounts.mountImage(image, at: first)
        DriveMounts.write("trip/lisbon.txt", "tram words\n", in: first)
        DriveMounts.write("trip/porto.txt", "river words\n", in: first)
        let (watch, log) = try startWatch([first], index: index)
        defer {
            watch.terminate()
            watch.waitUntilExit()
        }
        #expect(waitUntil { listed(index).count == 2 })
        #expect(try run(["status"], index: index).output.contains("drive:       PHOTOS (ext4), connected"))
        #expect(mounts.unmount(first).status == 0)
        #expect(waitUntil { Self.text(log).contains("is not connected") }, "\(Self.text(log))")
        // One more file written on another machine meanwhile (a mount of a namespace of its
        // own, which this watch does not see), then plugged in elsewhere.
        let elsewhere = mounts.mountPoint("other-machine")
        shell("unshare", "-m", "--propagation", "private", "sh", "-c",
              "mount -o loop \"$0\" \"$1\" && echo beach words > \"$1/trip/faro.txt\" && umount \"$1\"", image, elsewhere)
        mounts.mountImage(image, at: second)
        #expect(waitUntil { Self.text(log).contains("is connected again") }, "\(Self.text(log))")
        // Caught up: the new file read, the two unchanged ones not read again.
        #expect(Self.text(log).contains("caught up: 1 added, 0 updated, 0 removed, 2 unchanged"), "\(Self.text(log))")
        #expect(waitUntil { listed(index) == Set(["lisbon", "porto", "faro"].map { second + "/trip/\($0).txt" }) },
                "\(listed(index))")
        #expect(try run(["search", "tram"], index: index).lines == [second + "/trip/lisbon.txt"])
        // Followed there.
        DriveMounts.write("trip/braga.txt", "church words\n", in: second)
        #expect(waitUntil { listed(index).contains(second + "/trip/braga.txt") })
        #expect(DriveMounts.descriptors(of: watch.processIdentifier, under: second) == [])
        #expect(mounts.unmount(second).status == 0)
    }
}

extension DriveCommandTests {
    /// Runs a command that must answer within `seconds`, even while a server hangs.
    func answering(_ arguments: [String], index: String, within seconds: TimeInterval = 30) throws -> String {
        let output = work.path + "/out-\(UUID().uuidString)"
        let process = try ChildProcess([Searchlight.binary] + arguments, environment: Searchlight.environment(index: index, extra: [:]),
                                       stdout: .file(output))
        let done = process.exits(within: seconds)
        #expect(done, "\(arguments) did not answer within \(seconds) s")
        if !done { process.send(SIGKILL) }
        process.waitUntilExit()
        return Self.text(output)
    }

    /// Every wait is for a condition, with deadlines for a loaded machine (`loaded`): with
    /// other suites beside it, the FUSE server (Python) and the watch may each take seconds to
    /// answer, and the watch's own 5 s probe may find a busy server unreachable for a while.
    @Test func aFUSERootThatStopsAnsweringLeavesTheOtherRootsSearchAndStatusAlone() throws {
        // A hung call never returns: two minutes to answer still tells one from a slow start.
        let loaded: TimeInterval = 300, answer: TimeInterval = 120
        let mounts = DriveMounts()
        defer { withExtendedLifetime(mounts) {} }
        let index = work.path + "/fuse.sqlite"
        let backing = mounts.mountPoint("server-side")
        DriveMounts.write("minutes/meeting.txt", "shared budget words\n", in: backing)
        let share = mounts.mountPoint("share")
        let hang = try mounts.mountFUSE(backing, at: share)
        let home = TemporaryTree("drives-fuse-home")
        home.write("home note.txt")
        let log = work.path + "/fuse-watch.log"
        let watch = try ChildProcess([Searchlight.binary, "watch", share, home.path, "--no-thumbnails", "--rescan-interval", "1"]
                                     + Searchlight.busyMachine,
                                     environment: ["SEARCHLIGHT_INDEX": index, "SEARCHLIGHT_PRESSURE_ROOT": work.path + "/no-pressure"],
                                     stderr: .file(log))
        defer {
            // The server answers again before the watch is stopped: a stuck call ends then.
            unlink(hang)
            watch.terminate()
            watch.waitUntilExit()
        }
        #expect(waitUntil(timeout: loaded) { Self.text(log).components(separatedBy: "watching ").count - 1 >= 2 }, "\(Self.text(log))")
        #expect(waitUntil(timeout: loaded) { listed(index).count == 2 }, "\(listed(index)) \(Self.text(log))")
        #expect(waitUntil(timeout: loaded) { Self.text(log).contains("network or FUSE filesystem (fuse.hanging)") }, "\(Self.text(log))")
        #expect(try answering(["status"], index: index, within: answer).contains("a network or FUSE filesystem"))
        // Changes made on the server's side reach no inotify watch: the periodic reconcile finds them.
        DriveMounts.write("minutes/review.txt", "shared review words\n", in: backing)
        #expect(waitUntil(timeout: loaded) { listed(index).contains(share + "/minutes/review.txt") }, "\(listed(index)) \(Self.text(log))")
        // The server stops answering.
        let answeredBefore = Self.text(log).components(separatedBy: "answers again").count
        FileManager.default.createFile(atPath: hang, contents: Data())
        // Another drive is mounted meanwhile (as other tests do, and a person plugging in a
        // stick): the watch looks again where its roots are, which must not wait on the server.
        mounts.mountTmpfs(at: mounts.mountPoint("stick"))
        #expect(waitUntil(timeout: loaded) { (try? answering(["status"], index: index, within: answer).contains("unreachable since")) == true },
                "\(Self.text(log))")
        // The other root is still followed; search and status answer.
        home.write("later.txt")
        #expect(waitUntil(timeout: loaded) { listed(index).contains(home.path + "/later.txt") }, "\(listed(index)) \(Self.text(log))")
        let found = try answering(["search", "shared"], index: index, within: answer)
        #expect(found.split(separator: "\n").count == 2, "\(found)")
        // It answers again: reachable (a new "answers again", not one of a busy moment before), and followed again.
        unlink(hang)
        #expect(waitUntil(timeout: loaded) { Self.text(log).components(separatedBy: "answers again").count > answeredBefore },
                "\(Self.text(log))")
        #expect(waitUntil(timeout: loaded) { (try? answering(["status"], index: index, within: answer).contains("unreachable since")) == false },
                "\(Self.text(log))")
    }
}
