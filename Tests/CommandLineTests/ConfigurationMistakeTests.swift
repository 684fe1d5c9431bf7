import ArgumentParser
@testable import SearchlightCommands
import Testing

/// The pure parts of telling a configuration mistake: the closest name, toml++'s messages in
/// plain words, the line of a key, and which command reads which section. In process, on
/// texts: the end-to-end cases are in ConfigurationTests.
@Suite("configuration mistakes, in plain words")
struct ConfigurationMistakeTests {
    /// The problems of `text` read as the file `c.toml`, as printed.
    func problems(_ text: String) -> [String] {
        Configuration(text: text, file: "c.toml", home: "/home/ada").problems.map(\.description)
    }

    @Test func aSwapIsOneEditAndCaseIsIgnored() {
        #expect(ClosestName.distance("serach", "search") == 1)
        #expect(ClosestName.distance("root", "roots") == 1)
        #expect(ClosestName.distance("kitten", "sitting") == 3)
        #expect(ClosestName.distance("", "scan") == 4)
        #expect(ClosestName.distance("SEARCH", "search") == 0)
        #expect(ClosestName.distance("thumbnial", "thumbnail") == 1)
    }

    @Test func onlyACloseNameIsSuggested() {
        let commands = ["scan", "search", "list", "show", "status", "serve", "config", "tag"]
        #expect(ClosestName.suggestion(for: "serach", among: commands) == "search")
        #expect(ClosestName.suggestion(for: "stauts", among: commands) == "status")
        #expect(ClosestName.suggestion(for: "stat", among: commands) == "status")
        #expect(ClosestName.suggestion(for: "serv", among: commands) == "serve")
        #expect(ClosestName.suggestion(for: "frobnicate", among: commands) == nil)
        #expect(ClosestName.suggestion(for: "x", among: commands) == nil)
        #expect(ClosestName.suggestion(for: "srv", among: commands) == nil)
        #expect(ClosestName.suggestion(for: "exclude", among: ["path", "domain", "exclusions"]) == "exclusions")
        #expect(ClosestName.suggestion(for: "text_limit", among: ["text-limit", "content"]) == "text-limit")
    }

    @Test func tomlMessagesInPlainWords() {
        let cases: [(String, String)] = [
            ("a = 1\n\n\nb = \"abc\nc = 2\n", "c.toml:4:9: a string is not closed (a \" is missing before the end of the line)"),
            ("b = 'abc\n", "c.toml:1:9: a string is not closed (a ' is missing before the end of the line)"),
            ("port 8080\n", "c.toml:1:6: = is missing after the key (found '8')"),
            ("port =\n", "c.toml:1:7: a value is missing after ="),
            ("port = 1\nport = 2\n", "c.toml:2:8: the key port is set twice"),
            ("[server]\nport = 1\n[server]\n", "c.toml:3:1: the table [server] is written twice: give each table one header, with all its keys below it"),
            ("port = abc\n", "c.toml:1:8: the value is not one TOML knows: text needs quotes (\"…\"), true and false are written in lowercase"),
            ("[watch\nrescan-interval = 3\n", "c.toml:1:7: a table header is not closed (a ] is missing)"),
            ("p = \"C:\\path\"\n", "c.toml:1:9: '\\p' is not an escape in a \"…\" string: write \\\\ for a backslash, or put the text in '…' (a string taken as it is, such as a Windows path)"),
            ("p = [\"a\" \"b\"]\n", "c.toml:1:10: a list is not closed or lacks a comma (write [\"a\", \"b\"])"),
        ]
        for (text, expected) in cases {
            #expect(problems(text) == [expected], "\(text)")
        }
        // Another message keeps toml++'s words, after the position.
        #expect(problems("p = 2024-13-01\n") == ["c.toml:1:12: not valid TOML: date: expected month between 1 and 12 (inclusive), saw 13"])
        #expect(TOMLSyntaxMessage.plain("something else") == "not valid TOML: something else")
    }

