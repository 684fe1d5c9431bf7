import ArgumentParser

extension SearchlightCommand {
    /// `searchlight search …` in its common forms, parsed without swift-argument-parser; `nil`
    /// for anything else, which the caller then parses with ``parseAsRoot(_:)``.
    ///
    /// swift-argument-parser finds a command's options by reflecting over its properties (and
    /// over two pseudo-commands that look for `--generate-completion-script`): the Swift
    /// runtime's first look-up of each type it meets scans every protocol conformance record
    /// of the executable, a quarter of a search that finds nothing (Benchmarks/README.md,
    /// "Start-up"). This path takes words, `--index`, `--domain`, `--limit` (with their value
    /// as the next argument or after `=`), `--json`, `-0`, `--relative`, `--count`, `--names`, `--explain`,
    /// `--words`, `--meaning` and `-v`/`--verbose`, each at most once. Anything it is not sure of — another option,
    /// a value that starts with `-`, combined short flags, `--`, help, a validation error —
    /// returns `nil`, so that messages, help and exit statuses stay the full parser's.
    /// `FastSearchParsingTests` check that both parsers give the same command.
    ///
    /// - Parameters:
    ///   - arguments: The command line without the executable's name (`search` first).
    ///   - launchers: What the executable adds (``Launchers``): the opener of a shared index.
    /// - Returns: The request to run, or `nil` to hand the arguments to the full parser.
    public static func parseCommonSearch(_ arguments: [String], launchers: Launchers = Launchers()) -> SearchRequest? {
        var request = SearchCommand.parseCommon(arguments)
        request?.index.launchers = launchers
        return request
    }
}

extension SearchCommand {
    /// The option names ``parseCommon(_:)`` knows: every name `search` has, besides help and
    /// `--version` (a test compares them with swift-argument-parser's own list).
    static let commonOptionNames: Set<String> = [
        "--index", "--domain", "--limit", "--json", "-0", "--relative", "--count", "--names", "--explain", "-v", "--verbose",
        "--words", "--meaning",
    ]

    /// `arguments` (after `search`) as the full parser would read them, or `nil`. Plain
    /// variables rather than a dictionary or a set, and a ``SearchRequest`` rather than a
    /// `SearchCommand` (whose property wrappers hold sets of names): the first use of each
    /// generic type is a conformance look-up too.
    ///
    /// A limit must be plain decimal digits (`--limit 20`); `+20`, `0x14` or a value past
    /// `Int.max` goes to the full parser. Options may come before, between or after the words.
    static func parseCommon(_ arguments: [String]) -> SearchRequest? {
        guard arguments.first == "search" else { return nil }
        var words: [String] = []
        var explain = false, names = false, json = false, nulTerminated = false, relative = false, count = false, verbose = false
        var wordsOnly = false, meaningOnly = false
        var index: String?, domain: String?, limitText: String?
        var position = arguments.index(after: arguments.startIndex)
        while position < arguments.endIndex {
            let argument = arguments[position]
            position += 1
            guard argument.hasPrefix("-") else {
                guard !argument.isEmpty else { return nil }
                words.append(argument)
                continue
            }
            var name = argument
            var value: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            switch name {
            case "--index", "--domain", "--limit":
                if value == nil, position < arguments.endIndex {
                    value = arguments[position]
                    position += 1
                }
                guard let value, !value.isEmpty, !value.hasPrefix("-") else { return nil }
                switch name {
                case "--index": guard Self.set(&index, value) else { return nil }
                case "--domain": guard Self.set(&domain, value) else { return nil }
                default: guard Self.set(&limitText, value) else { return nil }
                }
            case "--json": guard value == nil, Self.set(&json) else { return nil }
            case "-0": guard Self.set(&nulTerminated) else { return nil }
            case "--relative": guard value == nil, Self.set(&relative) else { return nil }
            case "--count": guard value == nil, Self.set(&count) else { return nil }
            case "--names": guard value == nil, Self.set(&names) else { return nil }
            case "--explain": guard value == nil, Self.set(&explain) else { return nil }
            case "--words": guard value == nil, Self.set(&wordsOnly) else { return nil }
            case "--meaning": guard value == nil, Self.set(&meaningOnly) else { return nil }
            case "-v", "--verbose": guard value == nil, Self.set(&verbose) else { return nil }
            default: return nil
            }
        }
        var limit: Int?
        if let limitText {
            guard limitText.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                  let number = Int(limitText) else { return nil }
            limit = number
        }

        // What `OutputOptions.validate()` and `validate()` refuse (a negative limit cannot
        // come here) goes to the full parser, for its message.
        guard !words.isEmpty, !(json && nulTerminated), !(wordsOnly && meaningOnly) else { return nil }
        return SearchRequest(words: words, explain: explain, names: names, domain: domain,
                             format: .init(json: json, nulTerminated: nulTerminated), relative: relative,
                             count: count, limit: limit, index: IndexChoice(index: index, verbose: verbose),
                             mode: wordsOnly ? .words : meaningOnly ? .meaning : .automatic)
    }

    /// Sets a flag given once; `false` when it was given already.
    private static func set(_ flag: inout Bool) -> Bool {
        defer { flag = true }
        return !flag
    }

    /// Sets an option's value given once; `false` when it was given already.
    private static func set(_ option: inout String?, _ value: String) -> Bool {
        defer { option = option ?? value }
        return option == nil
    }
}
