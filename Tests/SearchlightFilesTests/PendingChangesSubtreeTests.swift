import Searchlight
import SearchlightTestSupport
import Testing
@testable import SearchlightFiles

@Suite("Pending changes: subtrees", .ownThread)
struct PendingChangesSubtreeTests {
    @Test func findsPathsBelowAnyOfManyFolders() {
        let folders: Set<ItemIdentifier> = ["a", "b/c", "b/c/d", "x-y"]
        #expect(PendingChanges.isPath("a", inSubtreeOfAnyOf: folders))
        #expect(PendingChanges.isPath("a/f.txt", inSubtreeOfAnyOf: folders))
        #expect(PendingChanges.isPath("b/c/e/f", inSubtreeOfAnyOf: folders))
        #expect(!PendingChanges.isPath("ab", inSubtreeOfAnyOf: folders))
        #expect(!PendingChanges.isPath("b/cd", inSubtreeOfAnyOf: folders))
        #expect(!PendingChanges.isPath("x", inSubtreeOfAnyOf: folders))
        #expect(!PendingChanges.hasAncestor("a", in: folders))
        #expect(PendingChanges.hasAncestor("anything/below", in: [""]))
        #expect(FolderWatcher.outermost(folders) == ["a", "b/c", "x-y"])
    }
}

@Suite("Pending changes: folder moves", .ownThread)
struct PendingChangesFolderMoveTests {
    @Test func aFolderRenamedWithinTheRootIsReKeyedThenWalked() {
        let root = WatchDescriptor(rawValue: 1)
        var table = WatchTable()
        _ = table.insert(root, path: [])
        _ = table.insert(WatchDescriptor(rawValue: 2), path: Array("old".utf8))
        var changes = PendingChanges(domain: "d", rootWatch: root, excluded: [])
        changes.add(InotifyEvent(watch: root, mask: [.movedFrom, .isDirectory], cookie: 7, name: Array("old".utf8)),
                    table: &table)
        changes.add(InotifyEvent(watch: root, mask: [.movedTo, .isDirectory], cookie: 7, name: Array("new".utf8)),
                    table: &table)
        #expect(changes.batch.changes.count == 1)
        // A file looked for under the old name in an earlier window is found by the walk.
        #expect(changes.crawl == ["new"])
        #expect(table.watch(forPath: Array("new".utf8)) == WatchDescriptor(rawValue: 2))
    }
}
