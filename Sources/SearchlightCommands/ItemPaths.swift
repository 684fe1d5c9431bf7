import Searchlight
import SearchlightJSON

/// The path a command prints for an item: its absolute path; with `--relative`, its path
/// relative to the current folder when that folder is the item's root or inside it (`../`
/// for an item elsewhere in the root), and absolute otherwise; its identifier when its domain
/// has no root.
struct ItemPaths {
    /// The domains' roots.
    let itemJSON: ItemJSON
    /// The current folder's components, for `--relative`; `nil` for absolute paths.
    private let current: [ArraySlice<UInt8>]?

    /// `currentFolder`: the folder `--relative` paths start from, `nil` for absolute paths
    /// (also when the current folder no longer exists).
    init(roots: ItemJSON, relativeTo currentFolder: [UInt8]?) {
        itemJSON = roots
        current = currentFolder.map { Self.components($0[...]) }
    }

    func path(of reference: ItemReference) -> [UInt8] {
        guard let absolute = itemJSON.absolutePath(of: reference) else { return reference.identifier.bytes }
        guard let current, let root = itemJSON.roots[reference.domain],
              Self.isInside(current, Self.components(Array(root.utf8)[...])) else { return absolute }
        return Self.relative(Self.components(absolute[...]), from: current)
    }

    /// Whether the folder of `components` is `root` or below it.
    static func isInside(_ components: [ArraySlice<UInt8>], _ root: [ArraySlice<UInt8>]) -> Bool {
        components.count >= root.count && zip(components, root).allSatisfy { $0 == $1 }
    }

    /// The path of `target` from the folder `folder`: `..` up to their common folder, then down.
    static func relative(_ target: [ArraySlice<UInt8>], from folder: [ArraySlice<UInt8>]) -> [UInt8] {
        var common = 0
        while common < min(target.count, folder.count), target[common] == folder[common] { common += 1 }
        let parts = Array(repeating: Array("..".utf8)[...], count: folder.count - common) + target[common...]
        return parts.isEmpty ? Array(".".utf8) : Array(parts.joined(separator: [0x2F]))
    }

    /// The components of an absolute path, without empty ones.
    static func components(_ path: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        path.split(separator: 0x2F, omittingEmptySubsequences: true)
    }
}
