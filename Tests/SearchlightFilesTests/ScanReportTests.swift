import Foundation
import Glibc
import Searchlight
import SearchlightTestSupport
import Testing
@testable import SearchlightFiles

/// What a run of the scanner gives back besides its counts: nothing unless asked, and then the
/// changes it made and what it saw of hard-linked files, for a watcher to act on afterwards.
@Suite("Scan report", .ownThread)
struct ScanReportTests {
    @Test func aRunRecordsOnlyWhatItIsAskedFor() throws {
        let fixture = try ScanFixture()
        fixture.tree.write("a.txt", "one\n")
        fixture.tree.write("b.txt", "two\n")
        fixture.tree.mkdirs("sub")
        #expect(link(fixture.tree.url("b.txt"), fixture.tree.url("sub/b-too.txt")) == 0)
        fixture.tree.write("c.txt", "three\n")
        let scanner = try fixture.makeScanner()
        let first = try scanner.reconcile(records: [])
        #expect(first.summary.added == 4)
        #expect(first.changes.isEmpty && first.linkSightings.isEmpty)

        fixture.tree.write("a.txt", "one, longer now\n")
        fixture.tree.remove("c.txt")
        fixture.tree.write("d.txt", "four\n")
        let second = try scanner.reconcile(records: [.changes, .hardLinks])
        #expect((second.summary.added, second.summary.updated, second.summary.removed) == (1, 1, 1))
        #expect(second.changes.map { "\($0.change) \($0.identifier.lossyString)" }.sorted()
                == ["added d.txt", "removed c.txt", "updated a.txt"])
        // The walk's hard-linked files, unchanged since the first run.
        #expect(second.linkSightings.map(\.path) == ["b.txt", "sub/b-too.txt"])
        #expect(second.linkSightings.allSatisfy { $0.status?.linkCount == 2 && !$0.changed })

        // A permission alone: only the change stamp moves.
        #expect(chmod(fixture.tree.url("d.txt"), 0o600) == 0)
        let third = try scanner.reconcile(records: .changes)
        #expect(third.changes.map { "\($0.change) \($0.identifier.lossyString)" } == ["restamped d.txt"])
        #expect(third.linkSightings.isEmpty)

        // A refresh reports every path it looks at, a gone one too (its name is forgotten).
        let refreshed = try scanner.refresh(["b.txt", "gone.txt"], records: .hardLinks)
        #expect(refreshed.changes.isEmpty)
        #expect(refreshed.linkSightings.map(\.path) == ["b.txt", "gone.txt"])
        #expect(refreshed.linkSightings.map { $0.status?.linkCount } == [2, nil])
        #expect(refreshed.linkSightings.map(\.changed) == [false, true])
    }
}
