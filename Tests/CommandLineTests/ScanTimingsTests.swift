import Foundation
import SearchlightTestSupport
import Testing

/// `scan --timings FILE`: a line per decoded file from the workers, which
/// `Benchmarks/content-timings.py` sums up.
@Suite("searchlight scan --timings", .serialized, .ownThread)
struct ScanTimingsTests {
    let tree = TemporaryTree("timings-cli")
    let work = TemporaryTree("timings-cli-index")
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func eachDecodedFileGetsALineOfItsCost() throws {
        tree.write("notes.md", "# Notes\n\nThe lighthouse at dawn.\n")
        tree.write("page.html", "<html><head><title>Harbour</title></head><body><p>Boats and tides.</p></body></html>\n")
        tree.write("empty.dat", "")
        let timings = work.path + "/timings.tsv"
        let result = try Searchlight.run(["scan", tree.path, "--no-thumbnails", "--no-ocr", "--timings", timings],
                                         index: work.path + "/index.sqlite")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.output.contains("3 added"))

        // The empty file is not decoded: two lines, in the order the workers answered.
        let lines = try String(contentsOfFile: timings, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        var formats: [String: [Substring]] = [:]
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            try #require(fields.count == 7, "\(line)")
            formats[String(fields[1])] = fields
        }
        let notes = try #require(formats["markdown"])
        #expect(notes[0] == "text")
        #expect(Double(notes[2]).map { $0 >= 0 } == true)
        #expect(Double(notes[3]).map { $0 >= 0 } == true)
        // The heading and the body.
        #expect(Int(notes[4]).map { $0 >= "Notes The lighthouse at dawn.".utf8.count } == true)
        #expect(notes[5] == "ok")
        #expect(notes[6] == "\(tree.path)/notes.md")
        #expect(formats["html"]?[6] == "\(tree.path)/page.html")

        let summary = try ChildProcess.run(["python3", Self.repository.appendingPathComponent("Benchmarks/content-timings.py").path,
                                            timings])
        let text = String(decoding: summary.stdout, as: UTF8.self)
        #expect(summary.status == 0, "\(String(decoding: summary.stderr, as: UTF8.self))")
        #expect(text.hasPrefix("2 files, "))
        #expect(text.contains("| text markdown | 1 |"))
        #expect(text.contains("| text html | 1 |"))
    }

    @Test func aTimingsFileThatCannotBeOpenedIsAClearError() throws {
        tree.write("notes.md", "# Notes\n")
        let result = try Searchlight.run(["scan", tree.path, "--no-thumbnails", "--timings", "/nonexistent/folder/t.tsv"],
                                         index: work.path + "/index.sqlite")
        #expect(result.status == 1)
        #expect(result.stderr == "searchlight: cannot open /nonexistent/folder/t.tsv for --timings: No such file or directory\n")
    }
}
