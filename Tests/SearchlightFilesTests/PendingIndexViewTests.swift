import Logging
import Searchlight
import SearchlightTestSupport
import Testing
@testable import SearchlightFiles

/// A window's crawls read the index as its moves and deletes will leave it, before they are
/// written (all of it is one transaction).
@Suite("Pending index view", .ownThread)
struct PendingIndexViewTests {
    @Test func readsTheIndexAsTheWindowsStructuralChangesWillLeaveIt() throws {
        let tree = TemporaryTree("view")
        let work = TemporaryTree("view-index")
        for name in ["a/1.txt", "a/2.txt", "a/sub/3.txt", "b/x.txt", "c/old.txt", "keep.txt"] { tree.write(name) }
        let index = try SearchableIndex(path: work.path + "/index.sqlite")
        let scanner = FolderScanner(index: index, root: try RootFolder(path: tree.path),
                                    options: .init(domain: "d"), logger: Logger(label: "test"))
        _ = try scanner.reconcile()
        let view = PendingIndexView(index: index, domain: "d", changes: [
            .move(domain: "d", from: "a", to: "c/a"),
            .deleteTree(domain: "d", identifier: "b"),
            .move(domain: "d", from: "c/a/sub", to: "moved"),
            .delete(domain: "d", identifier: "keep.txt"),
        ])
        #expect(view.source(of: "c/a/1.txt") == "a/1.txt")
        #expect(view.source(of: "moved/3.txt") == "a/sub/3.txt")
        #expect(view.source(of: "a/1.txt") == nil)
        #expect(view.source(of: "b/x.txt") == nil)
        #expect(view.source(of: "keep.txt") == nil)
        #expect(view.source(of: "c/old.txt") == "c/old.txt")
        #expect(try view.entries(below: "c").map(\.identifier.lossyString) == ["c/a/1.txt", "c/a/2.txt", "c/old.txt"])
        #expect(try view.entries(below: "moved").map(\.identifier.lossyString) == ["moved/3.txt"])
        #expect(try view.entries(below: "a").isEmpty)
        #expect(try view.entries(below: "").map(\.identifier.lossyString)
                == ["c/a/1.txt", "c/a/2.txt", "c/old.txt", "moved/3.txt"])
        let stamps = try view.changeStamps(of: ["c/a/2.txt", "b/x.txt", "moved/3.txt", "keep.txt"])
        #expect(Set(stamps.keys) == ["c/a/2.txt", "moved/3.txt"])
        // The stamps are those of the items' sources.
        let stored = try index.changeStamps(of: ["a/2.txt"], domain: "d")
        #expect(stamps["c/a/2.txt"]! == stored["a/2.txt"]!)
    }
}
