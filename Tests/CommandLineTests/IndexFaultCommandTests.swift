import Foundation
import Glibc
import SearchlightTestSupport
import Testing

/// A tmpfs of a few MiB mounted on a folder, unmounted when released. Mounting needs root,
/// which CI is: without it the test fails (it does not skip).
final class SmallFileSystem {
    let path: String

    init(at path: String, mebibytes: Int) throws {
        self.path = path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try #require(getuid() == 0, "mounting a tmpfs needs root (CI runs the tests as root)")
        let result = try ChildProcess.run(["mount", "-t", "tmpfs", "-o", "size=\(mebibytes)m,mode=0700", "tmpfs", path])
        try #require(result.status == 0, "mount: \(String(decoding: result.stderr, as: UTF8.self))")
    }

    /// `mount -o remount,size=…`: the file system grows (or shrinks) in place.
    func resize(mebibytes: Int) -> Bool {
        (try? ChildProcess.run(["mount", "-o", "remount,size=\(mebibytes)m", path]).status) == 0
    }

    /// Fills the file system with one file until no byte is left.
    func fill() {
        let descriptor = open(path + "/filler", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0, count: 65536)
        var size = block.count
        while size >= 1 {
            if write(descriptor, block, size) < 0 { size /= 2 }
        }
    }

    deinit {
        // Lazily: a process that still has a file open there does not keep the mount.
        _ = try? ChildProcess.run(["umount", "-l", path])
    }
}

@Suite("Index faults on the command line (Docs/Contract.md#when-things-break)", .serialized, .ownThread)
struct IndexFaultCommandTests {
    let tree = TemporaryTree("faults-root")
    let work = TemporaryTree("faults-index")

    /// A tree of a few hundred files.
    func populate(_ count: Int = 240) {
        for number in 0..<count { tree.write("notes/part \(number % 7)/note \(number).txt", "alpha beta \(number)\n") }
        tree.write("Quarterly Report.txt")
    }

    /// What `list` prints for the tree scanned now into a fresh index, relative to the tree: what the disk holds.
    func disk() throws -> [String] {
        let reference = work.path + "/reference-\(UUID().uuidString).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { unlink(reference + suffix) } }
        #expect(try Searchlight.run(["scan", tree.path, "--no-thumbnails"], index: reference).status == 0)
        return try Searchlight.run(["list"], index: reference).paths(under: tree.path).sorted()
    }

    /// What `list` prints, relative to the tree.
    func listed(_ index: String) -> [String] {
        ((try? Searchlight.run(["list"], index: index).paths(under: tree.path)) ?? []).sorted()
    }

