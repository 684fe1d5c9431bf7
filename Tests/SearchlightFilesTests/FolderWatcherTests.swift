import Foundation
import Glibc
import Searchlight
import SearchlightTestSupport
import Testing
@testable import SearchlightFiles

@Suite("Folder watcher", .serialized)
struct FolderWatcherTests {
    /// A watch whose windows end after `quiet` without events, `delay` after their first
    /// event, or at `events` events, whichever comes first.
    static func fixture(windowsEndAfter quiet: Duration, orAfter delay: Duration, orAt events: Int) throws
        -> WatchFixture
    {
        try WatchFixture({ options in
            options.settleInterval = quiet
            options.maximumDelay = delay
            options.maximumWindowEvents = events
        })
    }

    @Test func indexesWhatExistsThenFollowsCreatesWritesAndDeletes() async throws {
        let fixture = try WatchFixture(prepare: { $0.write("before.txt") })
        try await fixture.start()
        #expect(try fixture.indexed() == ["before.txt"])
        fixture.tree.write("new.txt", "one\n")
        await fixture.settles(to: ["before.txt", "new.txt"])
        fixture.tree.write("new.txt", "one two three\n")
        #expect(await eventually { (try? fixture.indexedSizes())?["new.txt"] == 14 })
        fixture.tree.remove("before.txt")
        await fixture.settles(to: ["new.txt"])
        try await fixture.stop()
    }

    @Test func newFoldersAreWatchedBeforeTheyAreListed() async throws {
        let fixture = try WatchFixture()
        try await fixture.start()
        // Created faster than events can be handled: found by listing after the watch exists.
        shell("sh", "-c", "mkdir -p '\(fixture.tree.path)/a/b/c' && touch '\(fixture.tree.path)/a/b/c/f.txt'")
        fixture.outside.write("src/one.txt")
        fixture.outside.write("src/deep/er/two.txt")
        shell("cp", "-a", fixture.outside.url("src"), fixture.tree.url("copy"))
        await fixture.settles(to: ["a/b/c/f.txt", "copy/one.txt", "copy/deep/er/two.txt"])
        // The new folders are watched: a later file in the deepest one is seen.
        fixture.tree.write("copy/deep/er/three.txt")
        await fixture.settles(to: ["a/b/c/f.txt", "copy/one.txt", "copy/deep/er/two.txt", "copy/deep/er/three.txt"])
        try await fixture.stop()
    }

