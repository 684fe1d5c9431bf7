import Foundation
import Glibc
import Logging
import Searchlight
import SearchlightTestSupport
import Testing
@testable import SearchlightFiles

/// Scans a real temporary tree into a real index.
final class ScanFixture {
    let tree = TemporaryTree("scan")
    let indexFolder = TemporaryTree("index")
    let index: SearchableIndex
    let domain = "test"

    init() throws {
        index = try SearchableIndex(path: indexFolder.path + "/index.sqlite")
    }

    @discardableResult
    func scan(_ configure: (inout FolderScanner.Options) -> Void = { _ in }) throws -> ScanSummary {
        let root = try RootFolder(path: tree.path)
        var options = FolderScanner.Options(domain: domain)
        configure(&options)
        return try FolderScanner(index: index, root: root, options: options, logger: Logger(label: "test")).reconcile()
    }

    /// A scanner of the tree into the index, with default options.
    func makeScanner() throws -> FolderScanner {
        FolderScanner(index: index, root: try RootFolder(path: tree.path), options: .init(domain: domain),
                      logger: Logger(label: "test"))
    }

    /// Every identifier in the index, in byte order, as raw bytes.
    func indexed() throws -> [[UInt8]] {
        var all: [[UInt8]] = []
        try index.forEachItem(domain: domain) { all.append($0.item.uniqueIdentifier.bytes); return true }
        return all
    }

    func indexedNames() throws -> [String] { try indexed().map { String(decoding: $0, as: UTF8.self) } }
}

@Suite("Folder scanner", .ownThread)
struct FolderScannerTests {
    @Test func addsChangesDeletesAndSkipsUnchangedFiles() throws {
        let fixture = try ScanFixture()
        fixture.tree.write("a.txt")
        fixture.tree.write("sub/b.md", "# Title\n")
        fixture.tree.write("sub/deeper/c.json", "{\"k\": 1}\n")
        var summary = try fixture.scan()
        #expect((summary.added, summary.updated, summary.removed, summary.unchanged) == (3, 0, 0, 0))
        #expect(try fixture.indexedNames() == ["a.txt", "sub/b.md", "sub/deeper/c.json"])

        summary = try fixture.scan()
        #expect((summary.added, summary.updated, summary.removed, summary.unchanged) == (0, 0, 0, 3))

        fixture.tree.write("a.txt", "changed contents, longer\n")
        fixture.tree.remove("sub/deeper")
        fixture.tree.write("new.txt")
        summary = try fixture.scan()
        #expect((summary.added, summary.updated, summary.removed, summary.unchanged) == (1, 1, 1, 1))
        #expect(try fixture.indexedNames() == ["a.txt", "new.txt", "sub/b.md"])
        let a = try #require(try fixture.index.item("a.txt", domain: fixture.domain))
        #expect(a.item.attributeSet.size == 25)
        #expect(a.item.attributeSet.contentType == "text/plain")
    }

    @Test func derivesAttributesWithLibmagic() throws {
        let fixture = try ScanFixture()
        fixture.tree.write("notes/Quarterly_report-2024.json", "{\"revenue\": [1, 2, 3]}\n")
        try fixture.scan()
        let item = try #require(try fixture.index.item("notes/Quarterly_report-2024.json", domain: fixture.domain)).item
        let a = item.attributeSet
        #expect(a.displayName == "Quarterly_report-2024.json")
        #expect(a.title == "Quarterly_report-2024")
        #expect(a.contentType == "application/json")
        #expect(a.contentDescription?.contains("JSON") == true)
        #expect(a.contentTypeTree.contains("public.data"))
        #expect((5...10).contains(a.keywords.count))
        #expect(a.keywords.starts(with: ["quarterly", "report", "2024", "json"]))
        #expect(a.contentModificationDate != nil)
        let descriptor = open(fixture.tree.path + "/notes/Quarterly_report-2024.json", O_RDONLY)
        defer { close(descriptor) }
        let status = try FileStatus.of(descriptor: descriptor)
        #expect(item.changeStamp == status.changeStamp)
        #expect((item.changeStamp?.count ?? 0) < 32)
    }