    /// Files kept aside beside `index` by a reset.
    func keptAside(_ index: String) -> [String] {
        let folder = (index as NSString).deletingLastPathComponent
        let name = (index as NSString).lastPathComponent
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasPrefix(name + ".damaged-") }.map { folder + "/" + $0 }
    }

    /// A read-only command on a damaged index: one line that says so and what to do, exit 1.
    func expectDamageReported(_ arguments: [String], index: String) throws {
        let result = try Searchlight.run(arguments, index: index)
        #expect(result.status == 1, "\(arguments): \(result.stderr)")
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(arguments): \(result.stderr)")
        #expect((result.stderr.contains("damaged") || result.stderr.contains("newer Searchlight"))
                && result.stderr.contains("searchlight scan"), "\(result.stderr)")
    }

    /// `scan` rebuilds: one warning naming the file kept aside, which exists; `status` says so;
    /// the index equals the disk.
    func expectRebuiltByScan(_ index: String) throws {
        let scan = try Searchlight.run(["scan", tree.path, "--no-thumbnails"], index: index)
        #expect(scan.status == 0, "\(scan.stderr)")
        let kept = keptAside(index)
        #expect(kept.count == 1)
        #expect(scan.stderr.split(separator: "\n").count == 1, "\(scan.stderr)")
        #expect(kept.allSatisfy { scan.stderr.contains($0) && FileManager.default.fileExists(atPath: $0) }, "\(scan.stderr)")
        let status = try Searchlight.run(["status"], index: index)
        #expect(status.status == 0)
        #expect(status.output.contains("reset: ") && status.output.contains("damaged"), "\(status.output)")
        #expect(try listed(index) == disk())
        #expect(try Searchlight.run(["search", "quarterly"], index: index).paths(under: tree.path) == ["Quarterly Report.txt"])
    }

    @Test func pagesOverwrittenWithGarbageAreReportedThenRebuiltByScan() throws {
        populate()
        let index = work.path + "/index.sqlite"
        #expect(try Searchlight.run(["scan", tree.path, "--no-thumbnails"], index: index).status == 0)
        // Two pages of a healthy index overwritten, as a bad sector or an interrupted copy does.
        let handle = try #require(FileHandle(forUpdatingAtPath: index))
        try handle.seek(toOffset: 8192)
        var generator = SeededGenerator(seed: 8192)
        try handle.write(contentsOf: Data((0..<8192).map { _ in UInt8(truncatingIfNeeded: generator.next()) }))
        try handle.close()
        try expectDamageReported(["search", "note"], index: index)
        try expectDamageReported(["status"], index: index)
        try expectRebuiltByScan(index)
    }

    @Test func aFileThatIsNoDatabaseIsReportedThenRebuiltByScan() throws {
        populate(30)
        let index = work.path + "/index.sqlite"
        var generator = SeededGenerator(seed: 26)
        #expect(FileManager.default.createFile(atPath: index, contents: Data((0..<100_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) })))
        for command in [["search", "note"], ["status"], ["query", "kMDItemFSSize > 0"], ["list"]] {
            try expectDamageReported(command, index: index)
        }
        try expectRebuiltByScan(index)
    }

    @Test func aSchemaOfANewerVersionIsReportedThenMovedAsideByScan() throws {
        populate(30)
        let index = work.path + "/index.sqlite"
        #expect(try Searchlight.run(["scan", tree.path, "--no-thumbnails"], index: index).status == 0)
        #expect(try ChildProcess.run(["sqlite3", index, "INSERT INTO grdb_migrations VALUES ('v99-from-the-future')"]).status == 0)
        try expectDamageReported(["search", "note"], index: index)
        try expectDamageReported(["status"], index: index)
        try expectRebuiltByScan(index)
    }

    @Test func aWALTruncatedMidFrameOpensOrRebuildsAndEqualsTheDisk() throws {
        populate(60)
        let index = work.path + "/index.sqlite"
        let log = work.path + "/watch.log"
        let watch = try ChildProcess([Searchlight.binary, "watch", tree.path, "--no-thumbnails"] + Searchlight.busyMachine,
                                     environment: ["SEARCHLIGHT_INDEX": index], stderr: .file(log))
        #expect(waitUntil { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("watching") })
        for number in 0..<40 { tree.write("later/file \(number).txt", "gamma \(number)\n") }
        #expect(waitUntil { listed(index).filter { $0.hasPrefix("later/") }.count == 40 })
        // Killed: its write-ahead log stays, not checkpointed.
        watch.send(SIGKILL)
        watch.waitUntilExit()
        let wal = index + "-wal"
        let size = (try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
        // Header (32 bytes), then frames of a 24-byte header and a 4 KiB page: cut in a frame's page.
        #expect(size > 32 + 2 * (24 + 4096), "the WAL holds \(size) bytes")
        let cut = 32 + (size - 32) / (24 + 4096) / 2 * (24 + 4096) + 24 + 1000
        #expect(truncate(wal, off_t(cut)) == 0)
        // Whatever the committed frames before the cut hold, a scan brings the index to the disk.
        let scan = try Searchlight.run(["scan", tree.path, "--no-thumbnails"], index: index)
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(try listed(index) == disk())
        #expect(try ChildProcess.run(["sqlite3", index, "PRAGMA integrity_check"]).stdout == Array("ok\n".utf8))
    }

    /// Starts `watch` with its log in a file, and waits for its "watching" line.
    func startWatch(index: String) throws -> (ChildProcess, String) {
        let log = work.path + "/watch-\(UUID().uuidString).log"
        let watch = try ChildProcess([Searchlight.binary, "watch", tree.path, "--no-thumbnails"] + Searchlight.busyMachine,
                                     environment: ["SEARCHLIGHT_INDEX": index, "XDG_CONFIG_HOME": "/nonexistent"],
                                     stderr: .file(log))
        let ready = waitUntil { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("watching") }
        #expect(ready, "no 'watching' line: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        return (watch, log)
    }

    func status(_ index: String) -> String { (try? Searchlight.run(["status"], index: index).output) ?? "" }

    /// Ends the watch with SIGTERM: exit 0, no crash.
    func stop(_ watch: ChildProcess, log: String) throws {
        watch.send(SIGTERM)
        #expect(watch.exits(within: 60))
        #expect(watch.terminationStatus == 0)
        #expect(!(try String(contentsOfFile: log, encoding: .utf8)).contains("Backtrac"))
    }

    @Test func aFullDiskUnderWatchIsWaitedOutAndNothingIsLost() throws {
        populate(20)
        let disk = try SmallFileSystem(at: work.path + "/small", mebibytes: 3)
        let index = disk.path + "/index.sqlite"
        let (watch, log) = try startWatch(index: index)
        disk.fill()
        // Changes while the disk is full: new files, a rename, a deletion.
        for number in 0..<150 { tree.write("during/new \(number).txt", "delta \(number) " + String(repeating: "x", count: 200) + "\n") }
        tree.rename("Quarterly Report.txt", "Annual Report.txt")
        tree.remove("notes/part 0")
        #expect(waitUntil { status(index).contains("health:      disk full since") }, "\(status(index))")
        #expect(watch.isRunning)
        #expect(disk.resize(mebibytes: 32))
        let expected = try self.disk()
        #expect(waitUntil { listed(index) == expected }, "\(Set(expected).symmetricDifference(listed(index)).prefix(5))")
        #expect(waitUntil { !status(index).contains("health:") })
        #expect(status(index).contains("watch:       running"))
        // Still following changes.
        tree.write("after/the fault.txt")
        #expect(waitUntil { listed(index).contains("after/the fault.txt") })
        try stop(watch, log: log)
        let text = try String(contentsOfFile: log, encoding: .utf8)
        // Logged once, not per attempt; and its end.
        #expect(text.components(separatedBy: "are kept and written").count == 2, "\(text)")
        #expect(text.contains("the index can be written again"))
    }

    @Test func anIndexFolderRemovedUnderWatchIsCreatedAgainAndConverges() throws {
        populate(20)
        let index = work.path + "/folder/index.sqlite"
        let (watch, log) = try startWatch(index: index)
        try FileManager.default.removeItem(atPath: work.path + "/folder")
        tree.write("while/gone.txt")
        let expected = try disk()
        #expect(waitUntil { listed(index) == expected }, "\(listed(index).count) items")
        #expect(status(index).contains("watch:       running"))
        try stop(watch, log: log)
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("removed or replaced"))
    }
}

