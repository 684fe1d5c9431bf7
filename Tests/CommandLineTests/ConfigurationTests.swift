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
        #expect(try run(["search", "lighthouse"], environment: environment).paths(under: tree.path) == ["Lighthouse notes.txt"])
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
            ("[extraction]\nthumbnail = false\n", ":2: unknown key thumbnail in [extraction] — did you mean thumbnails?"),
            ("[server]\nhost = \"::1\"\nport = \"http\"\n", ":3: server.port must be a number from 1 to 65535, found the string \"http\""),
            ("[[roots]]\npath = \"/a\"\n\n[[roots]]\npath = \"relative\"\n", ":5: roots[2].path must be an absolute path"),
            ("priority = \"low\"\n", ":1: priority must be \"idle\" or \"normal\""),
            ("[[roots]]\npath = \"/a\"\n[[roots]]\npath = \"/a\"\n", ":4: two roots share the domain \"/a\""),
            ("[watch\nrescan-interval = 3\n", ":1:7: a table header is not closed"),
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

    /// A scanned tree and a configuration file naming its index, read through
    /// `$SEARCHLIGHT_CONFIG` by commands given no `--index`.
    func scannedTreeAndItsConfiguration() throws -> (tree: TemporaryTree, environment: [String: String]) {
        let tree = TemporaryTree("config-mistake-tree")
        tree.write("Apache Tika notes.txt", "parser\n")
        let scan = try run(["scan", tree.path, "--no-thumbnails", "--no-content"])
        #expect(scan.status == 0, "\(scan.stderr)")
        return (tree, ["SEARCHLIGHT_INDEX": "", "SEARCHLIGHT_CONFIG": configFile])
    }

    /// `port = "8080"` stops `serve`, which reads `[server]`, with the file, the line and what was
    /// expected; `search`, `status`, `list` and `scan` print it as a warning and go on.
    @Test func aMistakeInOneSectionStopsOnlyTheCommandsThatReadIt() throws {
        let (tree, environment) = try scannedTreeAndItsConfiguration()
        writeConfig("index = \"\(index)\"\n\n[server]\nhost = \"127.0.0.1\"\nport = \"8080\"\n")
        let mistake = "\(configFile):5: server.port must be a number from 1 to 65535, found the string \"8080\""
        let warning = "searchlight: warning: \(mistake) (ignored: this command does not read [server])\n"

        let search = try run(["search", "tika"], environment: environment)
        #expect(search.status == 0, "\(search.stderr)")
        #expect(search.lines.count == 1 && search.lines[0].hasSuffix("Apache Tika notes.txt"), "\(search.output)")
        #expect(search.stderr == warning)
        for command in [["status"], ["list"], ["scan", tree.path, "--no-thumbnails", "--no-content"]] {
            let result = try run(command, environment: environment)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(result.stderr == warning, "\(command)")
        }

        let serve = try run(["serve", "--config", configFile], environment: environment)
        #expect(serve.status == 64)
        #expect(serve.stderr == "searchlight: \(mistake)\n")
        let config = try run(["config"], environment: environment)
        #expect(config.status == 64 && config.stderr == "searchlight: \(mistake)\n", "\(config.stderr)")
    }

    /// A file that is not TOML: the commands that read something from it stop with the mistake
    /// in plain words; those that read nothing from it (an index named, help, the version) work.
    @Test func aBrokenFileStopsOnlyTheCommandsThatReadIt() throws {
        let (tree, environment) = try scannedTreeAndItsConfiguration()
        writeConfig("# my index\nindex = \"\(index)\"\n\nname = \"tika\n")
        let mistake = "searchlight: \(configFile):4:13: a string is not closed (a \" is missing before the end of the line)\n"
        for command in [["search", "tika"], ["list"], ["config"], ["scan", tree.path, "--index", index]] {
            let result = try run(command, environment: environment)
            #expect(result.status == 64, "\(command)")
            #expect(result.stderr == mistake, "\(command): \(result.stderr)")
        }
        for command in [["search", "tika", "--index", index], ["status", "--index", index], ["--version"], ["--help"]] {
            let result = try run(command, environment: environment)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(result.stderr.isEmpty, "\(command): \(result.stderr)")
        }
    }

    /// An unknown table or key names its line and the closest valid name; only the commands
    /// that read the section meant stop for it.
    @Test func anUnknownNameGetsTheClosestValidOne() throws {
        let (_, environment) = try scannedTreeAndItsConfiguration()
        writeConfig("index = \"\(index)\"\n\n[[root]]\npath = \"/srv/share\"\n")
        let mistake = "\(configFile):3: unknown table [[root]] — did you mean [[roots]]?"
        let scan = try run(["scan", "--config", configFile])
        #expect(scan.status == 64)
        #expect(scan.stderr == "searchlight: \(mistake)\n")
        let search = try run(["search", "tika"], environment: environment)
        #expect(search.status == 0)
        #expect(search.stderr == "searchlight: warning: \(mistake) (ignored: this command does not read [[roots]])\n")

        writeConfig("[[roots]]\npath = \"/srv/share\"\n# projects\nexclude = [\"*.iso\"]\n")
        let key = try run(["config", "--config", configFile])
        #expect(key.status == 64)
        #expect(key.stderr == "searchlight: \(configFile):4: unknown key exclude in [[roots]] — did you mean exclusions?\n")
    }

    /// `searchlight serach foo` names the command meant; a word close to none lists them all;
    /// a mistake after a valid command keeps swift-argument-parser's message.
    @Test func aMistypedCommandGetsTheClosestOne() throws {
        let typo = try run(["serach", "foo"])
        #expect(typo.status == 64)
        #expect(typo.stderr == "searchlight: unknown command \"serach\" — did you mean \"search\"?\n")
        let far = try run(["frobnicate"])
        #expect(far.status == 64)
        #expect(far.stderr.hasPrefix("searchlight: unknown command \"frobnicate\"; the commands are scan, search, "), "\(far.stderr)")
        let option = try run(["search", "--bogus", "x"])
        #expect(option.status == 64)
        #expect(!option.stderr.contains("unknown command"), "\(option.stderr)")
        #expect(try run(["help", "search"]).status == 0)
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
        #expect(try run(["list", "--domain", "documents"]).paths(under: documents.path).sorted()
                == [".searchlightignore", "letters/Letter to Ada.txt"])
        #expect(try run(["list", "--domain", projects.path]).paths(under: projects.path).sorted() == ["web/index.html", "web/package.json"])
        let status = try run(["status"]).output
        #expect(status.contains("\ndocuments\n  root:        \(documents.path)"), "\(status)")
        #expect(status.contains("\n\(projects.path)\n"), "\(status)")

        // A root given as an argument keeps its configured domain; a new exclusion removes items.
        let again = try run(["scan", "--config", configFile, "--no-thumbnails", documents.path, "--exclude", "letters/"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.lines == [again.lines[0]] && again.lines[0].contains("1 removed"), "\(again.output)")
        #expect(try run(["list", "--domain", "documents"]).paths(under: documents.path) == [".searchlightignore"])
    }

    /// No folder given, none configured and none in the index (there is no index yet): what to do.
    @Test func scanWithoutRootsIsAUsageError() throws {
        let result = try run(["scan"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("searchlight: no folder to index: give one"), "\(result.stderr)")
        #expect(result.stderr.contains("[[roots]]"), "\(result.stderr)")
        let twoWithDomain = try run(["scan", work.path, work.path + "/x", "--domain", "d"])
        #expect(twoWithDomain.status == 64)
    }
}
