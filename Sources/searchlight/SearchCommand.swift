import ArgumentParser
import Searchlight

struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find items whose name words start with every given word.",
        discussion: """
            Name words come from splitting file names on separators, case changes and \
            letter/digit boundaries; matching ignores case and diacritics. Whole-word matches \
            rank before prefixes, names before titles, keywords and folder names, then the most \
            recently modified first.
            """
    )

    @Argument(help: "Words that the item's name words must start with.")
    var words: [String]

    @Option(help: ArgumentHelp("Only items of this domain.", valueName: "name"))
    var domain: String?

    @OptionGroup var output: OutputOptions
    @OptionGroup var indexOptions: IndexOptions

    func validate() throws {
        if words.isEmpty { throw ValidationError("Give at least one word to search for.") }
    }

    func run() throws {
        let index = try indexOptions.openForReading()
        let printer = try ItemPrinter(format: output.format, index: index)
        if output.count {
            let count = try CommandFailure.wrap { try index.countMatches(words: words, domain: domain) }
            printer.printCount(output.limit.map { min($0, count) } ?? count)
        } else if output.format == .json {
            let items = try CommandFailure.wrap { try index.search(words: words, domain: domain, limit: output.limit) }
            for item in items { printer.print(item) }
        } else {
            // Paths only: no need to fetch the items.
            let terminator: UInt8 = output.format == .nulTerminated ? 0 : 0x0A
            let identifiers = try CommandFailure.wrap {
                try index.searchIdentifiers(words: words, domain: domain, limit: output.limit)
            }
            for identifier in identifiers { printer.output.writeLine(identifier.bytes, terminator: terminator) }
        }
        printer.flush()
    }
}
