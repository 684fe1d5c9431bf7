import Foundation
import SearchlightTestSupport
import Testing

@Suite("searchlight configuration, several roots and exclusions", .ownThread)
struct ConfigurationTests {
    let work = TemporaryTree("config-cli")
    var index: String { work.path + "/index.sqlite" }
    var configFile: String { work.path + "/config.toml" }

    func writeConfig(_ text: String) {
        FileManager.default.createFile(atPath: configFile, contents: Data(text.utf8))
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
        try Searchlight.run(arguments, index: index, environment: environment)
    }

    /// The configuration file can name the index (Docs/Contract.md#shared-index: `--index`, `$SEARCHLIGHT_INDEX` or
    /// the configuration): a file, `~/` expanded, or a PostgreSQL URL whose password `config`
    /// never prints. `--index` and `$SEARCHLIGHT_INDEX` come first.
    @Test func theConfigurationNamesTheIndex() throws {
        let tree = TemporaryTree("config-index-tree")
        tree.write("Lighthouse notes.txt", "keeper\n")
        writeConfig("index = \"~/indexes/mine.sqlite\"\n")
        let environment = ["SEARCHLIGHT_INDEX": "", "SEARCHLIGHT_CONFIG": configFile, "HOME": work.path]
        let scan = try run(["scan", tree.path, "--no-thumbnails", "--no-content"], environment: environment)
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(FileManager.default.fileExists(atPath: work.path + "/indexes/mine.sqlite"))
        #expect(try run(["search", "lighthouse"], environment: environment).lines == ["Lighthouse notes.txt"])
        let elsewhere = try run(["search", "lighthouse", "--index", index], environment: environment)
        #expect(elsewhere.status == 1 && elsewhere.stderr.contains(index), "\(elsewhere.stderr)")
        var named = environment
        named["SEARCHLIGHT_INDEX"] = index
        #expect(try run(["search", "lighthouse"], environment: named).status == 1)

        writeConfig("index = \"postgres://ann:sesame@db.example/team\"\n")
        let shown = try run(["config"], environment: environment)
        #expect(shown.output.contains(#"index = "postgres://ann:***@db.example/team""#), "\(shown.output)")
        #expect(!shown.output.contains("sesame"))

        writeConfig("index = \"relative.sqlite\"\n")
        let relative = try run(["search", "lighthouse"], environment: environment)
        #expect(relative.status == 64 && relative.stderr.contains("index"), "\(relative.stderr)")
    }