    @Test func unknownNamesGetTheirLineAndTheClosestName() {
        #expect(problems("# roots\n\n[[root]]\npath = \"/a\"\n") == ["c.toml:3: unknown table [[root]] — did you mean [[roots]]?"])
        #expect(problems("[[roots]]\npath = \"/a\"\nexclude = [\"*.iso\"]\n")
            == ["c.toml:3: unknown key exclude in [[roots]] — did you mean exclusions?"])
        #expect(problems("[extraction]\nthumbnail = false\n") == ["c.toml:2: unknown key thumbnail in [extraction] — did you mean thumbnails?"])
        #expect(problems("prority = \"idle\"\n") == ["c.toml:1: unknown key prority — did you mean priority?"])
        #expect(problems("[serve]\nport = 1\n") == ["c.toml:1: unknown table [serve] — did you mean [server]?"])
        // Nothing close: the names there are.
        #expect(problems("[server]\nfoo = 1\n") == ["c.toml:2: unknown key foo in [server]; [server] has host, port and token"])
        #expect(problems("[foo]\n") == ["c.toml:1: unknown table [foo]; the file has index, priority, [[roots]], "
                                        + "[exclusions], [extraction], [meaning], [watch], [removable] and [server]"])
        #expect(problems("[removable]\nindex = true\nkeep-offline-day = 3\n")
            == ["c.toml:3: unknown key keep-offline-day in [removable] — did you mean keep-offline-days?"])
        #expect(problems("[removable]\nplaces = [\"media\"]\n")
            == ["c.toml:2: removable.places must list absolute folders or ~/…, found \"media\""])
        // The section of the name meant, else none a command reads.
        let sections = Configuration(text: "[[root]]\npath = \"/a\"\n[foo]\n", file: "c.toml", home: "/").problems.map(\.section)
        #expect(sections == [.roots, .unknown])
    }

    @Test func everyMistakeIsKeptInTheOrderOfTheFile() {
        let text = """
            [server]
            port = "8080"
            [extraction]
            thumbnails = "no"

            [[rots]]
            path = "/x"
            """
        #expect(problems(text) == [
            "c.toml:2: server.port must be a number from 1 to 65535, found the string \"8080\"",
            "c.toml:4: extraction.thumbnails must be true or false, found the string \"no\"",
            "c.toml:6: unknown table [[rots]] — did you mean [[roots]]?",
        ])
        let configuration = Configuration(text: text, file: "c.toml", home: "/")
        #expect(configuration.problems.map(\.section) == [.server, .extraction, .roots])
        // What is right is read all the same.
        #expect(Configuration(text: "[server]\nport = \"8080\"\nhost = \"::1\"\n", file: "c.toml", home: "/").server.host.value == "::1")
    }

    @Test func aKeyIsFoundHoweverItIsWritten() {
        let layout = TOMLLayout(text: """
            # [server] in a comment
            notes = \"\"\"
            [server]
            port = 1
            \"\"\"
            list = [
              "a", # port = 2
              "b",
            ]
            "server" . 'port' = 3
            [[roots]]
            path = "/a"  # a comment
            [[ roots ]]
            domain = "b"
            [extraction]
            ocr.languages = 1
            inline = { port = 4 }
            """)
        #expect(layout.line(of: ["server", "port"]) == 10)
        #expect(layout.line(of: ["roots", "path"], element: 0) == 12)
        #expect(layout.line(of: ["roots", "domain"], element: 1) == 14)
        #expect(layout.line(of: ["roots", "path"], element: 1) == 13, "a key missing: the table's header")
        #expect(layout.line(of: ["extraction", "ocr", "languages"]) == 16)
        #expect(layout.line(of: ["extraction", "inline", "port"]) == 17, "in an inline table: the line of its key")
        #expect(layout.line(of: ["watch"]) == nil)
    }

    @Test func eachCommandReadsItsSections() {
        typealias Section = Configuration.Section
        // [meaning]: the commands that search by meaning, embed, or report the model.
        #expect(Section.read(by: SearchCommand.self, indexGiven: false) == [.index, .meaning])
        #expect(Section.read(by: StatusCommand.self, indexGiven: true) == [.meaning])
        #expect(Section.read(by: ServeCommand.self, indexGiven: true) == [.server, .meaning])
        #expect(Section.read(by: ServeCommand.self, watching: true, indexGiven: false)
            == [.index, .server, .roots, .exclusions, .extraction, .removable, .watch, .meaning])
        #expect(Section.read(by: ScanCommand.self, indexGiven: true)
            == [.priority, .roots, .exclusions, .extraction, .removable, .meaning])
        #expect(Section.read(by: WatchCommand.self, indexGiven: false)
            == [.index, .priority, .roots, .exclusions, .extraction, .removable, .watch, .meaning])
        #expect(Section.read(by: ConfigCommand.self, indexGiven: true) == Set(Section.allCases))
    }

    @Test func aCommandStopsOnlyForTheSectionsItReads() throws {
        let configuration = Configuration(text: "[server]\nport = \"8080\"\n", file: "c.toml", home: "/")
        #expect(throws: configuration.problems[0]) { try configuration.usable(reading: [.index, .server]) }
        let broken = Configuration(text: "index = \"/i\n", file: "c.toml", home: "/")
        #expect(broken.problems.map(\.section) == [nil], "a syntax error spoils the whole file")
        #expect(throws: broken.problems[0]) { try broken.usable(reading: [.priority]) }
        #expect(broken.problems[0].exitStatus == 64)
    }

    @Test func aMistypedCommandGetsTheClosestOne() {
        #expect(SearchlightCommand.unknownCommand(["serach", "foo"])?.description
            == "unknown command \"serach\" — did you mean \"search\"?")
        #expect(SearchlightCommand.unknownCommand(["frobnicate"])?.description.hasPrefix(
            "unknown command \"frobnicate\"; the commands are scan, search, list") == true)
        #expect(SearchlightCommand.unknownCommand(["frobnicate"])?.exitStatus == 64)
        for valid in [["search", "x"], ["help"], ["--version"], ["-h"], []] {
            #expect(SearchlightCommand.unknownCommand(valid) == nil, "\(valid)")
        }
    }
}
