import Foundation
import Logging
import Searchlight
import SearchlightTestSupport
import Synchronization
import Testing
@testable import SearchlightFiles

/// The end of a scan: once the walk is done and only the files in the inspectors' hands are
/// left, what the writer holds is written while they are inspected, not after the last one.
@Suite("Folder scanner: the last batch", .ownThread)
struct FolderScannerDrainTests {
    @Test func findingsAreWrittenWhileTheLastFileIsStillBeingInspected() throws {
        let fixture = try ScanFixture()
        let quick = (1...6).map { "quick-\($0).txt" }
        for name in quick { fixture.tree.write(name, "text of \(name)\n") }
        fixture.tree.write("slow.txt", "the last file to be read\n")
        let index = fixture.index, domain = fixture.domain
        // The slow file's extraction waits until the other files are in the index: before the
        // change, the writer held them until the slow file was done, so the wait ran out.
        let sawOthersWritten = Mutex<Bool?>(nil)
        let extraction: @Sendable (inout SearchableItem, RootFolder) -> Void = { item, _ in
            guard item.uniqueIdentifier.bytes == Array("slow.txt".utf8) else { return }
            let deadline = Date().addingTimeInterval(30)
            var written = false
            while !written && Date() < deadline {
                written = quick.allSatisfy { name in (try? index.item(ItemIdentifier(bytes: Array(name.utf8)), domain: domain)) != nil }
                if !written { usleep(5_000) }
            }
            sawOthersWritten.withLock { $0 = written }
        }
        var options = FolderScanner.Options(domain: domain)
        options.inspectorCount = 2
        options.pipeline.testExtraction = extraction
        // Neither the count, the age nor the text of the batch would write it before the end.
        options.batchSize = 1000
        options.batchInterval = 3600
        options.batchTextBytes = 1 << 30
        let scanner = FolderScanner(index: index, root: try RootFolder(path: fixture.tree.path), options: options,
                                    logger: Logger(label: "test"))
        let summary = try scanner.reconcile()
        #expect(summary.added == 7)
        #expect(sawOthersWritten.withLock { $0 } == true)
        #expect(try fixture.indexedNames() == quick + ["slow.txt"])
    }
}
