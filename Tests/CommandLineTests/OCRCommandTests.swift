import Foundation
import Glibc
import SearchlightTestSupport
import Testing

/// OCR through the built binary: `scan` reads pictures of text in its second pass, `search`
/// and `kMDItemTextContent` queries find their phrases, `show` marks the text as recognised,
/// `status` shows the queue; `--no-ocr` and the configuration turn it off; a missing language
/// is one clear line.
@Suite("searchlight OCR", .serialized, .ownThread)
struct OCRCommandTests {
    let tree = TemporaryTree("ocr-cli")
    let work = TemporaryTree("ocr-cli-index")
    var index: String { work.path + "/index.sqlite" }

    func run(_ arguments: [String]) throws -> CommandResult { try Searchlight.run(arguments, index: index) }

    func searchIDs(_ words: String...) throws -> [String] {
        try run(["search"] + words).paths(under: tree.path).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// `watch` of the tree, its standard error in `log`.
    func startWatch(log: String) throws -> ChildProcess {
        // No backoff: a busy test machine would defer the extraction (and OCR) of new files.
        let config = work.path + "/watch.toml"
        try "[watch]\nbackoff = false\n".write(toFile: config, atomically: true, encoding: .utf8)
        return try ChildProcess([Searchlight.binary, "watch", tree.path, "--config", config] + Searchlight.busyMachine,
                                environment: ["SEARCHLIGHT_INDEX": index, "XDG_CONFIG_HOME": "/nonexistent/ocr-config"],
                                stderr: .file(log))
    }

    @Test func scanReadsPicturesAndScannedPages() throws {
        tree.mkdirs("Scans")
        TextPictures.write(.init("Error 4031: the printer queue is jammed", font: "DejaVu Sans Mono 12", dpi: 200),
                           to: tree.url("screenshot.png"), scratch: work.path)
        TextPictures.writeScannedPDF(.init("Tenancy agreement for the flat above the chandlery", font: "DejaVu Serif 12",
                                           dpi: 150, rotation: 90, noise: 8),
                                     to: tree.url("Scans/contract.pdf"), scratch: work.path)
        tree.write("notes.txt", "nothing about printers here\n")
        let scan = try run(["scan", tree.path])
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(scan.output.contains("text in pictures: 2 pictures read in "), "\(scan.output)")
        #expect(scan.output.contains(", text in 2\n"), "\(scan.output)")
        // The scan's line and OCR's name their own times; the last line gives the whole command's.
        #expect(scan.lines.last?.hasPrefix("done in ") == true && scan.lines.last?.contains("text in pictures") == true,
                "\(scan.output)")
        #expect(try searchIDs("jammed") == ["screenshot.png"])
        // A page scanned sideways reads as well as an upright one.
        #expect(try searchIDs("chandlery") == ["Scans/contract.pdf"])
        let query = try run(["query", #"kMDItemTextContent == "*tenancy agreement*"cd"#])
        #expect(query.paths(under: tree.path) == ["Scans/contract.pdf"], "\(query.output) \(query.stderr)")
        let show = try run(["show", "screenshot.png"]).output
        #expect(show.contains(#"textContentSource       = "recognised (OCR)""#), "\(show)")
        #expect(!(try run(["show", "notes.txt"]).output.contains("textContentSource")))
        #expect(try run(["status"]).output.contains("ocr queue: 0 pictures waiting"))
        let status = try run(["status", "--json"]).output
        #expect(status.contains(#""ocrQueue":0,"#) || status.contains(#""ocrQueue":0}"#), "\(status)")

        // A copy is not read again: its text comes from the cache of the same bytes.
        shell("cp", tree.url("screenshot.png"), tree.url("copy of screenshot.png"))
        let again = try run(["scan", tree.path])
        #expect(again.output.contains("text in pictures: 1 picture read in "), "\(again.output)")
        #expect(again.output.contains(", text in 1 (1 known from a copy with the same bytes)"), "\(again.output)")
        #expect(try searchIDs("jammed").sorted() == ["copy of screenshot.png", "screenshot.png"])
    }

    @Test func noOCRAndConfiguration() throws {
        TextPictures.write(.init("Quince marmalade wins the county fair"), to: tree.url("label.png"), scratch: work.path)
        var scan = try run(["scan", tree.path, "--no-ocr"])
        #expect(scan.status == 0 && !scan.output.contains("text in pictures"), "\(scan.output)")
        #expect(try searchIDs("marmalade").isEmpty)

        // The configuration turns it off too; a missing language is one line naming its package.
        let config = work.path + "/config.toml"
        try "[extraction]\nocr = false\n".write(toFile: config, atomically: true, encoding: .utf8)
        tree.write("touch.txt")
        #expect(try run(["scan", tree.path, "--config", config]).status == 0)
        try "[extraction]\nocr-languages = [\"eng\", \"xqz\"]\n".write(toFile: config, atomically: true, encoding: .utf8)
        scan = try run(["scan", tree.path, "--config", config])
        #expect(scan.status == 1)
        #expect(scan.stderr.contains("OCR language 'xqz' is not installed") && scan.stderr.contains("tesseract-ocr-xqz"),
                "\(scan.stderr)")
        #expect(scan.stderr.split(separator: "\n").count == 1, "\(scan.stderr)")
        try "[extraction]\nocr-languages = [\"../eng\"]\n".write(toFile: config, atomically: true, encoding: .utf8)
        #expect(try run(["scan", tree.path, "--config", config]).status != 0)
        #expect(try run(["config", "--config", config]).status != 0)
    }

    @Test func watchReadsNewPicturesInTheBackground() throws {
        tree.write("first.txt")
        let log = work.path + "/watch.log"
        let watch = try startWatch(log: log)
        defer {
            kill(watch.processIdentifier, SIGTERM)
            _ = waitUntil { !watch.isRunning }
        }
        #expect(waitUntil { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("watching") })
        TextPictures.write(.init("Gooseberry crumble for the harvest supper"), to: work.url("crumble.png"), scratch: work.path)
        // Moved in whole, as a download or a save would land.
        shell("mv", work.url("crumble.png"), tree.url("crumble.png"))
        // Searchable by name at once; by its words once the second pass has read it.
        #expect(waitUntil { (try? searchIDs("crumble")) == ["crumble.png"] })
        #expect(waitUntil { (try? searchIDs("gooseberry")) == ["crumble.png"] }, "\((try? searchIDs("gooseberry")) ?? [])")
        #expect(waitUntil { (try? run(["status"]).output.contains("ocr queue: 0 pictures waiting")) == true })
    }

    /// Issue 34: a scan with a scanner's metadata, a scanned page among pages of text, items
    /// indexed with OCR off read later by `watch` in the background, `show`'s pages and
    /// `status`'s language packs.
    @Test func olderScansAreReadByWatchAndShowSaysWhichPages() throws {
        TextPictures.writePDF([.text("Minutes of the harbour committee, page one."),
                               .scan(.init("Receipt from the rope maker in Whitby", font: "DejaVu Serif 12", dpi: 150))],
                              info: ["Subject": "Converted: Tue Sep 28 17:32:00 1993", "Title": "scan0001"],
                              to: tree.url("minutes.pdf"), scratch: work.path)
        let scan = try run(["scan", tree.path, "--no-ocr"])
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(try searchIDs("committee") == ["minutes.pdf"])
        #expect(try searchIDs("whitby").isEmpty)

        let log = work.path + "/older.log"
        let watch = try startWatch(log: log)
        defer {
            kill(watch.processIdentifier, SIGTERM)
            _ = waitUntil { !watch.isRunning }
        }
        #expect(waitUntil { (try? searchIDs("whitby")) == ["minutes.pdf"] },
                "\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        #expect(((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("queued 1 pictures and PDFs indexed before OCR"))
        let show = try run(["show", "minutes.pdf"]).output
        #expect(show.contains(#"recognizedPages         = "1 of 1 scanned page""#), "\(show)")
        #expect(try searchIDs("committee") == ["minutes.pdf"], "the text layer's pages stay")

        // The language packs: installed, and the locale's that are missing, with their packages.
        let status = try Searchlight.run(["status"], index: index, environment: ["LANG": "fr_FR.UTF-8", "LANGUAGE": ""])
        #expect(status.output.contains("ocr languages: eng; for other scripts: ") && status.output.contains("ell")
                && status.output.contains("missing: fra (apt install tesseract-ocr-fra)"), "\(status.output)")
        let json = try Searchlight.run(["status", "--json"], index: index, environment: ["LANG": "fr_FR.UTF-8"])
        #expect(json.output.contains(#""missing":[{"language":"fra","package":"tesseract-ocr-fra"}]"#), "\(json.output)")
    }
}