    @Test func acceptsTheFixedSizeChangeStampsOfOlderIndexes() throws {
        let tree = TemporaryTree()
        tree.write("a.txt", "a")
        let descriptor = open(tree.path + "/a.txt", O_RDONLY)
        defer { close(descriptor) }
        let status = try FileStatus.of(descriptor: descriptor)
        var fixed: [UInt8] = []
        for value in [status.inode, status.size, UInt64(bitPattern: status.modificationNanoseconds),
                      UInt64(bitPattern: status.changeNanoseconds)] {
            withUnsafeBytes(of: value.littleEndian) { fixed.append(contentsOf: $0) }
        }
        #expect(status.hasChangeStamp(fixed))
        #expect(status.hasChangeStamp(status.changeStamp))
        fixed[8] ^= 1
        #expect(!status.hasChangeStamp(fixed))
        #expect(!status.hasChangeStamp(nil))
    }

    @Test func keepsStrangeNamesAsRawBytes() throws {
        let fixture = try ScanFixture()
        let latin1: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".txt".utf8)
        let newline = Array("two\nlines.txt".utf8)
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 251) + Array(".txt".utf8)
        #expect(long.count == 255)
        fixture.tree.write(latin1)
        fixture.tree.write(newline)
        fixture.tree.write(long)
        let summary = try fixture.scan()
        #expect(summary.added == 3)
        #expect(Set(try fixture.indexed()) == Set([latin1, newline, long]))
        #expect(try fixture.scan().unchanged == 3)
    }

    @Test func skipsFIFOsSymlinksHiddenNamesAndTheIndexItself() throws {
        let fixture = try ScanFixture()
        fixture.tree.write("real.txt")
        fixture.tree.write(".hidden.txt")
        fixture.tree.write(".config/settings.txt")
        #expect(mkfifo(fixture.tree.url("pipe"), 0o644) == 0)
        #expect(symlink("real.txt", fixture.tree.url("link.txt")) == 0)
        #expect(symlink("/etc", fixture.tree.url("etc-link")) == 0)
        // A symbolic link loop must not trap the walk.
        fixture.tree.mkdirs("loop")
        #expect(symlink("..", fixture.tree.url("loop/up")) == 0)
        #expect(symlink("self", fixture.tree.url("self")) == 0)
        // An index living under the root is never indexed.
        let inner = try SearchableIndex(path: fixture.tree.url("index.sqlite"))
        try inner.indexItems([SearchableItem(uniqueIdentifier: "x", domainIdentifier: "d", attributeSet: AttributeSet())])
        let root = try RootFolder(path: fixture.tree.path)
        var options = FolderScanner.Options(domain: fixture.domain)
        options.walk.excluded = IndexFiles.relativePaths(of: inner.path, below: root)
        let summary = try FolderScanner(index: fixture.index, root: root, options: options, logger: Logger(label: "t")).reconcile()
        #expect(summary.added == 1)
        #expect(try fixture.indexedNames() == ["real.txt"])
    }

    @Test func aHugeSparseFileCostsNoMoreThanASmallOne() throws {
        let fixture = try ScanFixture()
        let fd = open(fixture.tree.url("huge.bin"), O_WRONLY | O_CREAT, 0o644)
        #expect(fd >= 0)
        #expect(ftruncate(fd, 10 << 30) == 0)  // 10 GiB, all holes
        close(fd)
        try fixture.scan()
        let item = try #require(try fixture.index.item("huge.bin", domain: fixture.domain)).item
        #expect(item.attributeSet.size == 10 << 30)
        #expect(item.failure == nil)
        #expect(item.attributeSet.contentType != nil)
    }

    @Test func aTypeSwapFromFileToFolderIsReconciled() throws {
        let fixture = try ScanFixture()
        fixture.tree.write("thing")
        try fixture.scan()
        fixture.tree.remove("thing")
        fixture.tree.write("thing/inside.txt")
        let summary = try fixture.scan()
        #expect(summary.added == 1 && summary.removed == 1)
        #expect(try fixture.indexedNames() == ["thing/inside.txt"])
    }

    @Test func oneScannerReconcilesTheSameRootAgainAndAgain() throws {
        let fixture = try ScanFixture()
        fixture.tree.write("a.txt")
        fixture.tree.write("sub/b.txt")
        let scanner = try fixture.makeScanner()
        #expect(try scanner.reconcile().added == 2)
        // A second walk of the same open root must see every entry again.
        #expect(try scanner.reconcile().unchanged == 2)
        #expect(try scanner.reconcile(subtree: "sub").unchanged == 1)
        #expect(try fixture.indexedNames() == ["a.txt", "sub/b.txt"])
    }

    @Test func reconcilesOnlyASubtreeWhenAsked() throws {
        let fixture = try ScanFixture()
        fixture.tree.write("a/one.txt")
        fixture.tree.write("b/two.txt")
        try fixture.scan()
        fixture.tree.remove("a/one.txt")
        fixture.tree.remove("b/two.txt")
        fixture.tree.write("a/three.txt")
        let scanner = try fixture.makeScanner()
        let summary = try scanner.reconcile(subtree: "a")
        #expect(summary.added == 1 && summary.removed == 1)
        #expect(try fixture.indexedNames() == ["a/three.txt", "b/two.txt"])
    }

    @Test func manyFilesInManyFoldersConvergeInOrder() throws {
        let fixture = try ScanFixture()
        var expected: [String] = []
        for folder in 0..<40 {
            for file in 0..<25 {
                let name = "dir-\(folder % 7)/f\(folder)/file \(file).txt"
                fixture.tree.write(name, "\(folder) \(file)\n")
                expected.append(name)
            }
        }
        // Names around "/" in byte order: "a-b" < "a/" < "a0".
        fixture.tree.write("dir-1-x.txt")
        fixture.tree.write("dir-10.txt")
        expected += ["dir-1-x.txt", "dir-10.txt"]
        let summary = try fixture.scan { $0.batchSize = 97 }
        #expect(summary.added == expected.count)
        #expect(try fixture.indexed() == expected.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) })
        #expect(try fixture.scan().unchanged == expected.count)
    }

    @Test func keptInspectorsServeEveryRunUntilStopped() throws {
        let fixture = try ScanFixture()
        fixture.tree.write("a.txt")
        fixture.tree.write("new/b.txt")
        fixture.tree.write("new/deeper/c.txt")
        fixture.tree.write("other/d.txt")
        let scanner = try fixture.makeScanner()
        try scanner.startInspectors()
        defer { scanner.stopInspectors() }
        // One run for folders and files together, as a watcher's window does.
        var summary = try scanner.update(subtrees: ["new"], files: ["a.txt", "gone.txt", "other/d.txt"])
        #expect((summary.added, summary.removed) == (4, 0))
        #expect(try fixture.indexedNames() == ["a.txt", "new/b.txt", "new/deeper/c.txt", "other/d.txt"])
        fixture.tree.remove("other/d.txt")
        fixture.tree.write("a.txt", "changed, and longer\n")
        summary = try scanner.refresh(["a.txt", "other/d.txt"])
        #expect(summary.updated == 1)
        #expect(try scanner.reconcile().unchanged == 3)
        #expect(try fixture.indexedNames() == ["a.txt", "new/b.txt", "new/deeper/c.txt"])
    }

    @Test func refreshLooksUpMoreStampsThanOneReadHolds() throws {
        let fixture = try ScanFixture()
        let names = (0..<(FolderScanner.lookupBatchSize + 40)).map { "many/file \($0).txt" }
        for name in names { fixture.tree.write(name, name) }
        try fixture.scan()
        let scanner = try fixture.makeScanner()
        fixture.tree.write(names.last!, "changed")
        let summary = try scanner.refresh(names.map { ItemIdentifier($0) } + ["many/missing.txt"])
        #expect((summary.unchanged, summary.updated) == (names.count - 1, 1))
    }
}