extension IndexFaultCommandTests {
    /// A read-only remount of the index's own file system is refused while the watch has its
    /// files open for writing (EBUSY), so the folder is made read-only the way a failing disk
    /// or an administrator's mount does it: a read-only file system mounted over it. The
    /// watch cannot create the index there; once it is unmounted, the index is back.
    @Test func anIndexFolderMadeReadOnlyUnderWatchIsWaitedOutAndConverges() throws {
        populate(20)
        let folder = work.path + "/folder"
        let index = folder + "/index.sqlite"
        let (watch, log) = try startWatch(index: index)
        try #require(getuid() == 0, "mounting needs root (CI runs the tests as root)")
        let mounted = try ChildProcess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", folder])
        try #require(mounted.status == 0, "\(String(decoding: mounted.stderr, as: UTF8.self))")
        var unmounted = false
        defer { if !unmounted { _ = try? ChildProcess.run(["umount", "-l", folder]) } }
        tree.write("while/read-only.txt")
        tree.remove("notes/part 1")
        #expect(waitUntil { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("Read-only file system") })
        #expect(watch.isRunning)
        unmounted = (try ChildProcess.run(["umount", folder])).status == 0
        #expect(unmounted)
        let expected = try disk()
        #expect(waitUntil { listed(index) == expected }, "\(Set(expected).symmetricDifference(listed(index)).prefix(5))")
        #expect(status(index).contains("watch:       running"))
        try stop(watch, log: log)
    }
}

extension IndexFaultCommandTests {
    /// A scan, and a watch ended by SIGTERM, close the index before the process ends: its
    /// write-ahead log is then in the file and gone, and a copy of the file alone is whole.
    /// (A thread still holding the index as the process ended once left the log behind in one
    /// scan out of seven.)
    @Test func scanAndWatchLeaveNoWriteAheadLogBehind() throws {
        populate(60)
        let index = work.path + "/index.sqlite"
        for round in 0..<12 {
            for suffix in ["", "-wal", "-shm"] { unlink(index + suffix) }
            tree.write("round \(round).txt")
            let scan = try Searchlight.run(["scan", tree.path, "--no-thumbnails"], index: index)
            #expect(scan.status == 0, "\(scan.stderr)")
            #expect(!FileManager.default.fileExists(atPath: index + "-wal"), "round \(round)")
        }
        let (watch, log) = try startWatch(index: index)
        tree.write("while watching.txt")
        #expect(waitUntil { listed(index).contains("while watching.txt") })
        try stop(watch, log: log)
        #expect(!FileManager.default.fileExists(atPath: index + "-wal"))
        #expect(try ChildProcess.run(["sqlite3", index, "PRAGMA integrity_check"]).stdout == Array("ok\n".utf8))
    }

