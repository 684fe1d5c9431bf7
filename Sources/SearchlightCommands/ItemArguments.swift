import ArgumentParser
import Searchlight

/// The item `show`, `thumbnail` and `open` act on: its identifier and, when several domains
/// hold it, its domain.
struct ItemArguments: ParsableArguments {
    @Argument(help: "The item's identifier: its path relative to its root.")
    var id: String

    @Option(help: ArgumentHelp("The item's domain.", valueName: "name"))
    var domain: String?

    /// Every item with this identifier (in ``domain`` when given).
    /// - Throws: a ``CommandFailure`` (exit 1) when there is none.
    func items(in index: any IndexStore) throws -> [IndexedItem] {
        let identifier = ItemIdentifier(bytes: RawArgument.bytes(of: id))
        let items = try CommandFailure.wrap { try index.items(withIdentifier: identifier, domain: domain) }
        guard !items.isEmpty else {
            throw CommandFailure.fail("no item \(id.debugDescription)\(domain.map { " in domain \($0.debugDescription)" } ?? "")")
        }
        return items
    }

    /// The one item with this identifier.
    /// - Throws: a ``CommandFailure``: exit 1 when there is none, 64 when several domains hold
    ///   it and ``domain`` does not choose.
    func item(in index: any IndexStore) throws -> IndexedItem {
        let items = try items(in: index)
        if items.count > 1 {
            let domains = items.map(\.item.domainIdentifier.debugDescription).joined(separator: ", ")
            throw CommandFailure.fail("\(id.debugDescription) is in several domains (\(domains)): choose one with --domain",
                                      code: 64)
        }
        return items[0]
    }
}