    @Test func folderRenamesReKeyDescendantsWithoutReExtracting() async throws {
        let fixture = try WatchFixture(prepare: { tree in
            for index in 0..<30 { tree.write("projects/alpha/doc \(index).txt") }
            tree.write("projects/alpha/sub/deep.txt")
        })
        try await fixture.start()
        #expect(fixture.counter.total == 31)
        // Whatever events the start left queued are handled before the move: a file written
        // now is indexed after them. (In about one full run in four, a lone event for one of
        // the files came after the first reconcile; handled after the move, it found the file
        // gone and deleted its item, which the move then could not carry.) It is moved in,
        // one event: written in place, its later events could fall in the next window and
        // count as a second inspection.
        fixture.outside.write("sentinel.txt")
        shell("mv", fixture.outside.url("sentinel.txt"), fixture.tree.url("sentinel.txt"))
        let before = Set((0..<30).map { "projects/alpha/doc \($0).txt" } + ["projects/alpha/sub/deep.txt", "sentinel.txt"])
        await fixture.settles(to: before)
        let inspected = fixture.counter.total
        fixture.tree.mkdirs("archive")
        fixture.tree.rename("projects/alpha", "archive/alpha-2024")
        var expected = Set((0..<30).map { "archive/alpha-2024/doc \($0).txt" })
        expected.insert("archive/alpha-2024/sub/deep.txt")
        expected.insert("sentinel.txt")
        await fixture.settles(to: expected)
        #expect(fixture.counter.total == inspected,
                "descendants of a moved folder must not be re-extracted: \(fixture.counter.repeated) \(fixture.log.all.suffix(20))")
        // Folder words follow: the new folder name finds the files.
        #expect(try fixture.index.search(words: ["alpha", "2024", "deep"]).count == 1)
        // The moved folder is still watched under its new name.
        fixture.tree.write("archive/alpha-2024/sub/later.txt")
        expected.insert("archive/alpha-2024/sub/later.txt")
        await fixture.settles(to: expected)
        // A file rename re-inspects that one file (its name, title and keywords change).
        fixture.tree.rename("archive/alpha-2024/doc 0.txt", "archive/alpha-2024/renamed.txt")
        expected.remove("archive/alpha-2024/doc 0.txt")
        expected.insert("archive/alpha-2024/renamed.txt")
        await fixture.settles(to: expected)
        try await fixture.stop()
    }

    @Test func movesOutOfAndIntoTheRootAreDeletesAndCrawls() async throws {
        let fixture = try WatchFixture(prepare: { tree in
            tree.write("keep.txt")
            tree.write("leaving/a.txt")
            tree.write("leaving/b/c.txt")
        })
        try await fixture.start()
        shell("mv", fixture.tree.url("leaving"), fixture.outside.url("left"))
        await fixture.settles(to: ["keep.txt"])
        // Files changed in the moved-out folder are not ours any more.
        fixture.outside.write("left/b/new.txt")
        shell("mv", fixture.outside.url("left"), fixture.tree.url("back"))
        await fixture.settles(to: ["keep.txt", "back/a.txt", "back/b/c.txt", "back/b/new.txt"])
        shell("mv", fixture.tree.url("keep.txt"), fixture.outside.url("keep.txt"))
        await fixture.settles(to: ["back/a.txt", "back/b/c.txt", "back/b/new.txt"])
        try await fixture.stop()
    }

    @Test func recursiveDeletesAndTypeSwaps() async throws {
        let fixture = try WatchFixture(prepare: { tree in
            for index in 0..<20 { tree.write("tree/x\(index % 4)/f\(index).txt") }
            tree.write("thing")
        })
        try await fixture.start()
        shell("rm", "-rf", fixture.tree.url("tree"))
        await fixture.settles(to: ["thing"])
        fixture.tree.remove("thing")
        fixture.tree.write("thing/inside.txt")
        await fixture.settles(to: ["thing/inside.txt"])
        shell("rm", "-rf", fixture.tree.url("thing"))
        fixture.tree.write("thing", "a file again\n")
        await fixture.settles(to: ["thing"])
        try await fixture.stop()
    }

    @Test func atomicReplaceSavesLeaveOneItemWithTheNewContent() async throws {
        let fixture = try WatchFixture(prepare: { $0.write("report.txt", "old\n") })
        try await fixture.start()
        // Write a temporary file, rename it over the target.
        fixture.tree.write("report.txt.tmp-123", "new contents\n")
        fixture.tree.rename("report.txt.tmp-123", "report.txt")
        #expect(await eventually { (try? fixture.indexedSizes()) == ["report.txt": 13] })
        // vim's backup dance: rename to file~, write a new file, delete the backup.
        fixture.tree.rename("report.txt", "report.txt~")
        fixture.tree.write("report.txt", "edited in vim\n")
        fixture.tree.remove("report.txt~")
        #expect(await eventually { (try? fixture.indexedSizes()) == ["report.txt": 14] })
        try await fixture.stop()
    }

    @Test func burstsAreCoalescedAndShortLivedFilesLeaveNothing() async throws {
        // The consumer is held while the burst is made, and let go once a sentinel written last
        // has been read (inotify reports in order): the burst is then one window whatever the
        // machine's load. (A quiet spell alone once split it: in a loaded full run the test's
        // writes stalled for longer than the settle time.)
        let fixture = try Self.fixture(windowsEndAfter: .milliseconds(200), orAfter: .seconds(30), orAt: 100_000)
        try await fixture.start()
        fixture.watcher.holdsWindows.store(true, ordering: .relaxed)
        for round in 0..<200 { fixture.tree.write("busy.log", String(repeating: "x", count: round + 1)) }
        fixture.tree.write("flash.txt")
        fixture.tree.remove("flash.txt")
        fixture.tree.write("gone/soon/inner.txt")
        shell("rm", "-rf", fixture.tree.url("gone"))
        fixture.outside.write("sentinel.txt", "last\n")
        shell("mv", fixture.outside.url("sentinel.txt"), fixture.tree.url("sentinel.txt"))
        #expect(await eventually { fixture.watcher.inbox.holdsEvent(named: "sentinel.txt") })
        fixture.watcher.holdsWindows.store(false, ordering: .relaxed)
        #expect(await fixture.settlesToDisk(), "\((try? fixture.indexedSizes()) ?? [:])")
        #expect(fixture.counter.count("busy.log") == 1)
        #expect(fixture.counter.count("flash.txt") == 0)
        #expect(fixture.counter.count("gone/soon/inner.txt") == 0)
        #expect(try fixture.indexedSizes() == ["busy.log": 200, "sentinel.txt": 5])
        try await fixture.stop()
    }

    @Test func aBurstLargerThanAWindowFlowsThroughWindowAfterWindow() async throws {
        // The size of a window ends it while the burst lasts (there is no quiet spell); the
        // delay ends the last one.
        let fixture = try Self.fixture(windowsEndAfter: .seconds(30), orAfter: .seconds(2), orAt: 64)
        try await fixture.start()
        var expected: Set<String> = []
        for number in 0..<600 {
            let name = "burst-\(number % 6)/note \(number).txt"
            fixture.tree.write(name, "note \(number)\n")
            expected.insert(name)
        }
        await fixture.settles(to: expected)
        try await fixture.stop()
    }

    @Test func anOverflowReconcilesTheRoot() async throws {
        let fixture = try WatchFixture(prepare: { $0.write("real.txt") })
        try await fixture.start()
        // Events the kernel dropped: an item for a file that is not there.
        try fixture.index.indexItems([SearchableItem(uniqueIdentifier: "phantom.txt", domainIdentifier: fixture.domain,
                                                     attributeSet: AttributeSet())])
        fixture.watcher.inbox.append([InotifyEvent(watch: .none, mask: .queueOverflow)])
        await fixture.settles(to: ["real.txt"])
        #expect(fixture.watcher.overflowCount == 1)
        #expect(fixture.log.all.contains { $0.contains("overflowed") })
        #expect(await eventually { (try? fixture.index.domainState(fixture.domain))??.watch?.overflows == 1 })
        try await fixture.stop()
    }

    @Test func reachingTheWatchLimitDegradesAndRescansPeriodically() async throws {
        let fixture = try WatchFixture({ options in
            options.maximumWatches = 3
            options.rescanInterval = .milliseconds(300)
        }, prepare: { tree in
            for index in 0..<6 { tree.write("folder\(index)/file.txt") }
        })
        try await fixture.start()
        #expect(fixture.watcher.watchCount == 3)
        #expect(!fixture.watcher.degradedSubtrees.isEmpty)
        #expect(fixture.log.all.filter { $0.contains("max_user_watches") }.count == 1)
        let health = try #require(try fixture.index.domainState(fixture.domain)?.watch)
        #expect(health.watchesUsed == 3 && health.watchLimit == 3 && !health.degradedSubtrees.isEmpty)
        // A change in an unwatched folder is found by the periodic rescan.
        fixture.tree.write("folder5/late.txt")
        var expected = Set((0..<6).map { "folder\($0)/file.txt" })
        expected.insert("folder5/late.txt")
        await fixture.settles(to: expected)
        try await fixture.stop()
    }

    /// A filesystem mounted elsewhere wakes the look at the root's drive; when the root moved
    /// away just before, its drive is where it was and the folder is not: the root is gone, not
    /// offline (the whole suite on a busy machine once showed a moved root's items offline).
    @Test func aLookAtTheDriveJustAfterTheRootMovedSaysTheRootIsGone() throws {
        let fixture = try WatchFixture(prepare: { $0.write("a.txt") })
        shell("mv", fixture.tree.path, fixture.outside.url("moved-root"))
        #expect {
            try fixture.watcher.checkDrive()
        } throws: { error in
            (error as? FileSystemError)?.code == .rootGone
        }
        #expect(!fixture.watcher.isOffline)
    }

    @Test func theRootDisappearingStopsTheWatchAndLeavesTheIndexAlone() async throws {
        let fixture = try WatchFixture(prepare: { $0.write("a.txt"); $0.write("sub/b.txt") })
        try await fixture.start()
        shell("mv", fixture.tree.path, fixture.outside.url("moved-root"))
        let outcome = await fixture.outcome()
        guard case .failure(let error) = outcome else {
            Issue.record("the watch went on after its root moved away")
            return
        }
        #expect((error as? FileSystemError)?.code == .rootGone, "\(error)")
        #expect(try fixture.indexed() == ["a.txt", "sub/b.txt"])
        // An error ends the watch as cleanly as a shutdown: the index says it is not running.
        #expect(try fixture.index.domainState(fixture.domain)?.watch?.running == false)
        // Released with the watch; another process sees it free once no child process spawned
        // at that moment still holds a copy of the descriptor (until its exec closes it).
        #expect(await eventually { !WatchLock.isHeld(index: fixture.index.path, domain: fixture.domain) })
    }

    @Test func aCancelledWatchStopsWhileItsWindowSettles() async throws {
        // Windows that wait long to settle: the cancellation must not wait for them (nor spin).
        let fixture = try WatchFixture({ options in
            options.settleInterval = .seconds(120)
            options.maximumDelay = .seconds(300)
        })
        try await fixture.start()
        #expect(await eventually { fixture.watcher.isFollowing.load(ordering: .relaxed) })
        fixture.tree.write("pending.txt")
        #expect(await eventually { fixture.watcher.inbox.pendingCount > 0 })
        try await fixture.stop(timeout: 60)
    }

    @Test func theWatchLockTellsWhetherAWatchRunsAndRefusesASecondOne() async throws {
        let fixture = try WatchFixture()
        #expect(!WatchLock.isHeld(index: fixture.index.path, domain: fixture.domain))
        try await fixture.start()
        #expect(WatchLock.isHeld(index: fixture.index.path, domain: fixture.domain))
        let second = try FolderWatcher(index: fixture.index, root: RootFolder(path: fixture.tree.path),
                                       options: FolderWatcher.Options(scan: FolderScanner.Options(domain: fixture.domain)),
                                       logger: fixture.log.logger)
        let refused = await #expect(throws: FileSystemError.self) { try await second.run() }
        #expect(refused?.code == .alreadyWatched)
        try await fixture.stop()
        #expect(await eventually { !WatchLock.isHeld(index: fixture.index.path, domain: fixture.domain) })
        // Ended, it says so in the index (STOPPING=1 and "not running" on every path).
        #expect(try fixture.index.domainState(fixture.domain)?.watch?.running == false)
    }

    @Test func theIndexLivingUnderTheRootIsNeverIndexed() async throws {
        let fixture = try WatchFixture(indexInsideRoot: true, prepare: { $0.write("doc.txt") })
        try await fixture.start()
        fixture.tree.write("second.txt")
        await fixture.settles(to: ["doc.txt", "second.txt"])
        #expect(fixture.counter.count("index.sqlite") == 0)
        #expect(fixture.counter.count("index.sqlite-wal") == 0)
        try await fixture.stop()
    }
}

