import Searchlight
import SearchlightTestSupport
import Testing
@testable import SearchlightFiles

/// Every branch of ``PendingChanges/add(_:table:)`` and of the end of a window, with
/// synthetic events: what each event turns into (index changes, refreshes, crawls) and what
/// it does to the watch table.
@Suite("Pending changes: every event", .ownThread)
struct PendingChangesTests {
    let root = WatchDescriptor(rawValue: 1)
    let docs = WatchDescriptor(rawValue: 2)
    let deep = WatchDescriptor(rawValue: 3)
    var table = WatchTable()
    var changes: PendingChanges

    init() {
        _ = table.insert(root, path: [])
        _ = table.insert(docs, path: Array("docs".utf8))
        _ = table.insert(deep, path: Array("docs/deep".utf8))
        changes = PendingChanges(domain: "d", rootWatch: root, excluded: ["index.sqlite"])
    }

    mutating func add(_ watch: WatchDescriptor, _ mask: InotifyEventMask, _ name: String = "", cookie: UInt32 = 0) {
        changes.add(InotifyEvent(watch: watch, mask: mask, cookie: cookie, name: Array(name.utf8)), table: &table)
    }

    /// The structural changes, as text.
    var structure: [String] {
        changes.batch.changes.map { change in
            switch change {
            case .move(_, let from, let to, _): "move \(from.lossyString) → \(to.lossyString)"
            case .deleteTree(_, let identifier): "delete tree \(identifier.lossyString)"
            case .delete(_, let identifier): "delete \(identifier.lossyString)"
            case .upsert(let item): "upsert \(item.uniqueIdentifier.lossyString)"
            case .setUserAttributes(_, let identifier, _, _, _): "user attributes \(identifier.lossyString)"
            case .setFolderAccess(_, let folder, _): "folder access \(folder)"
            }
        }
    }

    func path(of watch: WatchDescriptor) -> String? { table.path(for: watch).map { String(decoding: $0, as: UTF8.self) } }

    @Test mutating func aNewWindowIsEmpty() {
        #expect(changes.isEmpty)
        #expect(changes.description == "changes [], refresh [], crawl []")
    }

    @Test mutating func anOverflowAsksForAReconcileAndNothingElse() {
        add(WatchDescriptor(rawValue: -1), .queueOverflow)
        #expect(changes.overflowed)
        #expect(!changes.isEmpty)
        #expect(structure.isEmpty && changes.refresh.isEmpty && changes.crawl.isEmpty)
    }

    @Test(arguments: [InotifyEventMask.deleteSelf, .moveSelf, .unmount, .ignored])
    mutating func theRootGoingAwayEndsTheWatch(mask: InotifyEventMask) {
        add(root, mask)
        #expect(changes.rootGone)
    }

    @Test mutating func anIgnoredWatchIsForgotten() {
        add(deep, .ignored)
        #expect(path(of: deep) == nil)
        #expect(!changes.rootGone)
        #expect(changes.isEmpty)
    }

    @Test mutating func eventsWithoutANameOrFromUnknownWatchesAreSkipped() {
        add(docs, [.attrib, .isDirectory])
        add(WatchDescriptor(rawValue: 99), .create, "stray.txt")
        #expect(changes.isEmpty)
    }

    @Test mutating func hiddenAndExcludedNamesAreSkipped() {
        add(docs, .create, ".swap")
        add(root, .closeWrite, "index.sqlite")
        #expect(changes.isEmpty)
    }

    @Test(arguments: [InotifyEventMask.create, .closeWrite, .attrib, .modify])
    mutating func aFileEventRefreshesTheFile(mask: InotifyEventMask) {
        add(docs, mask, "a.txt")
        add(docs, mask, "a.txt")
        #expect(changes.refresh == ["docs/a.txt"])
        #expect(structure.isEmpty && changes.crawl.isEmpty)
    }

    @Test mutating func aFolderAttributeChangeIsNothingUnlessFoldersAccessIsFollowed() {
        add(docs, [.attrib, .isDirectory], "sub")
        #expect(changes.isEmpty)
        // A shared index records who may pass each folder: a chmod of one refreshes it.
        var shared = PendingChanges(domain: "d", rootWatch: root, excluded: [], followsFolderAccess: true)
        shared.add(InotifyEvent(watch: docs, mask: [.attrib, .isDirectory], cookie: 0, name: Array("sub".utf8)),
                   table: &table)
        #expect(shared.refresh == ["docs/sub"])
    }

    @Test mutating func aNewFolderIsCrawled() {
        add(docs, [.create, .isDirectory], "new")
        #expect(changes.crawl == ["docs/new"])
        #expect(structure.isEmpty)
    }

    @Test mutating func aDeletedFileIsRefreshedAndDropsNothingElse() {
        add(docs, .closeWrite, "b.txt")
        add(docs, .delete, "a.txt")
        #expect(changes.refresh == ["docs/a.txt", "docs/b.txt"])
        #expect(structure.isEmpty)
    }

