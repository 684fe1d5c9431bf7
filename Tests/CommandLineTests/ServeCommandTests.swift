import Foundation
import Glibc
import SearchlightTestSupport
import Testing

/// `searchlight serve` end to end: the built binary, a real index of generated images, and the
/// page loaded by a real headless browser (Debian's chromium).
@Suite("searchlight serve", .serialized, .ownThread)
struct ServeCommandTests {
    let tree = TemporaryTree("serve-cli")
    let work = TemporaryTree("serve-cli-index")
    var index: String { work.path + "/index.sqlite" }

    /// Makes an image with the `vips` command (libvips-tools).
    func makeImage(_ name: String, width: Int, height: Int) {
        let temporary = work.path + "/noise.v"
        shell("vips", "gaussnoise", temporary, "\(width)", "\(height)", "--mean", "128", "--sigma", "40")
        shell("vips", "cast", temporary, tree.url(name), "uchar")
    }

    /// A running `searchlight serve` and the address it printed.
    struct Server {
        let process: ChildProcess
        let address: String

        /// Sends SIGTERM and waits: the server must shut down cleanly.
        func stop() -> Int32 {
            process.terminate()
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    func startServer(_ extra: [String] = [], index: String? = nil) throws -> Server {
        try Self.startServer(extra, index: index ?? self.index)
    }

    /// Starts `searchlight serve` on a free port of the loopback, with `environment` added to
    /// the run's, and waits until it accepts connections.
    static func startServer(_ extra: [String] = [], index: String, environment: [String: String] = [:]) throws -> Server {
        let output = Pipe()
        // On a shared index the page reads as the server's role, as on one machine (sign-in: VisibilityTests).
        let process = try Searchlight.start(["serve", "--port", "0", "--no-sign-in"] + extra, index: index,
                                            environment: environment, stdout: output.fileHandleForWriting)
        try output.fileHandleForWriting.close()
        // The first line names the address once the server accepts connections.
        nonisolated(unsafe) var line = ""
        let reader = Thread {
            var bytes: [UInt8] = []
            while true {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                bytes += chunk
                if bytes.contains(0x0A) { break }
            }
            line = String(decoding: bytes, as: UTF8.self)
        }
        reader.start()
        let started = waitUntil(timeout: 60) { line.contains("\n") || !process.isRunning }
        #expect(started)
        let match = try #require(line.firstRange(of: /http:\/\/127\.0\.0\.1:[0-9]+\//), "printed: \(line)")
        return Server(process: process, address: String(line[match]))
    }

    /// Loads `url` in headless chromium (DevTools protocol, Browser/browse.py), types `text` into
    /// the search box, and returns what the page shows once `cards` results are there and every
    /// thumbnail in them has loaded.
    /// With `holdingSearch`, the page's search requests are held until the one for `text` is
    /// sent, and what the page shows meanwhile is under `"pending"`.
    func browse(_ url: String, typing text: String, cards: Int, holdingSearch: Bool = false) throws -> [String: Any] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Browser/browse.py").path
        let result = try ChildProcess.run(["python3", script, url, "--type", text, "--wait-cards", String(cards), "--timeout", "60"]
                                          + (holdingSearch ? ["--hold-search"] : []))
        #expect(result.status == 0, "browse.py: \(String(decoding: result.stdout, as: UTF8.self))")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
    }

    @Test(arguments: IndexBackend.available) func thePageShowsThumbnailsThatLoaded(_ backend: IndexBackend) async throws {
        let index = try await backend.makeIndex(in: work.path, label: "page")
        for number in 1...3 { makeImage("sunset \(number).png", width: 640 + number * 10, height: 480) }
        makeImage("harbour.jpg", width: 500, height: 700)
        tree.write("sunset notes.txt", "Notes about the sunsets.\n")
        let scan = try Searchlight.run(["scan", tree.path], index: index)
        #expect(scan.status == 0, "\(scan.stderr)")
        let server = try startServer(index: index)
        defer { _ = server.stop() }

        let page = try browse(server.address, typing: "sunset", cards: 4)
        #expect(page["cards"] as? Int == 4)
        // Each image's thumbnail is an <img> whose src is its thumbnailURL and alt its name, and it loaded.
        let images = try #require(page["images"] as? [[String: Any]])
        #expect(Set(images.compactMap { $0["alt"] as? String }) == ["sunset 1.png", "sunset 2.png", "sunset 3.png"])
        for image in images {
            #expect(image["loaded"] as? Bool == true, "\(image)")
            #expect((image["src"] as? String)?.hasPrefix("/api/thumbnails/") == true)
        }
        // The text file has a type icon instead; the address carries what was typed.
        #expect(page["icons"] as? Int == 1)
        #expect(page["address"] as? String == "/?q=sunset")
        #expect((page["summary"] as? String)?.hasPrefix("4 results") == true)

        // Spotlight's search words in the box, a comparison included (not taken for a query).
        let narrowed = try browse(server.address, typing: "kind:image modified:>2000-01-01 sunset", cards: 3)
        #expect(Set(narrowed["names"] as? [String] ?? []) == ["sunset 1.png", "sunset 2.png", "sunset 3.png"])

        // Opened from its address, the page runs the search itself.
        let bookmarked = try browse(server.address + "?q=harbour", typing: "", cards: 1)
        #expect(bookmarked["names"] as? [String] == ["harbour.jpg"])
        #expect(bookmarked["query"] as? String == "harbour")
    }

    /// While a search is on its way, the page says so, and the results of what was typed
    /// before are marked as outdated; the answer then replaces both (issue 47, item 4).
    @Test func thePageSaysItIsSearchingUntilTheAnswerComes() throws {
        tree.write("lighthouse keeper.txt", "The lamp was lit at dusk.\n")
        tree.write("lighthouse log.txt", "Storm from the west.\n")
        let scan = try Searchlight.run(["scan", tree.path, "--no-thumbnails"], index: index)
        #expect(scan.status == 0, "\(scan.stderr)")
        let server = try startServer(index: index)
        defer { _ = server.stop() }

        let page = try browse(server.address, typing: "lighthouse", cards: 2, holdingSearch: true)
        let pending = try #require(page["pending"] as? [String: Any], "\(page)")
        #expect(pending["summary"] as? String == "Searching for “lighthouse”…")
        #expect(pending["busy"] as? Bool == true)
        #expect(pending["answered"] as? String != "lighthouse")
        #expect(page["busy"] as? Bool == false)
        #expect((page["summary"] as? String)?.hasPrefix("2 results") == true, "\(page)")
        #expect(page["answered"] as? String == "lighthouse")
    }

    @Test func serveRefusesANonLoopbackAddressWithoutAToken() throws {
        let result = try Searchlight.run(["serve", "--host", "0.0.0.0"], index: index, prefix: ["/usr/bin/env", "-u", "SEARCHLIGHT_TOKEN"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("not a loopback address"))
        let missing = try Searchlight.run(["serve", "--port", "0"], index: work.path + "/none.sqlite")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no index"))
    }

    @Test(arguments: IndexBackend.available) func serveWatchIndexesNewFilesAndShutsDownCleanly(_ backend: IndexBackend) async throws {
        let index = try await backend.makeIndex(in: work.path, label: "watch")
        tree.write("first.txt", "one\n")
        let server = try startServer(["--watch", tree.path, "--no-thumbnails"], index: index)
        tree.write("second report.txt", "two\n")
        let found = try waitUntil(timeout: 30) {
            try Searchlight.run(["search", "second"], index: index).output.contains("second report.txt")
        }
        #expect(found)
        #expect(server.stop() == 0)
    }
}