    @Test func serveAnswers503OnADamagedIndexSayingTheNextScanRebuildsIt() throws {
        populate()
        let index = work.path + "/index.sqlite"
        // A file that is no database: serve does not start, and says why in one line.
        var generator = SeededGenerator(seed: 503)
        #expect(FileManager.default.createFile(atPath: index, contents: Data((0..<100_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) })))
        let refused = try Searchlight.run(["serve", "--port", "0"], index: index)
        #expect(refused.status == 1 && refused.stderr.split(separator: "\n").count == 1 && refused.stderr.contains("damaged"),
                "\(refused.stderr)")
        // Pages damaged in an index that opens: the API answers 503.
        unlink(index)
        #expect(try Searchlight.run(["scan", tree.path, "--no-thumbnails"], index: index).status == 0)
        // Everything is in the file itself (the scan left no log), so the damage is read.
        try #require(!FileManager.default.fileExists(atPath: index + "-wal"))
        let handle = try #require(FileHandle(forUpdatingAtPath: index))
        try handle.seek(toOffset: 8192)
        try handle.write(contentsOf: Data((0..<8192).map { _ in UInt8(truncatingIfNeeded: generator.next()) }))
        try handle.close()
        let output = work.path + "/serve.out"
        let serve = try ChildProcess([Searchlight.binary, "serve", "--port", "0"],
                                     environment: ["SEARCHLIGHT_INDEX": index, "XDG_CONFIG_HOME": "/nonexistent"],
                                     stdout: .file(output))
        defer {
            serve.terminate()
            serve.waitUntilExit()
        }
        var address = ""
        #expect(waitUntil {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            address = text.firstMatch(of: /http:\/\/127\.0\.0\.1:[0-9]+\//).map { String($0.output) } ?? ""
            return !address.isEmpty || !serve.isRunning
        })
        try #require(!address.isEmpty, "serve did not start")
        let answer = try ChildProcess.run(["curl", "-s", "-w", "\n%{http_code}", address + "api/search?q=note"])
        let lines = String(decoding: answer.stdout, as: UTF8.self).split(separator: "\n")
        #expect(lines.last == "503")
        #expect(lines.first?.contains("damaged") == true && lines.first?.contains("rebuilds") == true, "\(lines)")
    }
}

extension IndexFaultCommandTests {
    @Test func damageMetUnderWatchResetsTheIndexInPlaceAndReconciles() throws {
        populate()
        let index = work.path + "/index.sqlite"
        let (watch, log) = try startWatch(index: index)
        // Everything in the main file, then two of its pages overwritten.
        #expect(try ChildProcess.run(["sqlite3", index, "PRAGMA wal_checkpoint(TRUNCATE)"]).status == 0)
        let handle = try #require(FileHandle(forUpdatingAtPath: index))
        try handle.seek(toOffset: 8192)
        var generator = SeededGenerator(seed: 4096)
        try handle.write(contentsOf: Data((0..<8192).map { _ in UInt8(truncatingIfNeeded: generator.next()) }))
        try handle.close()
        // The next windows read and write those pages.
        for number in 0..<60 { tree.write("notes/part \(number % 7)/note \(number).txt", "changed \(number)\n") }
        for number in 0..<30 { tree.write("new/file \(number).txt") }
        #expect(waitUntil { keptAside(index).count >= 1 }, "\(keptAside(index))")
        let expected = try disk()
        #expect(waitUntil { listed(index) == expected },
                "\(listed(index).count) of \(expected.count): \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        #expect(status(index).contains("reset: "))
        #expect(try ChildProcess.run(["sqlite3", index, "PRAGMA integrity_check"]).stdout == Array("ok\n".utf8))
        try stop(watch, log: log)
        let text = try String(contentsOfFile: log, encoding: .utf8)
        // One warning about the damage, naming the copy kept.
        #expect(text.split(separator: "\n").filter { $0.contains("warning:") && $0.contains("damaged") }.count == 1, "\(text)")
        #expect(keptAside(index).allSatisfy { text.contains($0) || $0.hasSuffix("-wal") }, "\(text)")
    }
}
