import ArgumentParser
import Foundation
@testable import SearchlightCommands
import Testing

/// `searchlight search`'s common forms skip swift-argument-parser (start-up time): the command
/// they give must be the one the full parser gives, and whatever they are not sure of must go
/// to the full parser.
@Suite struct FastSearchParsingTests {
    static let accepted: [[String]] = [
        ["search", "report"],
        ["search", "quarterly", "report", "--index", "/tmp/index.sqlite"],
        ["search", "--index=/tmp/index.sqlite", "kind:pdf", "budget", "tag:work"],
        ["search", "--json", "résumé", "--limit", "5"],
        ["search", "-0", "x", "--limit=0"],
        ["search", "--count", "--names", "--explain", "-v", "--domain", "notes", "plan"],
        ["search", "x", "--verbose", "--domain=photos", "y"],
        ["search", "modified:>2024-01-01", "name:IMG", "date:today"],
        ["search", "x", "--limit", "007"],
        ["search", "--index", "postgres://user@host:5432/db", "x"],
        ["search", "help"],
        ["search", "search", "list", "kind:pdf"],
        ["search", "how", "do", "I", "rename", "a", "file", "--words"],
        ["search", "--meaning", "free", "disk", "space"],
    ]

    static let declined: [[String]] = [
        ["search"],
        ["search", "--index", "/tmp/index.sqlite"],
        ["search", "--json", "-0", "x"],
        ["search", "x", "--limit", "-1"],
        ["search", "x", "--limit", "+3"],
        ["search", "x", "--limit", "many"],
        ["search", "x", "--limit", "99999999999999999999999"],
        ["search", "--help"],
        ["search", "-h", "x"],
        ["search", "x", "--version"],
        ["search", "--", "-x"],
        ["search", "-v0", "x"],
        ["search", "x", "--json", "--json"],
        ["search", "x", "-v", "--verbose"],
        ["search", "x", "--words", "--meaning"],
        ["search", "x", "--meaning", "--meaning"],
        ["search", "x", "--index"],
        ["search", "x", "--index", "--json"],
        ["search", "x", "--index="],
        ["search", "x", "--index", "a", "--index", "b"],
        ["search", "x", "--unknown"],
        ["search", "-x"],
        ["search", "x", "--json=yes"],
        ["search", ""],
        ["search", "x", "--generate-completion-script", "bash"],
        ["search", "x", "--experimental-dump-help"],
        ["list", "x"],
        ["--index", "/tmp/index.sqlite", "search", "x"],
        [],
    ]

    @Test(arguments: accepted)
    func givesTheFullParsersCommand(arguments: [String]) throws {
        let fast = try #require(SearchCommand.parseCommon(arguments))
        let full = try #require(try SearchlightCommand.parseAsRoot(arguments) as? SearchCommand)
        #expect(Self.fields(fast) == Self.fields(full.request))
    }

    @Test(arguments: declined)
    func leavesTheRestToTheFullParser(arguments: [String]) {
        #expect(SearchCommand.parseCommon(arguments) == nil)
    }

    /// A new option of `search` must be taught to the fast path (or to decline it): a command
    /// it made would otherwise leave the new property unparsed.
    @Test func knowsEveryOptionOfSearch() throws {
        struct Dump: Decodable {
            struct Command: Decodable { var arguments: [Argument] }
            struct Argument: Decodable {
                struct Name: Decodable { var kind: String; var name: String }
                var kind: String
                var names: [Name]?
            }
            var command: Command
        }
        let dump = try JSONDecoder().decode(Dump.self, from: Data(SearchCommand._dumpHelp().utf8))
        var names = Set<String>()
        for argument in dump.command.arguments where argument.kind != "positional" {
            for name in argument.names ?? [] {
                names.insert(name.kind == "short" ? "-" + name.name : "--" + name.name)
            }
        }
        names.subtract(["-h", "--help", "--version"])
        #expect(names == SearchCommand.commonOptionNames)
        #expect(dump.command.arguments.filter { $0.kind == "positional" }.count == 1)
    }

    static func fields(_ request: SearchRequest) -> [String] {
        [
            request.words.joined(separator: "\u{0}"),
            "\(request.explain)", "\(request.names)", request.domain ?? "-",
            "\(request.format)", "\(request.count)", request.limit.map(String.init) ?? "-",
            request.index.index ?? "-", "\(request.index.verbose)", request.mode.rawValue,
        ]
    }
}
