import Foundation
import Glibc
import SearchlightTestSupport
import Testing

/// The workers' executable missing or broken: files are indexed by name and type, the outage
/// is said once, and content comes back when the executable does.
@Suite("A missing or broken searchlight-extractor", .serialized, .ownThread)
struct MissingExtractorTests {
    let tree = TemporaryTree("no-extractor")
    let work = TemporaryTree("no-extractor-index")

    /// The real extractor, next to the `searchlight` the tests run.
    var realExtractor: String { URL(fileURLWithPath: Searchlight.binary).deletingLastPathComponent().path + "/searchlight-extractor" }

    @Test func scanIndexesByNameAndTypeThenContentReturns() throws {
        let index = work.path + "/index.sqlite"
        for number in 1...12 { tree.write("notes/note-\(number).txt", "the word marmalade \(number)\n") }
        let missing = ["SEARCHLIGHT_EXTRACTOR": work.path + "/gone/searchlight-extractor"]
        let first = try Searchlight.run(["scan", tree.path], index: index, environment: missing)
        #expect(first.status == 0, "\(first.stderr)")
        // One line about the workers, none per file; nothing counted as failed.
        let mentions = first.stderr.split(separator: "\n").filter { $0.contains("extraction workers") }
        #expect(mentions.count == 1, "\(first.stderr)")
        #expect(first.output.contains("12 added") && first.output.contains("0 failed"), "\(first.output)")
        #expect(try Searchlight.run(["search", "note"], index: index).lines.count == 12)
        #expect(try Searchlight.run(["search", "marmalade"], index: index).lines.isEmpty)
        #expect(try Searchlight.run(["status", "--failures"], index: index).output.contains("marmalade") == false)
        // With the executable back, the next scan reads what was left for later.
        let second = try Searchlight.run(["scan", tree.path], index: index)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.output.contains("12 updated"), "\(second.output)")
        #expect(try Searchlight.run(["search", "marmalade"], index: index).lines.count == 12)
    }

    @Test func aBrokenExecutableIsAnOutageNotAFailurePerFile() throws {
        let index = work.path + "/broken.sqlite"
        for number in 1...5 { tree.write("doc-\(number).txt", "quince \(number)\n") }
        let broken = work.path + "/broken-extractor"
        // An executable that exits at once, whatever it is asked (copied by another process, as above).
        shell("cp", "/bin/false", broken)
        let result = try Searchlight.run(["scan", tree.path], index: index, environment: ["SEARCHLIGHT_EXTRACTOR": broken])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.output.contains("0 failed"), "\(result.output)")
        #expect(result.stderr.split(separator: "\n").filter { $0.contains("extraction workers") }.count == 1, "\(result.stderr)")
        #expect(try Searchlight.run(["status", "--failures"], index: index).output.contains("crashed") == false)
        #expect(try Searchlight.run(["scan", tree.path], index: index).status == 0)
        #expect(try Searchlight.run(["search", "quince"], index: index).lines.count == 5)
    }

    @Test func watchExtractsOnceTheExecutableReturns() throws {
        let index = work.path + "/watch.sqlite"
        let path = work.path + "/later/searchlight-extractor"
        let log = work.path + "/watch.log"
        let watch = try ChildProcess([Searchlight.binary, "watch", tree.path, "--no-thumbnails"] + Searchlight.busyMachine,
                                     environment: ["SEARCHLIGHT_INDEX": index, "SEARCHLIGHT_EXTRACTOR": path,
                                                   // A busy test machine must not make it defer the extraction waited for.
                                                   "SEARCHLIGHT_PRESSURE_ROOT": work.path + "/no-pressure"],
                                     stderr: .file(log))
        defer { if watch.isRunning { watch.send(SIGKILL); watch.waitUntilExit() } }
        #expect(waitUntil { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("watching") })
        tree.write("recipes/jam.txt", "apricot preserve\n")
        #expect(waitUntil { (try? Searchlight.run(["search", "jam"], index: index).paths(under: tree.path)) == ["recipes/jam.txt"] })
        #expect(try Searchlight.run(["search", "apricot"], index: index).lines.isEmpty)
        // The executable arrives; the watcher's retry reads the file without any new event.
        try FileManager.default.createDirectory(atPath: work.path + "/later", withIntermediateDirectories: true)
        // Copied by another process: a writable descriptor of ours could leak into a child that a
        // concurrent test spawns, and the copy would stay "text file busy".
        shell("cp", realExtractor, path)
        #expect(waitUntil { (try? Searchlight.run(["search", "apricot"], index: index).paths(under: tree.path)) == ["recipes/jam.txt"] },
                "log: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        watch.terminate()
        #expect(watch.exits(within: 30))
        #expect(watch.terminationStatus == 0)
        let text = try String(contentsOfFile: log, encoding: .utf8)
        #expect(text.split(separator: "\n").filter { $0.contains("do not work") }.count == 1, "\(text)")
        #expect(text.contains("work again"), "\(text)")
    }
}
