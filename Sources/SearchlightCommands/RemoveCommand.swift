import ArgumentParser
import Searchlight
import SearchlightFiles
import SystemCalls

struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Delete items from the index (never from disk).",
        discussion: """
            Give an indexed folder (a root) to forget it and every item in it, as --domain does: \
            what to do with a folder scanned once by hand that plain `scan` and `watch` would \
            otherwise keep refreshing. Give a file or folder inside a root that is gone from \
            disk to drop what is left of it in the index; one that is still there comes back \
            at the next scan (exclude it in the configuration instead).
            """
    )

    @Argument(help: ArgumentHelp("Indexed folders to forget, or paths gone from disk whose items to delete.", valueName: "path"))
    var paths: [String] = []

    @Option(help: ArgumentHelp("Delete every item of this domain.", valueName: "name"))
    var domain: String?

    @Flag(help: "Delete every item of every domain.")
    var all = false

    @OptionGroup var indexOptions: IndexOptions

    func validate() throws {
        if [!paths.isEmpty, domain != nil, all].filter({ $0 }).count != 1 {
            throw ValidationError("Give paths, --domain NAME or --all (one of them).")
        }
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
        } else {
            let locator = try ItemLocator(index: index)
            for path in paths { try remove(path, locator: locator, index: index, output: output) }
        }
        output.flush()
    }

    /// Forgets the root `path` names (every domain of this machine rooted there), or deletes
    /// the items of a path gone from disk.
    private func remove(_ path: String, locator: ItemLocator, index: any FileIndexWriter, output: StandardOutput) throws {
        let absolute = try ItemLocator.absolutePath(path)
        let shown = String(decoding: absolute, as: UTF8.self)
        let domains = try locator.domains(rootedAt: path)
        if !domains.isEmpty {
            let deleted = try CommandFailure.wrap { try index.deleteAllItems(inDomains: domains) }
            output.write("removed \(deleted) items of \(shown): it is no longer indexed\n")
            return
        }
        let references = try locator.references(forPath: path)
        let found = try CommandFailure.wrap {
            try references.first { reference in
                try index.item(reference.identifier, domain: reference.domain) != nil || hasItems(below: reference, in: index)
            }
        }
        guard let reference = found else { throw CommandFailure.fail(try locator.notFound(path, domain: nil)) }
        guard !SystemCall.exists(absolute) else {
            throw CommandFailure.fail("""
                \(path.debugDescription) is still on disk: the next scan would add it again; \
                to keep it out of the index, exclude it in the configuration ([exclusions])
                """)
        }
        var batch = IndexBatch()
        batch.deleteTree(reference.identifier, domain: reference.domain)
        try CommandFailure.wrap { try index.apply(batch) }
        output.write("removed \(shown) from the index\n")
    }

    /// Whether the index holds items below the folder `reference` names (a folder is no item
    /// itself): the first identifier after `folder/` and before `folder0` (`0` follows `/`).
    private func hasItems(below reference: ItemReference, in index: any FileIndexWriter) throws -> Bool {
        let folder = reference.identifier.bytes
        let page = try index.changeStamps(domain: reference.domain, after: ItemIdentifier(bytes: folder + [0x2F]),
                                          before: ItemIdentifier(bytes: folder + [0x30]), limit: 1)
        return !page.isEmpty
    }
}
