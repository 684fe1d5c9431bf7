import Foundation
import Glibc
import SearchlightTestSupport
import Testing

/// FAT sticks (Docs/Contract.md#removable-drives), as real images mounted through fusefat from
/// a loop device (``DriveMounts/mountFAT(_:at:)``: this kernel has no vfat module): names that
/// ignore case, names that are not UTF-8, times kept to 2 seconds, inode numbers that last one
/// mount.
extension RemovableDriveTests {
    /// The name mtools gives `café.txt` on FAT: a short name in the OEM code page (É is 0x90).
    static let oemName: [UInt8] = Array("CAF".utf8) + [0x90] + Array(".TXT".utf8)

    func inode(_ path: String) -> UInt64 {
        var status = stat()
        return stat(path, &status) == 0 ? UInt64(status.st_ino) : 0
    }

    @Test func aFATStickMountedAgainIsNotInspectedAgainDespiteItsTwoSecondTimes() throws {
        let drive = try makeDrive("vfat", label: "HOLIDAY", media: "media/dora", index: "fat-scan")
        defer { withExtendedLifetime(drive) {} }
        let (mounts, index, config, image) = (drive.mounts, drive.index, drive.config, drive.image)
        // Written elsewhere before it is plugged in: a name that is not UTF-8 here.
        mounts.copyOntoFAT(image, name: "café.txt", contents: "cafe words\n")
        let first = mounts.mountPoint("media/dora/HOLIDAY")
        mounts.mountFAT(image, at: first)
        #expect(DriveMounts.entryNames(first) == [Self.oemName])
        for name in ["DCIM/one.txt", "DCIM/two.txt", "notes.txt"] { DriveMounts.write(name, "holiday words\n", in: first) }
        // An odd second and a fraction: FAT keeps the even second before it, and that is what is compared.
        shell("touch", "-d", "2024-05-05 10:00:01.123456789", first + "/notes.txt")
        var kept = stat()
        #expect(stat(first + "/notes.txt", &kept) == 0)
        #expect(kept.st_mtim.tv_sec % 2 == 0 && kept.st_mtim.tv_nsec == 0, "\(kept.st_mtim)")
        let scan = try run(["scan", "--no-thumbnails"], index: index, config: config)
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(scan.stderr.contains("a new removable drive: HOLIDAY"), "\(scan.stderr)")
        // The name that is not UTF-8 is listed, but fusefat cannot open it: passed over as a
        // file gone between the listing and its look, without an error.
        #expect(scan.output.hasPrefix("\(first): 3 added") && scan.output.contains(" 0 failed"), "\(scan.output) \(scan.stderr)")
        #expect(scan.stderr.split(separator: "\n").count == 1, "\(scan.stderr)")
        let firstInode = inode(first + "/notes.txt")
        let again = try run(["scan", "--no-thumbnails"], index: index, config: config)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.output.hasPrefix("\(first): 0 added, 0 updated, 0 removed, 3 unchanged"), "\(again.output) \(again.stderr)")
        // Away: kept, offline.
        #expect(mounts.unmount(first).status == 0)
        #expect(try run(["scan", "--no-thumbnails"], index: index, config: config).output.contains("not connected"))
        // Mounted again elsewhere, from another loop device, with new inode numbers: nothing is
        // inspected again, twice over (no file is taken as changed because of its 2 s time).
        let second = mounts.mountPoint("media/dora/HOLIDAY1")
        mounts.mountFAT(image, at: second)
        // Looked up in another order than they were made: the FUSE driver numbers them anew.
        #expect(inode(second + "/notes.txt") != firstInode)
        for round in 1...2 {
            let back = try run(["scan", "--no-thumbnails"], index: index, config: config)
            #expect(back.status == 0, "\(back.stderr)")
            #expect(back.output.hasPrefix("\(second): 0 added, 0 updated, 0 removed, 3 unchanged"), "round \(round): \(back.output)")
            #expect(!back.stderr.contains("a new removable drive"), "\(back.stderr)")
        }
        #expect(try run(["search", "holiday"], index: index, config: config).lines.count == 3)
        #expect(try run(["status"], index: index, config: config).output.contains("removable:   HOLIDAY (fuseblk), connected"))
    }

    @Test func aFATStickUnderWatchTakesAFileByTheNameItsFolderListsAndIsCaughtUpWhereverItReturns() throws {
        let drive = try makeDrive("vfat", label: "PHOTOS", media: "media/erin", index: "fat-watch", watching: true)
        defer { withExtendedLifetime(drive) {} }
        let (mounts, index, config, image, watch, log) = (drive.mounts, drive.index, drive.config, drive.image, drive.watch!, drive.log)
        let first = mounts.mountPoint("media/erin/PHOTOS")
        mounts.mountFAT(image, at: first)
        DriveMounts.write("boat.txt", "harbour words\n", in: first)
        DriveMounts.write("Docs/Ledger.txt", "ledger words\n", in: first)
        #expect(waitUntil(timeout: 180) { listed(index, config: config) == [first + "/boat.txt", first + "/Docs/Ledger.txt"] },
                "\(listed(index, config: config)) \(Self.text(log))")
        #expect(Self.text(log).contains("a new removable drive: PHOTOS at \(first), indexed as removable:"), "\(Self.text(log))")
        // Written through another case of its name: the same file, not a second item.
        #expect(DriveMounts.overwrite(first + "/BOAT.TXT", "harbour words and sails\n"))
        #expect(waitUntil(timeout: 180) { (try? run(["search", "sails"], index: index, config: config).lines) == [first + "/boat.txt"] },
                "\(listed(index, config: config)) \(Self.text(log))")
        // (Only the file's name: through FUSE, another case of a folder's name is a folder inode of
        // its own, which no watch holds; the kernel's vfat gives both names one.)
        #expect(DriveMounts.overwrite(first + "/Docs/LEDGER.TXT", "ledger words and sums\n"))
        #expect(waitUntil(timeout: 180) { (try? run(["search", "sums"], index: index, config: config).lines) == [first + "/Docs/Ledger.txt"] },
                "\(listed(index, config: config)) \(Self.text(log))")
        // Written again, as long, within the same 2 s: FAT keeps the same time, so the same stamp
        // (the time is set back to the first write's, as a second write in that slot leaves it).
        var written = stat()
        #expect(stat(first + "/Docs/Ledger.txt", &written) == 0)
        #expect(DriveMounts.overwrite(first + "/Docs/Ledger.txt", "ledger words and figs\n"))
        shell("touch", "-m", "-d", "@\(written.st_mtim.tv_sec)", first + "/Docs/Ledger.txt")
        var rewritten = stat()
        #expect(stat(first + "/Docs/Ledger.txt", &rewritten) == 0)
        // All a stamp holds here is as it was (the inode is left out on FAT).
        #expect(rewritten.st_size == written.st_size && rewritten.st_mtim.tv_sec == written.st_mtim.tv_sec
                && rewritten.st_mtim.tv_nsec == written.st_mtim.tv_nsec && rewritten.st_ctim.tv_sec == written.st_ctim.tv_sec
                && rewritten.st_ctim.tv_nsec == written.st_ctim.tv_nsec, "\(written) \(rewritten)")
        #expect(waitUntil(timeout: 180) { (try? run(["search", "figs"], index: index, config: config).lines) == [first + "/Docs/Ledger.txt"] },
                "\(Self.text(log))")
        #expect(listed(index, config: config) == [first + "/boat.txt", first + "/Docs/Ledger.txt"])
        // Renamed in case alone: followed.
        #expect(rename(first + "/boat.txt", first + "/Boat.txt") == 0)
        #expect(waitUntil(timeout: 180) { listed(index, config: config) == [first + "/Boat.txt", first + "/Docs/Ledger.txt"] },
                "\(listed(index, config: config))")
        // Ejected at once; kept, offline.
        #expect(DriveMounts.descriptors(of: watch.processIdentifier, under: first) == [])
        let unmount = mounts.unmount(first)
        #expect(unmount.status == 0, "umount: \(unmount.message)")
        rmdir(first)
        #expect(waitUntil(timeout: 180) { Self.text(log).contains("is not connected") }, "\(Self.text(log))")
        #expect(try run(["search", "sails"], index: index, config: config).lines == [first + "/Boat.txt  (offline: drive not connected)"])
        // Plugged in elsewhere, from another loop device: caught up without reading its files again.
        let second = mounts.mountPoint("media/erin/PHOTOS1")
        mounts.mountFAT(image, at: second)
        #expect(waitUntil(timeout: 180) { Self.text(log).contains("is connected again") }, "\(Self.text(log))")
        #expect(Self.text(log).contains("caught up: 0 added, 0 updated, 0 removed, 2 unchanged"), "\(Self.text(log))")
        #expect(listed(index, config: config) == [second + "/Boat.txt", second + "/Docs/Ledger.txt"])
        #expect(try run(["search", "figs"], index: index, config: config).lines == [second + "/Docs/Ledger.txt"])
        DriveMounts.write("trip.txt", "tram words\n", in: second)
        #expect(waitUntil(timeout: 180) { listed(index, config: config).contains(second + "/trip.txt") })
        #expect(mounts.unmount(second).status == 0)
    }
}