    @Test func configPrintsEachValueWithItsOrigin() throws {
        writeConfig("""
            # my roots
            [[roots]]
            path = "~/Documents"
            domain = "documents"

            [extraction]
            thumbnails = false

            [server]
            port = 9000
            token = "s3cret"
            """)
        let result = try run(["config", "--config", configFile, "--priority", "normal"], environment: ["HOME": "/home/ada"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.lines
        func line(_ prefix: String) -> String? { lines.first { $0.hasPrefix(prefix) } }
        #expect(line("path = \"/home/ada/Documents\"")?.hasSuffix("# \(configFile):3") == true, "\(result.output)")
        #expect(line("thumbnails = false")?.hasSuffix("# \(configFile):7") == true)
        #expect(line("port = 9000")?.hasSuffix("# \(configFile):10") == true)
        #expect(line("priority = \"normal\"")?.hasSuffix("# option --priority") == true)
        #expect(line("text-limit = 1048576")?.hasSuffix("# default") == true)
        #expect(!result.output.contains("s3cret"), "the token is never printed")

        // The same through $SEARCHLIGHT_CONFIG; without any file, the defaults.
        #expect(try run(["config"], environment: ["SEARCHLIGHT_CONFIG": configFile]).output.contains("port = 9000"))
        let defaults = try run(["config"])
        #expect(defaults.status == 0)
        #expect(defaults.output.contains("(absent: defaults)"))
    }

    @Test func errorsNameTheLineAndTheKeyAndExit64() throws {
        let cases: [(String, String)] = [
            ("[extraction]\nthumbnail = false\n", ":2: extraction.thumbnail: unknown key"),
            ("[server]\nhost = \"::1\"\nport = \"http\"\n", ":3: server.port: expected an integer"),
            ("[[roots]]\npath = \"/a\"\n\n[[roots]]\npath = \"relative\"\n", ":5: roots[2].path: a root must be an absolute path"),
            ("priority = \"low\"\n", ":1: priority: expected \"idle\" or \"normal\""),
            ("[[roots]]\npath = \"/a\"\n[[roots]]\npath = \"/a\"\n", ":4: roots[2].path: two roots share the domain"),
            ("[watch\nrescan-interval = 3\n", ":1: "),
        ]
        for (text, expected) in cases {
            writeConfig(text)
            let result = try run(["config", "--config", configFile])
            #expect(result.status == 64, "\(text)")
            #expect(result.stderr.hasPrefix("searchlight: \(configFile)\(expected)"), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
        let missing = try run(["config", "--config", work.path + "/missing.toml"])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("cannot read"))
    }

    @Test func scanWithoutArgumentsTakesTheConfiguredRootsAndLeavesOutTheExcluded() throws {
        let documents = TemporaryTree("config-documents")
        let projects = TemporaryTree("config-projects")
        documents.write("letters/Letter to Ada.txt")
        documents.write("letters/draft.tmp")
        documents.write(".searchlightignore", "*.tmp\n")
        documents.write(".ssh/id_rsa", "-----BEGIN KEY-----\n")
        documents.write("server.pem")
        documents.write("notes/.env", "TOKEN=1\n")
        projects.write("web/index.html", "<title>Home</title>\n")
        projects.write("web/package.json", "{}\n")
        projects.write("web/node_modules/left-pad/index.js")
        projects.write("web/big.iso")
        writeConfig("""
            [[roots]]
            path = "\(documents.path)"
            domain = "documents"

            [[roots]]
            path = "\(projects.path)"
            exclusions = ["*.iso"]

            [exclusions]
            hidden = true
            """)
        let scan = try run(["scan", "--config", configFile, "--no-thumbnails"])
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(scan.lines.count == 3, "\(scan.output)")
        #expect(scan.lines[0].hasPrefix("\(documents.path): 2 added"), "\(scan.output)")
        #expect(scan.lines[1].hasPrefix("\(projects.path): 2 added"), "\(scan.output)")
        #expect(scan.lines[2].hasPrefix("total (2 roots): 4 added"), "\(scan.output)")
        #expect(scan.stderr.isEmpty, "\(scan.stderr)")
        // Hidden files are indexed (the ignore file itself), secrets and exclusions are not.
        #expect(try run(["list", "--domain", "documents"]).lines.sorted() == [".searchlightignore", "letters/Letter to Ada.txt"])
        #expect(try run(["list", "--domain", projects.path]).lines.sorted() == ["web/index.html", "web/package.json"])
        let status = try run(["status"]).output
        #expect(status.contains("\ndocuments\n  root:        \(documents.path)"), "\(status)")
        #expect(status.contains("\n\(projects.path)\n"), "\(status)")

        // A root given as an argument keeps its configured domain; a new exclusion removes items.
        let again = try run(["scan", "--config", configFile, "--no-thumbnails", documents.path, "--exclude", "letters/"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.lines == [again.lines[0]] && again.lines[0].contains("1 removed"), "\(again.output)")
        #expect(try run(["list", "--domain", "documents"]).lines == [".searchlightignore"])
    }

    @Test func scanWithoutRootsIsAUsageError() throws {
        let result = try run(["scan"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("no folder given"), "\(result.stderr)")
        let twoWithDomain = try run(["scan", work.path, work.path + "/x", "--domain", "d"])
        #expect(twoWithDomain.status == 64)
    }
}
