import Foundation
import Glibc
import SearchlightTestSupport
import Testing

/// The commands on a PostgreSQL index (Docs/Contract.md#shared-index), through the built binaries against the test
/// cluster: `searchlight` opens the database itself, as `searchlight-serve` does. The same
/// folder scanned into an SQLite file and into a database gives the same answers.
@Suite("searchlight on PostgreSQL", .serialized, .ownThread, .needsPostgres)
struct PostgresCommandTests {
    let tree = TemporaryTree("pg-cli")
    let work = TemporaryTree("pg-cli-index")
    var sqlite: String { work.path + "/index.sqlite" }

    /// A tree with names that exercise the name rules (accents, case changes, digits, a
    /// name that is not UTF-8) in folders.
    func makeTree() {
        tree.write("Quarterly Report 2024.txt", "numbers\n")
        tree.write("notes/Résumé.md", "# CV\n")
        tree.write("notes/testWORD_various-2024.txt")
        tree.write("notes/drafts/report draft.txt")
        tree.write("archive/2023/Quarterly Report 2023.txt")
        tree.write(Array("archive/caf".utf8) + [0xE9] + Array(" menu.txt".utf8))
        tree.write("photos/holiday.JPG", "not really a photo\n")
    }

    /// The commands whose output must be the same on both indexes, byte for byte.
    static let comparedCommands: [[String]] = [
        ["search", "quart", "rep"], ["search", "2024"], ["search", "2024", "--count"], ["search", "resume"],
        ["search", "report", "--json"], ["search", "notes", "--names"], ["search", "menu", "-0"],
        ["search", "report", "--domain", "docs", "--limit", "2"],
        ["query", "kMDItemDisplayName == \"*report*\"cd"], ["query", "kMDItemFSName == \"*.txt\" && kMDItemFSSize > 5"],
        ["query", "kMDItemDisplayName == \"*report*\"cd", "--count"], ["query", "kMDItemDisplayName == \"q*\"c", "--json"],
        ["show", "notes/Résumé.md"], ["show", "notes/Résumé.md", "--json"], ["show", "notes/Résumé.md", "--domain", "docs"],
        ["list", "--count"], ["list", "--domain", "docs", "--count"],
    ]

    @Test func aScanIntoPostgreSQLAnswersAsTheSameScanIntoSQLite() async throws {
        makeTree()
        let url = try await PostgresCluster.shared().makeDatabase("cli")
        let scan = ["scan", tree.path, "--domain", "docs", "--no-thumbnails", "--no-content", "--json"]
        let intoSQLite = try Searchlight.run(scan, index: sqlite)
        let intoPostgres = try Searchlight.run(scan, index: url)
        #expect(intoSQLite.status == 0 && intoPostgres.status == 0, "\(intoPostgres.stderr)")
        #expect(intoPostgres.stderr.isEmpty, "\(intoPostgres.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(intoPostgres.stdout)) as? [String: Any]
        #expect(summary?["added"] as? Int == 7)
        for command in Self.comparedCommands {
            let expected = try Searchlight.run(command, index: sqlite)
            let actual = try Searchlight.run(command, index: url)
            #expect(expected.status == 0 && !expected.stdout.isEmpty, "\(command): \(expected.stderr)")
            #expect(actual.status == expected.status, "\(command): \(actual.stderr)")
            #expect(actual.output == expected.output, "\(command)")
        }
        // By domain then identifier on both; PostgreSQL orders domains by name.
        #expect(try Searchlight.run(["list"], index: url).lines == Searchlight.run(["list"], index: sqlite).lines)
        // A second scan finds nothing to do, on both.
        let again = try Searchlight.run(scan, index: url)
        let counts = try JSONSerialization.jsonObject(with: Data(again.stdout)) as? [String: Any]
        #expect(counts?["unchanged"] as? Int == 7 && counts?["added"] as? Int == 0, "\(again.output)")
        // The domain's row names the machine and the folder (Docs/Contract.md#shared-index).
        let name = String(url.split(separator: "/").last!.split(separator: "?")[0])
        let origin = try await PostgresCluster.shared().psql("SELECT host || ' ' || root FROM domain", database: name)
        var host = [CChar](repeating: 0, count: 256)
        gethostname(&host, 255)
        #expect(origin.trimmingCharacters(in: .whitespacesAndNewlines) == String(cString: host) + " " + tree.path)
        // status names the database by its URL without the password.
        let status = try Searchlight.run(["status"], index: url)
        #expect(status.status == 0)
        #expect(status.output.contains("docs") && status.output.contains("items:       7"), "\(status.output)")
        let password = try await PostgresCluster.shared().password
        #expect(!status.output.contains(password))
        #expect(status.output.contains("index: postgres://"))
        let json = try Searchlight.run(["status", "--json"], index: url)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [String: Any]
        #expect(object?["items"] as? Int == 7)
        // remove deletes the domain's rows, and only from the index.
        let removed = try Searchlight.run(["remove", "--domain", "docs"], index: url)
        #expect(removed.status == 0 && removed.output == "removed 7 items of docs\n", "\(removed.stderr)")
        #expect(try Searchlight.run(["list", "--count"], index: url).lines == ["0"])
        #expect(FileManager.default.fileExists(atPath: tree.url("notes/Résumé.md")))
        #expect(try Searchlight.run(["remove", "--domain", "docs"], index: url).status == 1)
    }

