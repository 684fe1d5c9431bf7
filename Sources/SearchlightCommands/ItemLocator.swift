import Foundation
import Searchlight
import SearchlightFiles
import SystemCalls

/// Finds the items a command names (`show`, `open`, `thumbnail`, `remove`): by a path in the
/// file system — absolute, relative to the current folder, or starting with `~/` — under one
/// of the index's roots, else by identifier (the path relative to its root).
///
/// A path is made absolute and canonical the way a root is: its folder through `realpath(3)`
/// (symbolic links resolved, as the roots are stored), its last component as written, so that
/// a link names the link's item; a path that no longer exists (a file gone since the scan) is
/// normalized lexically.
struct ItemLocator {
    /// Each domain's root (``FileIndexStore/domainRoots()``).
    let roots: [String: String]

    init(index: any FileIndexStore) throws {
        roots = try CommandFailure.wrap { try index.domainRoots() }
    }

    /// Where `argument` lies as a path: for each root it is below (the deepest first, in
    /// `domain` alone when given), the domain and the path below that root. Empty for a path
    /// under no root; a root itself is no item.
    func references(forPath argument: String, domain: String? = nil) -> [ItemReference] {
        let path = Self.absolutePath(argument)
        return roots.filter { domain == nil || $0.key == domain }
            .sorted { $0.value.utf8.count > $1.value.utf8.count }
            .compactMap { name, root in
                let prefix = root.hasSuffix("/") ? root : root + "/"
                guard path.hasPrefix(prefix), path.utf8.count > prefix.utf8.count else { return nil }
                return ItemReference(domain: name, identifier: ItemIdentifier(String(path.dropFirst(prefix.count))))
            }
    }

    /// The roots `argument` is a root of, or below: for messages.
    func rootsContaining(_ argument: String) -> [String] {
        let path = Self.absolutePath(argument)
        return roots.values.filter { path == $0 || path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }.sorted()
    }

    /// The items `argument` names in `index`: those at its path, else those with it as
    /// identifier (in `domain` when given).
    func items(named argument: String, domain: String?, in index: any IndexStore) throws -> [IndexedItem] {
        for reference in references(forPath: argument, domain: domain) {
            if let item = try CommandFailure.wrap({ try index.item(reference.identifier, domain: reference.domain) }) {
                return [item]
            }
        }
        let identifier = ItemIdentifier(bytes: RawArgument.bytes(of: argument))
        return try CommandFailure.wrap { try index.items(withIdentifier: identifier, domain: domain) }
    }

    /// Why `argument` names no item, in the user's words.
    func notFound(_ argument: String, domain: String?) -> String {
        let inDomain = domain.map { " in domain \($0.debugDescription)" } ?? ""
        let path = Self.absolutePath(argument)
        let exists = SystemCall.exists(Array(path.utf8))
        let containing = rootsContaining(argument)
        if let root = containing.last {
            if path == root {
                return "\(argument.debugDescription) is an indexed folder itself, not an item in it: give a file or folder inside it"
            }
            return exists
                ? "no item \(argument.debugDescription)\(inDomain): the file is in \(root) but not in the index (excluded, or not scanned since it appeared: searchlight scan)"
                : "no item \(argument.debugDescription)\(inDomain): no such file, and none in the index"
        }
        guard exists else {
            return "no item \(argument.debugDescription)\(inDomain): no such file, and no item with that identifier"
        }
        let indexed = roots.values.sorted()
        return "no item \(argument.debugDescription)\(inDomain): the file is in no indexed folder"
            + (indexed.isEmpty ? " (the index has none)" : " (\(indexed.joined(separator: ", ")))")
    }

    /// `argument` as an absolute path: `~/` expanded, made absolute from the current folder,
    /// its folder resolved (``SystemCall/resolvedPath(_:)``) or, when that fails, `.` and `..`
    /// taken lexically.
    static func absolutePath(_ argument: String) -> String {
        var path = argument
        if path == "~" || path.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"] {
            path = home + path.dropFirst()
        }
        if !path.hasPrefix("/") { path = FileManager.default.currentDirectoryPath + "/" + path }
        var components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var normalized: [String] = []
        for component in components {
            switch component {
            case ".": continue
            case "..": _ = normalized.popLast()
            default: normalized.append(component)
            }
        }
        components = normalized
        guard let last = components.popLast() else { return "/" }
        let folder = "/" + components.joined(separator: "/")
        let resolved = (try? SystemCall.resolvedPath(folder)) ?? folder
        return (resolved.hasSuffix("/") ? resolved : resolved + "/") + last
    }
}
