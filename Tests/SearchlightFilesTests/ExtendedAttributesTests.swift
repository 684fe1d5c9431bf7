import Foundation
import Glibc
import Logging
import Searchlight
import SearchlightTestSupport
import Synchronization
import SystemCalls
import SystemPackage
import Testing
@testable import SearchlightFiles

/// User attributes from real extended attributes on a real temporary folder (ext4 and tmpfs
/// keep `user.*`), and the scanner's narrow path for a change of attributes alone.
@Suite("Extended attributes", .ownThread)
struct ExtendedAttributesTests {
    @Test func valuesBecomeUserAttributes() {
        let values: [String: [UInt8]] = [
            "user.xdg.tags": Array(" work ,Q3,,WORK, 2024".utf8),
            "user.xdg.comment": Array("needs review".utf8) + [0],
            "user.baloo.rating": Array("7".utf8),
            "user.xdg.referrer.url": Array("https://example.com/".utf8),
        ]
        let attributes = ExtendedAttributes.userAttributes { values[$0] }
        #expect(attributes.userTags == ["work", "Q3", "2024"])
        #expect(attributes.comment == "needs review")
        #expect(attributes.starRating == 3.5)
        #expect(attributes.whereFroms == ["https://example.com/"])
        #expect(ExtendedAttributes.userAttributes { _ in nil }.isEmpty)
        for rating in ["11", "-1", "five", ""] {
            #expect(ExtendedAttributes.userAttributes { $0 == "user.baloo.rating" ? Array(rating.utf8) : nil }.starRating == nil)
        }
        #expect(ExtendedAttributes.userAttributes { $0 == "user.xdg.comment" ? [0xFF, 0xFE] : nil }.comment == nil)
        #expect(ExtendedAttributes.value(ofTags: ["a b", "c"]) == Array("a b,c".utf8))
    }

    @Test func systemCallsReadWriteAndRemove() throws {
        let tree = TemporaryTree("xattr")
        tree.write("f.txt")
        let path = tree.url("f.txt")
        #expect(try SystemCall.extendedAttribute("user.xdg.tags", path: path) == nil)
        try SystemCall.setExtendedAttribute("user.xdg.tags", to: Array("a,b".utf8), path: path)
        #expect(try SystemCall.extendedAttribute("user.xdg.tags", path: path) == Array("a,b".utf8))
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        #expect(ExtendedAttributes.read(descriptor: descriptor).user.userTags == ["a", "b"])
        try SystemCall.removeExtendedAttribute("user.xdg.tags", path: path)
        try SystemCall.removeExtendedAttribute("user.xdg.tags", path: path)
        #expect(try SystemCall.extendedAttribute("user.xdg.tags", path: path) == nil)
        #expect(throws: Errno.noSuchFileOrDirectory) { try SystemCall.extendedAttribute("user.xdg.tags", path: path + ".gone") }
        #expect(throws: Errno.notSupported) { try SystemCall.extendedAttribute("user.xdg.tags", path: "/proc/version") }
    }

    @Test func onlyTheChangeTimeMovesWhenAttributesChange() throws {
        let tree = TemporaryTree("xattr-stamp")
        tree.write("f.txt", "one\n")
        let root = try RootFolder(path: tree.path)
        let before = try root.status(of: "f.txt")
        #expect(!before.differsOnlyInChangeTime(from: before.changeStamp))
        #expect(!before.differsOnlyInChangeTime(from: nil))
        // The change time has a clock tick's resolution: wait until it would move.
        let deadline = Date().addingTimeInterval(10)
        var after = before
        while after.changeNanoseconds == before.changeNanoseconds && Date() < deadline {
            try SystemCall.setExtendedAttribute("user.xdg.tags", to: Array("x".utf8), path: tree.url("f.txt"))
            after = try root.status(of: "f.txt")
        }
        #expect(after.changeNanoseconds != before.changeNanoseconds)
        #expect(after.differsOnlyInChangeTime(from: before.changeStamp))
        tree.write("f.txt", "two!\n")
        #expect(!(try root.status(of: "f.txt")).differsOnlyInChangeTime(from: before.changeStamp))
    }

    @Test func aScanReadsAttributesAndRefreshesThemWithoutEnriching() throws {
        let tree = TemporaryTree("xattr-scan")
        let folder = TemporaryTree("xattr-index")
        let index = try SearchableIndex(path: folder.path + "/index.sqlite")
        tree.write("a.txt", "alpha\n")
        tree.write("b.txt", "bravo\n")
        try SystemCall.setExtendedAttribute("user.xdg.tags", to: Array("work".utf8), path: tree.url("a.txt"))
        let enriched = Mutex<[String]>([])
        func scan() throws -> ScanSummary {
            var options = FolderScanner.Options(domain: "d")
            options.pipeline.testExtraction = { item, _ in enriched.withLock { $0.append(item.uniqueIdentifier.lossyString) } }
            return try FolderScanner(index: index, root: try RootFolder(path: tree.path), options: options,
                                     logger: Logger(label: "test")).reconcile()
        }
        _ = try scan()
        #expect(enriched.withLock { $0.sorted() } == ["a.txt", "b.txt"])
        #expect(try index.item("a.txt", domain: "d")?.item.attributeSet.userTags == ["work"])
        #expect(try index.search(words: ["work"]).map(\.item.uniqueIdentifier) == ["a.txt"])
        enriched.withLock { $0.removeAll() }
        // A new comment and no other change: the item is updated, not enriched again.
        let before = try RootFolder(path: tree.path).status(of: "b.txt")
        let deadline = Date().addingTimeInterval(10)
        while (try RootFolder(path: tree.path).status(of: "b.txt")).changeNanoseconds == before.changeNanoseconds,
              Date() < deadline {
            try SystemCall.setExtendedAttribute("user.xdg.comment", to: Array("second draft".utf8), path: tree.url("b.txt"))
        }
        let summary = try scan()
        #expect((summary.updated, summary.unchanged) == (1, 1))
        #expect(enriched.withLock { $0 }.isEmpty)
        #expect(try index.item("b.txt", domain: "d")?.item.attributeSet.comment == "second draft")
        #expect(try index.search(words: ["draft"]).map(\.item.uniqueIdentifier) == ["b.txt"])
        #expect(try scan().unchanged == 2)
        // A change of content is enriched as ever.
        tree.write("b.txt", "bravo, longer\n")
        _ = try scan()
        #expect(enriched.withLock { $0 } == ["b.txt"])
    }
}