    /// `--index` on the command line, the password from `PGPASSWORD` or a password file:
    /// the URL need not hold it, and no message ever shows it.
    @Test func theURLComesFromTheOptionAndThePasswordFromTheEnvironmentOrAFile() async throws {
        makeTree()
        let cluster = try await PostgresCluster.shared()
        let withPassword = try await cluster.makeDatabase("cli")
        let database = String(withPassword.split(separator: "/").last!.split(separator: "?")[0])
        let bare = cluster.url(database: database, withPassword: false)
        var result = try Searchlight.run(["scan", tree.path, "--no-thumbnails", "--no-content", "--index", bare],
                                         environment: ["PGPASSWORD": cluster.password])
        #expect(result.status == 0, "\(result.stderr)")
        let passfile = work.path + "/pgpass"
        try "127.0.0.1:\(cluster.port):*:\(cluster.user):\(cluster.password)\n".write(toFile: passfile, atomically: true,
                                                                                        encoding: .utf8)
        chmod(passfile, 0o600)
        result = try Searchlight.run(["search", "resume", "--index", bare], environment: ["PGPASSFILE": passfile])
        #expect(result.status == 0 && result.paths(under: tree.path) == ["notes/Résumé.md"], "\(result.stderr)")
        // Without any password the server refuses: one line, exit 1.
        result = try Searchlight.run(["search", "resume", "--index", bare], environment: ["HOME": work.path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("searchlight: ") && result.stderr.split(separator: "\n").count == 1,
                "\(result.stderr)")
    }

    /// Thumbnails and text made by the real workers land in the database as in the file.
    @Test func thumbnailsAndTextAreTheSameOnBothIndexes() async throws {
        let noise = work.path + "/noise.v"
        shell("vips", "gaussnoise", noise, "640", "320", "--mean", "128", "--sigma", "40")
        shell("vips", "cast", noise, tree.url("photo.png"), "uchar")
        tree.write("notes.md", "# Lighthouse keeping\n\nThe lamp is lit at dusk.\n")
        let url = try await PostgresCluster.shared().makeDatabase("cli")
        for index in [sqlite, url] {
            let result = try Searchlight.run(["scan", tree.path, "--domain", "docs"], index: index)
            #expect(result.status == 0, "\(result.stderr)")
        }
        for index in [sqlite, url] {
            let result = try Searchlight.run(["thumbnail", "photo.png", "-o", work.path + "/thumbnail-\(index.hashValue).webp"],
                                             index: index)
            #expect(result.status == 0, "\(result.stderr)")
        }
        let fromFile = try Data(contentsOf: URL(fileURLWithPath: work.path + "/thumbnail-\(sqlite.hashValue).webp"))
        let fromDatabase = try Data(contentsOf: URL(fileURLWithPath: work.path + "/thumbnail-\(url.hashValue).webp"))
        #expect(fromDatabase.starts(with: Array("RIFF".utf8)) && fromDatabase == fromFile)
        for command in [["show", "photo.png", "--json"], ["show", "notes.md", "--text"], ["search", "lighthouse", "--json"],
                        ["search", "dusk", "--json"], ["query", "kMDItemTextContent == \"lamp\"cdw"]] {
            let expected = try Searchlight.run(command, index: sqlite)
            let actual = try Searchlight.run(command, index: url)
            #expect(expected.status == 0 && !expected.stdout.isEmpty, "\(command): \(expected.stderr)")
            #expect(actual.output == expected.output, "\(command): \(actual.stderr)")
        }
        let none = try Searchlight.run(["thumbnail", "notes.md", "-o", work.path + "/none.webp"], index: url)
        #expect(none.status == 1 && none.stderr.contains("has no thumbnail"), "\(none.stderr)")
    }

    /// `query --live` follows a shared index: another process's scans add and remove results.
    @Test func liveQueriesFollowTheDatabase() async throws {
        makeTree()
        let url = try await PostgresCluster.shared().makeDatabase("cli")
        let scan = ["scan", tree.path, "--domain", "docs", "--no-thumbnails", "--no-content"]
        #expect(try Searchlight.run(scan, index: url).status == 0)
        let out = Pipe()
        let live = try Searchlight.start(["query", #"displayName == "*invoice*"cd"#, "--live"], index: url,
                                         stdout: out.fileHandleForWriting)
        try out.fileHandleForWriting.close()
        let received = OutputCollector(out.fileHandleForReading)
        defer {
            kill(live.processIdentifier, SIGINT)
            live.waitUntilExit()
        }
        tree.write("Invoice 7.txt")
        #expect(try Searchlight.run(scan, index: url).status == 0)
        #expect(waitUntil { received.text.contains("+ \(tree.url("Invoice 7.txt"))\n") }, "\(received.text)")
        tree.remove("Invoice 7.txt")
        #expect(try Searchlight.run(scan, index: url).status == 0)
        #expect(waitUntil { received.text.contains("- \(tree.url("Invoice 7.txt"))\n") }, "\(received.text)")
        #expect(!received.text.contains("Quarterly"), "\(received.text)")
    }

    /// `searchlight` links the client: a command on a shared index runs in its own process
    /// (a search handed over to `searchlight-serve` paid a second start at every keystroke),
    /// and `searchlight-serve` by its own name answers the same.
    @Test func searchlightOpensASharedIndexItselfWithoutSearchlightServe() async throws {
        makeTree()
        let url = try await PostgresCluster.shared().makeDatabase("cli_alone")
        // A hand-over would run this path, which is not there.
        let alone = ["SEARCHLIGHT_SERVE": work.path + "/no-such-searchlight-serve"]
        let scan = try Searchlight.run(["scan", tree.path, "--domain", "docs", "--no-thumbnails", "--no-content"],
                                       index: url, environment: alone)
        #expect(scan.status == 0, "\(scan.stderr)")
        let search = try Searchlight.run(["search", "quart", "rep"], index: url, environment: alone)
        #expect(search.status == 0, "\(search.stderr)")
        #expect(search.lines.count == 2 && search.lines.allSatisfy { $0.hasSuffix(".txt") }, "\(search.output)")
        let count = try Searchlight.run(["query", "kMDItemFSName == \"*.txt\"", "--count"], index: url, environment: alone)
        #expect(count.status == 0 && count.lines == ["5"], "\(count.output)")
        let serve = URL(fileURLWithPath: Searchlight.binary).deletingLastPathComponent().appendingPathComponent("searchlight-serve").path
        let byServe = try ChildProcess.run([serve, "search", "quart", "rep", "--index", url])
        #expect(byServe.status == 0 && String(decoding: byServe.stdout, as: UTF8.self) == search.output)
    }

    @Test func aBadURLOrAnUnreachableServerIsOneClearLine() throws {
        // Port 1 on the loopback address: nothing listens there, the connection is refused.
        for command in [["search", "x"], ["status"], ["scan", tree.path, "--no-thumbnails", "--no-content"]] {
            let result = try Searchlight.run(command, index: "postgres://someone:sesame@127.0.0.1:1/index")
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.hasPrefix("searchlight: ") && result.stderr.split(separator: "\n").count == 1,
                    "\(command): \(result.stderr)")
            #expect(result.stderr.contains("postgres://someone@127.0.0.1:1/index"), "\(result.stderr)")
            #expect(!result.stderr.contains("sesame"))
        }
        for url in ["postgres://someone:sesame@127.0.0.1:port/index", "postgres://someone:sesame@127.0.0.1:5432/index?sslmode=maybe"] {
            let result = try Searchlight.run(["search", "x", "--index", url])
            #expect(result.status == 64, "\(url): \(result.stderr)")
            #expect(result.stderr.hasPrefix("searchlight: ") && result.stderr.split(separator: "\n").count == 1,
                    "\(result.stderr)")
            #expect(!result.stderr.contains("sesame"))
        }
    }

