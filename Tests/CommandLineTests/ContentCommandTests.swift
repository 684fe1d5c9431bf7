import Foundation
import Glibc
import SearchlightTestSupport
import Testing

/// Document content through the built binary: scan reads it by default, `--no-content` turns
/// it off, a document that cannot be read is recorded quietly, and the `searchlight`
/// executable links none of the decoders.
@Suite("searchlight document content", .serialized, .ownThread)
struct ContentCommandTests {
    let tree = TemporaryTree("content-cli")
    let work = TemporaryTree("content-cli-index")
    var index: String { work.path + "/index.sqlite" }

    func run(_ arguments: [String], index: String? = nil, environment: [String: String] = [:]) throws -> CommandResult {
        let assignments = environment.map { "\($0.key)=\($0.value)" }
        return try Searchlight.run(arguments, index: index ?? self.index,
                                   prefix: assignments.isEmpty ? [] : ["/usr/bin/env"] + assignments)
    }

    func json(_ id: String, index: String? = nil) throws -> [String: Any] {
        let result = try run(["show", id, "--json"], index: index)
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
    }

    @Test(arguments: IndexBackend.available) func scanReadsDocumentsAndRecordsUnreadableOnesQuietly(_ backend: IndexBackend) async throws {
        let index = try await backend.makeIndex(in: work.path, label: "documents")
        tree.write("notes/2024-06.md", "# A week in Brittany\n\nWe climbed the old lighthouse at dawn.\n")
        tree.write("page.html", "<html><head><title>Harbour guide</title></head><body><p>Boats and tides.</p></body></html>\n")
        tree.write("stuck.txt", "a document whose worker hangs\n")
        // The debug build's test hook makes the worker hang on this file: it times out.
        let result = try run(["scan", tree.path, "--no-thumbnails", "--decoder-deadline", "5"], index: index,
                             environment: ["SEARCHLIGHT_EXTRACTOR_TEST_MODE": "hang-on:stuck"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.output.contains("3 added"))
        #expect(result.output.contains("1 without a preview"))

        let note = try json("notes/2024-06.md", index: index)
        #expect(note["title"] as? String == "A week in Brittany")
        #expect(try run(["show", "notes/2024-06.md"], index: index).output.contains("We climbed the old lighthouse at dawn."))
        #expect(try json("page.html", index: index)["title"] as? String == "Harbour guide")
        let stuck = try json("stuck.txt", index: index)
        #expect((stuck["failure"] as? String)?.hasPrefix("timed-out: content: timed out") == true)
        #expect(stuck["title"] as? String == "stuck")

        // Not retried until the file changes.
        let again = try run(["scan", tree.path, "--no-thumbnails", "--json"], index: index)
        #expect(again.output.contains("\"unchanged\":3"))
    }

    @Test(arguments: IndexBackend.available) func noContentIndexesNamesAndTypesOnly(_ backend: IndexBackend) async throws {
        let index = try await backend.makeIndex(in: work.path, label: "names")
        tree.write("trip.md", "# A week in Brittany\n\nThe lighthouse.\n")
        let result = try run(["scan", tree.path, "--no-content", "--no-thumbnails"], index: index)
        #expect(result.status == 0)
        let trip = try json("trip.md", index: index)
        #expect(trip["title"] as? String == "trip")
        #expect(!(try run(["show", "trip.md"], index: index).output.contains("lighthouse")))
        #expect(try run(["watch", "--help"], index: index).output.contains("--no-content"))
    }

    @Test(arguments: IndexBackend.available) func textOfEveryKindIsFoundByItsWords(_ backend: IndexBackend) async throws {
        let index = try await backend.makeIndex(in: work.path, label: "textkinds")
        // SubRip in ISO-8859-1, which libmagic calls application/x-subrip ("SubRip, ISO-8859 text").
        let subtitles = try ChildProcess.run(["/usr/bin/iconv", "-f", "UTF-8", "-t", "ISO-8859-1"], input: Array("""
            1
            00:00:01,000 --> 00:00:04,000
            L'été dernier, au château du phare.

            2
            00:00:05,000 --> 00:00:07,000
            Une crème brûlée, s'il vous plaît.

            """.utf8))
        #expect(subtitles.status == 0)
        #expect(FileManager.default.createFile(atPath: tree.url("film.srt"), contents: Data(subtitles.stdout)))
        // A feed cut short inside its last item's CDATA.
        tree.write("harbour.rss", """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>Harbour news</title>
            <item><title>Ferry times</title><description><![CDATA[<p>The ferry leaves at dawn.</p>]]></description></item>
            <item><title>Storm warning</title><description><![CDATA[<p>Cormorants shelter behind the breakwater until the gale pas
            """)
        // A mail whose HTML alternative says more than its plain part.
        tree.write("minutes.eml", """
            From: Ann <ann@example.com>
            Subject: Minutes
            MIME-Version: 1.0
            Content-Type: multipart/alternative; boundary="alt"

            --alt
            Content-Type: text/plain; charset=utf-8

            The meeting is at the harbour office.
            --alt
            Content-Type: text/html; charset=utf-8

            <div>The meeting is at the harbour office.</div><div>Bring the tide tables from the archive.</div>
            --alt--

            """)
        let scan = try run(["scan", tree.path, "--no-thumbnails"], index: index)
        #expect(scan.status == 0)
        #expect(scan.output.contains("3 added"), "\(scan.output)")
        for (words, found) in [("été château", "film.srt"), ("crème brûlée", "film.srt"), ("ete chateau", "film.srt"),
                               ("cormorants breakwater", "harbour.rss"), ("tide tables archive", "minutes.eml")] {
            let result = try run(["search", words], index: index)
            #expect(result.status == 0)
            #expect(result.output == tree.path + "/" + found + "\n", "\(words): \(result.output)")
        }
        // The words both alternatives say are in the text once.
        let minutes = try run(["show", "minutes.eml"], index: index).output
        #expect(minutes.components(separatedBy: "harbour office").count == 2, "\(minutes)")
    }

    /// The shared libraries an executable loads (`ldd`).
    static func libraries(of executable: String) throws -> String {
        let result = try ChildProcess.run(["/usr/bin/ldd", executable])
        #expect(result.status == 0)
        return String(decoding: result.stdout, as: UTF8.self)
    }

    @Test func theSearchCommandLinksNoDecoder() throws {
        let decoders = ["libvips", "libxml2", "libicuuc", "libicui18n", "libpoppler", "libmagickcore", "libarchive", "libtesseract", "liblept"]
        let searchlight = try Self.libraries(of: Searchlight.binary)
        // (libc: ldd did list libraries; a release build links SQLite statically.)
        #expect(searchlight.contains("libc.so"))
        for decoder in decoders { #expect(!searchlight.contains(decoder), "searchlight links \(decoder)") }
        // The worker is where they are: the check would see them.
        let extractor = URL(fileURLWithPath: Searchlight.binary).deletingLastPathComponent()
            .appendingPathComponent("searchlight-extractor").path
        let worker = try Self.libraries(of: extractor)
        for decoder in ["libvips", "libxml2", "libicuuc", "libarchive", "libtesseract"] { #expect(worker.contains(decoder), "the worker lacks \(decoder)") }
    }

    /// The web server (Hummingbird) is linked into `searchlight-serve` only: it would slow
    /// every start of `searchlight`. The PostgreSQL client (postgres-nio, on SwiftNIO) is in
    /// both: `searchlight` opens a shared index itself. Their Swift symbols tell (module names
    /// are mangled in).
    @Test func theSearchCommandLinksNoWebServer() throws {
        func symbols(_ executable: String) throws -> String {
            let result = try ChildProcess.run(["nm", "--defined-only", executable])
            #expect(result.status == 0)
            return String(decoding: result.stdout, as: UTF8.self)
        }
        let folder = URL(fileURLWithPath: Searchlight.binary).deletingLastPathComponent()
        let searchlight = try symbols(Searchlight.binary)
        let serve = try symbols(folder.appendingPathComponent("searchlight-serve").path)
        for module in ["11Hummingbird"] {
            #expect(!searchlight.contains(module), "searchlight links \(module.drop { $0.isNumber })")
            #expect(serve.contains(module), "searchlight-serve lacks \(module.drop { $0.isNumber }): the check would not see it")
        }
        #expect(searchlight.contains("11PostgresNIO"), "searchlight does not link the PostgreSQL client")
    }
}
