import ArgumentParser
import Searchlight

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Print every item in the index, by domain and path."
    )

    @OptionGroup var filter: DomainFilter

    @OptionGroup var output: OutputOptions
    @OptionGroup var indexOptions: IndexOptions

    func run() throws {
        let index = try indexOptions.openForReading()
        let printer = try ItemPrinter(format: output.format, index: index, relative: output.relative)
        if output.count {
            // Counted by the index, not by reading every item: scripts poll this.
            let count = try CommandFailure.wrap { try index.itemCount(domain: filter.domain) }
            printer.printCount(min(count, output.limit ?? .max))
            printer.flush()
            return
        }
        var printed = 0
        try CommandFailure.wrap {
            try index.forEachItem(domain: filter.domain) { item in
                if let limit = output.limit, printed >= limit { return false }
                printed += 1
                printer.print(item)
                return true
            }
        }
        printer.flush()
    }
}