@Suite("Watch self-check", .serialized)
struct WatchSelfCheckTests {
    /// Deletes items' rows with SQL, behind the index's back. The item table's triggers call a
    /// function only Searchlight defines: they are set aside meanwhile.
    static func deleteRows(_ identifiers: [String], from index: SearchableIndex) {
        let list = identifiers.map { "'\($0)'" }.joined(separator: ", ")
        shell("sh", "-c", """
            db='\(index.path)'
            triggers=$(sqlite3 "$db" "SELECT sql || ';' FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'item'")
            names=$(sqlite3 "$db" "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'item'")
            { echo 'BEGIN;'; for name in $names; do echo "DROP TRIGGER $name;"; done
              echo "DELETE FROM item WHERE CAST(identifier AS TEXT) IN (\(list));"
              echo "$triggers"; echo 'COMMIT;'; } | sqlite3 -bail "$db"
            """)
    }

    @Test func repairsAnIndexCorruptedBehindTheWatchersBackAndReportsIt() async throws {
        let fixture = try WatchFixture({ $0.selfCheckInterval = .milliseconds(500) }, prepare: { tree in
            tree.write("kept.txt")
            tree.write("lost.txt")
            tree.write("folder/also lost.txt")
        })
        try await fixture.start()
        #expect(try fixture.indexed().sorted() == ["folder/also lost.txt", "kept.txt", "lost.txt"])
        // Rows deleted with SQL, as a bug (or another program) would. No read here checks them
        // gone: under load the periodic check (every half second) can put them back first —
        // the two repairs it counts are what says they were gone. A check that overlapped
        // activity puts them back uncounted, as it should ("not counted" in the log): the rows
        // are deleted again then, a few times at most.
        var repaired = false
        for _ in 1...3 where !repaired {
            let uncounted = fixture.log.all.filter { $0.contains("(not counted)") }.count
            Self.deleteRows(["lost.txt", "folder/also lost.txt"], from: fixture.index)
            // The periodic check puts them back, warns with their paths and counts them.
            repaired = await eventually {
                fixture.watcher.selfCheckRepairs > 0
                    || fixture.log.all.filter { $0.contains("(not counted)") }.count > uncounted
            } && fixture.watcher.selfCheckRepairs > 0
        }
        #expect(repaired && fixture.watcher.selfCheckRepairs == 2,
                "\(fixture.watcher.selfCheckRepairs) repairs: \(fixture.log.all.filter { !$0.contains("the index matches") })")
        #expect(try fixture.indexed().sorted() == ["folder/also lost.txt", "kept.txt", "lost.txt"])
        let warning = fixture.log.all.first { $0.contains(") repaired 2 items") }
        #expect(warning?.contains("added \"lost.txt\"") == true, "\(fixture.log.all.suffix(5))")
        #expect(warning?.contains("added \"folder/also lost.txt\"") == true)
        #expect(await eventually { (try? fixture.index.domainState(fixture.domain))??.watch?.selfCheckRepairs == 2 })
        // A check of an index that is right repairs nothing.
        #expect(await fixture.watcher.checkNow())
        #expect(fixture.watcher.selfCheckRepairs == 2)
        try await fixture.stop()
    }

    @Test func aCheckThatOverlapsChangesCountsNothingAndRunsAgainOnceQuiet() async throws {
        let fixture = try WatchFixture(prepare: { tree in
            tree.write("lost.txt")
            tree.write("folder/inside.txt")
        })
        try await fixture.start()
        // The check re-inspects lost.txt (its row is gone); while it does, a folder is renamed:
        // its events come during the check, whose walk may already have seen the new name.
        Self.deleteRows(["lost.txt"], from: fixture.index)
        let root = fixture.tree.path
        fixture.counter.onRecord.withLock { hook in
            hook = { path in if path.lossyString == "lost.txt" { _ = rename(root + "/folder", root + "/renamed") } }
        }
        #expect(await fixture.watcher.checkNow())
        fixture.counter.onRecord.withLock { $0 = nil }
        // Not counted as repairs: the disk moved under the check. It runs again once quiet.
        #expect(fixture.watcher.selfCheckRepairs == 0)
        #expect(await eventually { fixture.log.all.contains { $0.contains("again: the disk changed during the last one") } })
        await fixture.settles(to: ["lost.txt", "renamed/inside.txt"])
        #expect(fixture.log.all.contains { $0.contains("changed while it ran (not counted)") })
        // A later check of the settled index repairs nothing.
        #expect(await fixture.watcher.checkNow())
        #expect(fixture.watcher.selfCheckRepairs == 0)
        try await fixture.stop()
    }
}
