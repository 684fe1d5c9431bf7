import Foundation
import SearchlightTestSupport
import Testing

@Suite("searchlight open", .ownThread)
struct OpenCommandTests {
    let tree = TemporaryTree("open-cli")
    let work = TemporaryTree("open-cli-index")
    var index: String { work.path + "/index.sqlite" }

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
        try Searchlight.run(arguments, index: index, environment: environment)
    }

    @Test func withoutADesktopItPrintsTheCommandItWouldRun() throws {
        tree.write("reports/it's here.txt")
        #expect(try run(["scan", tree.path, "--no-thumbnails"]).status == 0)
        let result = try run(["open", "reports/it's here.txt"], environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.output == "xdg-open '\(tree.path)/reports/it'\\''s here.txt'\n")
        let unknown = try run(["open", "nothing.txt"], environment: ["DISPLAY": ""])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no item"))
        tree.remove("reports/it's here.txt")
        let gone = try run(["open", "reports/it's here.txt"], environment: ["DISPLAY": ""])
        #expect(gone.status == 1)
        #expect(gone.stderr.contains("no longer on disk"))
    }

    /// An item opened with `open` comes first, later, among the results that matched as it did;
    /// the history is the person's own file, not the index.
    @Test func anOpenedItemRanksHigherLater() throws {
        let state = TemporaryTree("open-cli-state")
        let environment = ["DISPLAY": "", "WAYLAND_DISPLAY": "", "XDG_STATE_HOME": state.path]
        tree.write("budget 2023.txt")
        tree.write("budget 2024.txt")
        tree.write("budget 2025.txt")
        #expect(try run(["scan", tree.path, "--no-thumbnails"]).status == 0)
        let before = try run(["search", "budget"], environment: environment).paths(under: tree.path)
        #expect(before.count == 3)
        let last = try #require(before.last)
        // Opened by the path search printed, found again by its identifier.
        #expect(try run(["open", tree.path + "/" + last], environment: environment).status == 0)
        #expect(try run(["search", "budget"], environment: environment).paths(under: tree.path).first == last)
        #expect(try run(["search", "budget", "--json"], environment: environment).output.hasPrefix(#"{"id":"\#(last)""#))
        #expect(FileManager.default.fileExists(atPath: state.path + "/searchlight/opened.tsv"))
    }

    @Test func onADesktopItRunsXdgOpenWithTheAbsolutePath() throws {
        tree.write("notes.txt")
        let other = TemporaryTree("open-cli-other")
        other.write("notes.txt")
        #expect(try run(["scan", tree.path, "--no-thumbnails"]).status == 0)
        #expect(try run(["scan", other.path, "--no-thumbnails", "--domain", "other"]).status == 0)
        // xdg-open needs a running desktop; a stand-in earlier in PATH records what it is given.
        let bin = TemporaryTree("open-cli-bin")
        let record = bin.path + "/opened"
        bin.write("xdg-open", "#!/bin/sh\nprintf '%s' \"$1\" > \(record)\nexit ${XDG_TEST_STATUS:-0}\n")
        #expect(chmod(bin.path + "/xdg-open", 0o755) == 0)
        let environment = ["DISPLAY": ":0", "PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")]
        let ambiguous = try run(["open", "notes.txt"], environment: environment)
        #expect(ambiguous.status == 64)
        #expect(ambiguous.stderr.contains("--domain"))
        let opened = try run(["open", "notes.txt", "--domain", "other"], environment: environment)
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(try String(contentsOfFile: record, encoding: .utf8) == other.path + "/notes.txt")
        var failing = environment
        failing["XDG_TEST_STATUS"] = "4"
        let failed = try run(["open", "notes.txt", "--domain", "other"], environment: failing)
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("exited with status 4"))
    }
}
