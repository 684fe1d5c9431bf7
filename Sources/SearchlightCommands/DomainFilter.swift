import ArgumentParser

/// `--domain NAME` of the commands that read items (`search`, `query`, `list`): only the items
/// of that domain; every domain without it.
struct DomainFilter: ParsableArguments {
    @Option(help: ArgumentHelp("Only items of this domain.", valueName: "name"))
    var domain: String?
}
