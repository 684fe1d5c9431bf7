import Foundation
import Glibc
import SearchlightTestSupport
import Testing

@Suite("searchlight query", .serialized, .ownThread)
struct QueryCommandTests {
    let tree = TemporaryTree("query-cli")
    let work = TemporaryTree("query-cli-index")
    var index: String { work.path + "/index.sqlite" }

    func scanFixture(index: String? = nil) throws {
        let index = index ?? self.index
        tree.write("Reports/Quarterly report 2024.md", "# Quarterly Report\n\nRevenue grew.\n")
        tree.write("Reports/old-report.txt", "an old report\n")
        tree.write("Photos/Canon EOS notes.txt", "camera settings\n")
        tree.write("Résumé.txt", "curriculum vitae\n")
        tree.write("data.json", "{\"a\": 1}\n")
        let first = try Searchlight.run(["scan", tree.path, "--no-thumbnails"], index: index)
        #expect(first.status == 0, "\(first.stderr)")
        // An old modification date for one file.
        var times = [timespec(tv_sec: 946_684_800, tv_nsec: 0), timespec(tv_sec: 946_684_800, tv_nsec: 0)]
        _ = utimensat(AT_FDCWD, tree.url("Reports/old-report.txt"), &times, 0)
        let second = try Searchlight.run(["scan", tree.path, "--no-thumbnails"], index: index)
        #expect(second.status == 0, "\(second.stderr)")
    }

    func query(_ text: String, _ extra: [String] = [], index: String? = nil) throws -> CommandResult {
        try Searchlight.run(["query", text] + extra, index: index ?? self.index)
    }

    /// The items `query` prints, relative to the tree.
    func found(_ text: String, index: String) throws -> [String] {
        try query(text, index: index).paths(under: tree.path)
    }

    @Test(arguments: IndexBackend.available) func theSpecificationsExamplesWork(_ backend: IndexBackend) async throws {
        let index = try await backend.makeIndex(in: work.path, label: "spec")
        try scanFixture(index: index)
        #expect(try found(#"title == "quarterly*"cd && contentModificationDate > $time.today(-7)"#, index: index)
                == ["Reports/Quarterly report 2024.md"])
        #expect(try found(#"* == "canon"cdw"#, index: index) == ["Photos/Canon EOS notes.txt"])
        #expect(try found(#"displayName == "resume*"cd"#, index: index) == ["Résumé.txt"])
        #expect(try found(#"contentType == "application/json""#, index: index) == ["data.json"])
        #expect(try found(#"contentModificationDate < $time.iso(2001-01-01T00:00:00Z)"#, index: index) == ["Reports/old-report.txt"])
        #expect(try found(#"path == "Reports/*" && !(displayName == "*old*")"#, index: index) == ["Reports/Quarterly report 2024.md"])
        #expect(try query(#"contentTypeTree == "text""#, ["--count"], index: index).lines == ["4"])
        #expect(try query(#"contentTypeTree == "image" && pixelWidth >= 1000"#, index: index).lines.isEmpty)
        let json = try query(#"displayName == "*.txt"c"#, ["--json"], index: index)
        #expect(json.lines.count == 3)
        for line in json.lines { #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil) }
        let nul = try query(#"displayName == "data.json""#, ["-0"], index: index)
        #expect(nul.stdout == Array(tree.url("data.json").utf8) + [0])
    }

    @Test func explainShowsTheSQLAndWhatMatched() throws {
        try scanFixture()
        let result = try query(#"* == "canon"cdw"#, ["--explain"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("SELECT"))
        #expect(result.output.contains("matched:"))
        #expect(result.output.contains("displayName"))
    }

    @Test(arguments: IndexBackend.available) func malformedQueriesExit64WithTheColumn(_ backend: IndexBackend) async throws {
        let index = try await backend.makeIndex(in: work.path, label: "malformed")
        try scanFixture(index: index)
        for (text, column) in [(#"title == "unterminated"#, 10), ("title === 3", 9), ("nosuch == 1", 1), ("(size > 3", 10)] {
            let result = try query(text, index: index)
            #expect(result.status == 64, "\(text)")
            #expect(result.stderr.contains("column \(column)"), "\(text): \(result.stderr)")
            let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count >= 3)
            if lines.count >= 3 {
                #expect(lines[1] == Substring(text))
                #expect(lines[2] == Substring(String(repeating: " ", count: column - 1) + "^"))
            }
            #expect(!result.stderr.contains("Backtrac"))
        }
    }

    @Test func liveQueriesReportItemsEnteringAndLeaving() throws {
        try scanFixture()
        let out = Pipe()
        let live = try Searchlight.start(["query", #"displayName == "*invoice*"cd"#, "--live"], index: index,
                                         stdout: out.fileHandleForWriting)
        try out.fileHandleForWriting.close()
        let received = OutputCollector(out.fileHandleForReading)
        tree.write("Invoice 7.txt")
        #expect(try Searchlight.run(["scan", tree.path, "--no-thumbnails"], index: index).status == 0)
        #expect(waitUntil { received.text.contains("+ \(tree.url("Invoice 7.txt"))\n") }, "\(received.text)")
        tree.remove("Invoice 7.txt")
        #expect(try Searchlight.run(["scan", tree.path, "--no-thumbnails"], index: index).status == 0)
        #expect(waitUntil { received.text.contains("- \(tree.url("Invoice 7.txt"))\n") }, "\(received.text)")
        kill(live.processIdentifier, SIGINT)
        live.waitUntilExit()
    }
}

/// Collects what a pipe delivers, as it comes.
final class OutputCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    init(_ handle: FileHandle) {
        let thread = Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { return }
                lock.withLock { data.append(chunk) }
            }
        }
        thread.start()
    }

    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
