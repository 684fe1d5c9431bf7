import ArgumentParser
import Searchlight
import SearchlightFiles

/// The item `show`, `thumbnail` and `open` act on: a file's path or an item's identifier
/// (``ItemLocator``) and, when several domains hold it, its domain.
struct ItemArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("The item: a file's path (absolute, or from the current folder), or its path relative to its root.",
                                 valueName: "path"))
    var id: String

    @Option(help: ArgumentHelp("The item's domain.", valueName: "name"))
    var domain: String?

    /// Every item the argument names (in ``domain`` when given): the one at its path, else
    /// every item with it as identifier.
    /// - Throws: a ``CommandFailure`` (exit 1) when there is none, saying why.
    func items(in index: any FileIndexWriter) throws -> [IndexedItem] {
        let locator = try ItemLocator(index: index)
        let items = try locator.items(named: id, domain: domain, in: index)
        guard !items.isEmpty else { throw CommandFailure.fail(try locator.notFound(id, domain: domain)) }
        return items
    }

    /// The one item the argument names.
    /// - Throws: a ``CommandFailure``: exit 1 when there is none, 64 when several domains hold
    ///   it and ``domain`` does not choose.
    func item(in index: any FileIndexWriter) throws -> IndexedItem {
        let items = try items(in: index)
        if items.count > 1 {
            let domains = items.map(\.item.domainIdentifier.debugDescription).joined(separator: ", ")
            throw CommandFailure.fail("\(id.debugDescription) is in several domains (\(domains)): choose one with --domain",
                                      code: 64)
        }
        return items[0]
    }
}
