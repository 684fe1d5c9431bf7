import ArgumentParser
import Searchlight

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Print every item in the index, by domain and path."
    )

    @Option(help: ArgumentHelp("Only items of this domain.", valueName: "name"))
    var domain: String?

    @OptionGroup var output: OutputOptions
    @OptionGroup var indexOptions: IndexOptions

    func run() throws {
        let index = try indexOptions.openForReading()
        let printer = try ItemPrinter(format: output.format, index: index)
        var printed = 0
        try CommandFailure.wrap {
            try index.forEachItem(domain: domain) { item in
                if let limit = output.limit, printed >= limit { return false }
                printed += 1
                if !output.count { printer.print(item) }
                return true
            }
        }
        if output.count { printer.printCount(printed) }
        printer.flush()
    }
}
