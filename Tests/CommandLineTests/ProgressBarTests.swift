import Foundation
import SearchlightTestSupport
import Testing

@Suite("searchlight scan on a terminal", .ownThread)
struct ProgressBarTests {
    let tree = TemporaryTree("progress")
    let work = TemporaryTree("progress-index")

    /// Runs a scan with a pseudo-terminal for its output (script(1)), returning what it drew.
    func scanOnATerminal() throws -> String {
        // `sh -c SCRIPT BINARY`: the binary the runner appends is $0.
        let command = "exec script -qefc \"$0 scan \(tree.path) --index \(work.path)/index.sqlite --no-thumbnails\" /dev/null"
        let result = try Searchlight.run([], prefix: ["/bin/sh", "-c", command])
        #expect(result.status == 0, "\(result.output)")
        return result.output
    }

    @Test func aScanOnATerminalDrawsProgressAgainstThePreviousScanThenClearsIt() throws {
        for number in 0..<30 { tree.write("folder\(number % 3)/file\(number).txt") }
        let first = try scanOnATerminal()
        #expect(first.contains("30 files"), "\(first.debugDescription)")
        #expect(first.contains("\r\u{1B}[K"), "the bar is cleared: \(first.debugDescription)")
        #expect(first.contains("\(tree.path): 30 added"))
        // The second scan knows how many files to expect: a bar with a percentage.
        let second = try scanOnATerminal()
        #expect(second.contains("100%"), "\(second.debugDescription)")
        #expect(second.contains("30 unchanged"))
    }
}
