import ArgumentParser
import Searchlight

struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Delete items from the index (never from disk)."
    )

    @Option(help: ArgumentHelp("Delete every item of this domain.", valueName: "name"))
    var domain: String?

    @Flag(help: "Delete every item of every domain.")
    var all = false

    @OptionGroup var indexOptions: IndexOptions

    func validate() throws {
        if (domain == nil) == !all { throw ValidationError("Give exactly one of --domain NAME or --all.") }
    }

    func run() throws {
        let index = try indexOptions.openForWriting()
        let output = StandardOutput()
        if all {
            let deleted = try CommandFailure.wrap { try index.deleteAllItems() }
            output.write("removed \(deleted) items\n")
        } else if let domain {
            let known = try CommandFailure.wrap { try index.domains() }
            guard known.contains(domain) else { throw CommandFailure.fail("no domain \(domain.debugDescription) in the index") }
            let deleted = try CommandFailure.wrap { try index.deleteAllItems(inDomains: [domain]) }
            output.write("removed \(deleted) items of \(domain)\n")
        }
        output.flush()
    }
}