    @Test mutating func aDeletedFolderDeletesItsSubtreeDropsItsPendingWorkAndItsWatches() {
        add(deep, .closeWrite, "f.txt")
        add(deep, [.create, .isDirectory], "sub")
        add(docs, .closeWrite, "kept.txt")
        add(docs, [.delete, .isDirectory], "deep")
        #expect(structure == ["delete tree docs/deep"])
        #expect(changes.refresh == ["docs/kept.txt"])
        #expect(changes.crawl.isEmpty)
        #expect(path(of: deep) == nil)
        #expect(path(of: docs) == "docs")
    }

    @Test mutating func aFileRenamedWithinTheRootIsMovedAndRefreshed() {
        add(docs, .movedFrom, "a.txt", cookie: 5)
        add(root, .movedTo, "b.txt", cookie: 5)
        #expect(structure == ["move docs/a.txt → b.txt"])
        #expect(changes.refresh == ["b.txt"])
        #expect(changes.unpairedFolders.isEmpty)
    }

    @Test mutating func aFolderMovedWithinTheRootReKeysItsPendingWorkAndWatches() {
        add(deep, .closeWrite, "f.txt")
        add(deep, [.create, .isDirectory], "sub")
        add(docs, [.movedFrom, .isDirectory], "deep", cookie: 9)
        add(root, [.movedTo, .isDirectory], "moved", cookie: 9)
        #expect(structure == ["move docs/deep → moved"])
        #expect(changes.refresh == ["moved/f.txt"])
        #expect(changes.crawl == ["moved", "moved/sub"])
        #expect(path(of: deep) == "moved")
    }

    @Test mutating func aMoveOutOfTheRootIsADeleteAndItsWatchesGo() {
        add(root, [.movedFrom, .isDirectory], "docs", cookie: 3)
        #expect(changes.unpairedFolders == ["docs"])
        let stale = changes.resolveUnpairedMoves(table: &table)
        #expect(Set(stale) == [docs, deep])
        #expect(structure == ["delete tree docs"])
        #expect(changes.unpairedFolders.isEmpty)
        #expect(path(of: docs) == nil && path(of: deep) == nil)
    }

    @Test mutating func aFileMovedOutOfTheRootIsADelete() {
        add(docs, .movedFrom, "a.txt", cookie: 4)
        #expect(changes.unpairedFolders.isEmpty)
        #expect(changes.resolveUnpairedMoves(table: &table).isEmpty)
        #expect(structure == ["delete tree docs/a.txt"])
    }

    @Test mutating func aMoveIntoTheRootIsACrawlOrARefresh() {
        add(docs, [.movedTo, .isDirectory], "incoming", cookie: 11)
        add(docs, .movedTo, "incoming.txt", cookie: 12)
        #expect(changes.crawl == ["docs/incoming"])
        #expect(changes.refresh == ["docs/incoming.txt"])
        #expect(structure.isEmpty)
    }

    @Test mutating func aMoveOutOfAFolderThatMovedAwayIsNotPairedItsSourceKeepsItsDelete() {
        // docs moved to a folder too new to be watched; then, inside it (still known under
        // its old path), deep is renamed: where its items are is not known, so it is crawled.
        add(root, [.movedFrom, .isDirectory], "docs", cookie: 20)
        add(docs, [.movedFrom, .isDirectory], "deep", cookie: 21)
        add(docs, [.movedTo, .isDirectory], "deeper", cookie: 21)
        add(docs, .movedFrom, "a.txt", cookie: 22)
        add(docs, .movedTo, "b.txt", cookie: 22)
        #expect(structure == ["delete tree docs", "delete tree docs/deep", "delete tree docs/a.txt"])
        #expect(changes.crawl == ["docs/deeper"])
        #expect(changes.refresh == ["docs/b.txt"])
        #expect(changes.unpairedFolders == ["docs"])
    }

    @Test mutating func aFolderFoundInANewFolderIsAdoptedAsAMove() {
        add(root, [.create, .isDirectory], "new")
        add(root, [.movedFrom, .isDirectory], "docs", cookie: 30)
        changes.adoptMove(from: "docs", to: "new/docs", table: &table)
        #expect(structure == ["move docs → new/docs"])
        #expect(changes.unpairedFolders.isEmpty)
        #expect(path(of: docs) == "new/docs" && path(of: deep) == "new/docs/deep")
        // Nothing is left to resolve: the watches stay.
        #expect(changes.resolveUnpairedMoves(table: &table).isEmpty)
        // Adopting a folder that did not move away changes nothing.
        changes.adoptMove(from: "other", to: "new/other", table: &table)
        #expect(structure == ["move docs → new/docs"])
    }

    @Test mutating func theDescriptionListsTheWindow() {
        add(root, [.movedFrom, .isDirectory], "docs", cookie: 40)
        add(root, [.movedTo, .isDirectory], "papers", cookie: 40)
        add(root, .closeWrite, "a.txt")
        add(WatchDescriptor(rawValue: -1), .queueOverflow)
        #expect(changes.description == "changes [\"move docs → papers\"], refresh [\"a.txt\"], crawl [\"papers\"], overflow")
    }
}
