import Searchlight
import Testing
@testable import SearchlightFiles

@Suite("Pending changes: subtrees")
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