    /// Two machines may index folders of the same path into one database: a folder given
    /// without `--domain` is the domain `HOST:/path`, and another machine's files are never
    /// opened from this machine's disk.
    @Test func domainsOfASharedIndexNameTheirMachine() async throws {
        makeTree()
        let cluster = try await PostgresCluster.shared()
        let url = try await cluster.makeDatabase("hosts")
        let scan = try Searchlight.run(["scan", tree.path, "--no-thumbnails", "--no-content", "--json"], index: url)
        #expect(scan.status == 0, "\(scan.stderr)")
        var name = [CChar](repeating: 0, count: 256)
        #expect(gethostname(&name, 255) == 0)
        let domain = String(cString: name) + ":" + tree.path
        let summary = try JSONSerialization.jsonObject(with: Data(scan.stdout)) as? [String: Any]
        #expect(summary?["domain"] as? String == domain)
        #expect(try Searchlight.run(["search", "resume", "--domain", domain], index: url).paths(under: tree.path) == ["notes/Résumé.md"])
        // This machine's file opens (no desktop here: the command is printed).
        let open = try Searchlight.run(["open", "notes/Résumé.md"], index: url, prefix: ["/usr/bin/env", "-u", "DISPLAY", "-u", "WAYLAND_DISPLAY"])
        #expect(open.status == 0 && open.output.contains("xdg-open"), "\(open.stderr)")
        // The same domain recorded as another machine's: found, but not opened here.
        let database = String(url.split(separator: "/").last!.split(separator: "?").first!)
        try cluster.psql("UPDATE domain SET host = 'elsewhere.example'", database: database)
        #expect(try Searchlight.run(["search", "resume"], index: url).paths(under: tree.path) == ["notes/Résumé.md"])
        let elsewhere = try Searchlight.run(["open", "notes/Résumé.md"], index: url)
        #expect(elsewhere.status == 1 && elsewhere.stderr.contains("elsewhere.example"), "\(elsewhere.stderr)")
    }
}
