import Foundation
import Searchlight
import SearchlightFiles
import SystemCalls

/// Finds the items a command names (`show`, `open`, `thumbnail`, `remove`): by a path in the
/// file system — absolute, relative to the current folder, or starting with `~/` — under one
/// of this machine's roots, else, when no such file exists, by identifier (the path relative
/// to its root).
///
/// Paths are bytes, as names are on Linux: an argument that is not UTF-8 keeps its bytes
/// (``RawArgument``), and two spellings of `é` (composed or not) stay two names. A path is made
/// absolute as a shell's `cd` would (`.` and `..` taken as written), then its folder canonical
/// through `realpath(3)` (symbolic links resolved, as the roots are stored), its last component
/// kept, so that a link names the link's item; a folder that no longer exists stays as written.
struct ItemLocator {
    /// The root of each domain of this machine (``FileIndexReader/localRoots()``).
    let roots: [String: String]

    init(index: any FileIndexWriter) throws {
        roots = try CommandFailure.wrap { try index.localRoots() }
    }

    /// Where `argument` lies as a path: for each root it is below (the deepest first, in
    /// `domain` alone when given), the domain and the path below that root. Empty for a path
    /// under no root; a root itself is no item.
    func references(forPath argument: String, domain: String? = nil) throws -> [ItemReference] {
        let path = try Self.absolutePath(argument)
        return roots.filter { domain == nil || $0.key == domain }
            .map { (domain: $0.key, root: Self.folderPrefix($0.value)) }
            .sorted { $0.root.count > $1.root.count }
            .compactMap { domain, prefix in
                guard path.count > prefix.count, path.starts(with: prefix) else { return nil }
                return ItemReference(domain: domain, identifier: ItemIdentifier(bytes: Array(path[prefix.count...])))
            }
    }

    /// The domains whose root `argument` is.
    func domains(rootedAt argument: String) throws -> [String] {
        let path = try Self.absolutePath(argument)
        return roots.filter { Array($0.value.utf8) == path }.map(\.key).sorted()
    }

    /// The items `argument` names in `index`: those at its path, else, when it names no file,
    /// those with it as identifier (in `domain` when given). A file outside every root is not
    /// taken for an item that happens to have its name (`open notes.txt` in `/tmp` opens
    /// `/tmp/notes.txt` or nothing).
    func items(named argument: String, domain: String?, in index: any IndexReader) throws -> [IndexedItem] {
        for reference in try references(forPath: argument, domain: domain) {
            if let item = try CommandFailure.wrap({ try index.item(reference.identifier, domain: reference.domain) }) {
                return [item]
            }
        }
        guard !SystemCall.exists(try Self.absolutePath(argument)) else { return [] }
        let identifier = ItemIdentifier(bytes: RawArgument.bytes(of: argument))
        return try CommandFailure.wrap { try index.items(withIdentifier: identifier, domain: domain) }
    }

    /// Why `argument` names no item, in the user's words.
    func notFound(_ argument: String, domain: String?) throws -> String {
        let inDomain = domain.map { " in domain \($0.debugDescription)" } ?? ""
        let path = try Self.absolutePath(argument)
        let exists = SystemCall.exists(path)
        let containing = roots.values.filter { path == Array($0.utf8) || path.starts(with: Self.folderPrefix($0)) }
        if let root = containing.max(by: { $0.utf8.count < $1.utf8.count }) {
            if path == Array(root.utf8) {
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

    /// A root as the start of the paths below it: its bytes and a `/` (none added to `/`).
    static func folderPrefix(_ root: String) -> [UInt8] {
        let bytes = Array(root.utf8)
        return bytes.last == 0x2F ? bytes : bytes + [0x2F]
    }

    /// `argument`'s raw bytes as an absolute path: `~/` expanded, made absolute from the
    /// current folder, `.` and `..` taken as written, its folder resolved by `realpath(3)` when
    /// it exists.
    /// - Throws: a ``CommandFailure`` for a relative path when the current folder is gone.
    static func absolutePath(_ argument: String) throws -> [UInt8] {
        var path = RawArgument.bytes(of: argument)
        if path == Array("~".utf8) || path.starts(with: Array("~/".utf8)),
           let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty {
            path = Array(home.utf8) + path.dropFirst()
        }
        if path.first != 0x2F {
            guard let current = currentFolder() else {
                throw CommandFailure.fail("the current folder no longer exists: give \(argument.debugDescription) as an absolute path")
            }
            path = current + [0x2F] + path
        }
        var components: [ArraySlice<UInt8>] = []
        for component in path.split(separator: 0x2F) {
            switch component {
            case [0x2E]: continue
            case [0x2E, 0x2E]: _ = components.popLast()
            default: components.append(component)
            }
        }
        guard let last = components.popLast() else { return [0x2F] }
        let folder = [0x2F] + Array(components.joined(separator: [0x2F]))
        let resolved = resolved(folder) ?? folder
        return (resolved.last == 0x2F ? resolved : resolved + [0x2F]) + last
    }

    /// The current folder's path, `nil` when it was removed (`getcwd(3)` fails).
    static func currentFolder() -> [UInt8]? {
        guard let pointer = getcwd(nil, 0) else { return nil }
        defer { free(pointer) }
        return Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                                         count: strlen(pointer)))
    }

    /// `realpath(3)` of a path as bytes; `nil` when it cannot be resolved.
    private static func resolved(_ path: [UInt8]) -> [UInt8]? {
        SystemCall.withCString(path) { name -> [UInt8]? in
            guard let pointer = realpath(name, nil) else { return nil }
            defer { free(pointer) }
            return Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                                             count: strlen(pointer)))
        }
    }
}
