import Foundation
import Searchlight
import SearchlightFiles
import SearchlightJSON

/// Prints items as lines, NUL-terminated paths or NDJSON.
///
/// A line and a NUL-terminated path are the item's absolute path (its domain's root, then its
/// identifier), as `mdfind` and `locate` print them, so that `search … -0 | xargs -0 ls -l`
/// works from any folder and two roots' `Nikon_D70.jpg` are told apart; with `--relative`,
/// relative to the current folder when that is inside the item's root (``ItemPaths``). An
/// item of a domain with no root (another program's content, through the library) prints its
/// identifier. JSON keeps both: `id` and `path`.
final class ItemPrinter {
    enum Format {
        case lines, nulTerminated, json

        /// `--json`, else `-0`, else lines.
        init(json: Bool, nulTerminated: Bool) { self = json ? .json : nulTerminated ? .nulTerminated : .lines }
    }

    let format: Format
    let output = StandardOutput()
    /// Each domain's root and offline date, read once up front
    /// (``FileIndexReader/domainRootsAndOfflineDates()``: one round trip to a shared index, no
    /// state decoded on SQLite): a damaged `domain` table fails here, before anything is printed.
    private let itemJSON: ItemJSON
    private let paths: ItemPaths

    init(format: Format, index: any FileIndexWriter, relative: Bool = false) throws {
        self.format = format
        itemJSON = try CommandFailure.wrap {
            let (roots, offline) = try index.domainRootsAndOfflineDates()
            return ItemJSON(roots: roots, offline: offline)
        }
        paths = ItemPaths(roots: itemJSON, relativeTo: relative ? ItemLocator.currentFolder() : nil)
    }

    func print(_ indexed: IndexedItem) {
        switch format {
        case .lines, .nulTerminated:
            printPath(of: indexed.item.reference)
        case .json:
            output.writeLine(json(indexed).finished, terminator: 0x0A)
        }
    }

    /// The item's path as a line, or with a NUL after it.
    func printPath(of reference: ItemReference) {
        // An item of a drive that is not mounted is marked on its line (never after `-0`'s exact path).
        if format == .lines, itemJSON.isOffline(reference) {
            output.writeLine(path(of: reference) + Array(Self.offlineMark.utf8), terminator: 0x0A)
            return
        }
        output.writeLine(path(of: reference), terminator: format == .nulTerminated ? 0 : 0x0A)
    }

    /// What follows the path of an item whose drive is not mounted.
    static let offlineMark = "  (offline: drive not connected)"

    /// The path printed for an item: absolute, or relative with `--relative`.
    func path(of reference: ItemReference) -> [UInt8] { paths.path(of: reference) }

    /// A search result: its line, and on a terminal a dimmed line of the text around a
    /// content match; in JSON, the item with `matchedIn` and `snippet`.
    func print(_ result: SearchResult) {
        switch format {
        case .json:
            output.writeLine(json(result).finished, terminator: 0x0A)
        case .lines:
            print(result.item)
            if let snippet = result.snippet {
                // SGR 2 (faint), then reset; the snippet's own control characters are not passed on.
                let clean = String(snippet.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
                output.write("  \u{1B}[2m" + clean + "\u{1B}[0m\n")
            }
        case .nulTerminated:
            print(result.item)
        }
    }

    func printCount(_ count: Int) { output.write("\(count)\n") }

    func flush() { output.flush() }

    /// The absolute path of an item, from its domain's root.
    func absolutePath(_ item: SearchableItem) -> [UInt8]? { itemJSON.absolutePath(item) }

    /// A search result's object: the item's, then `matchedIn` and, for a content match, `snippet`.
    func json(_ result: SearchResult) -> JSONLine { itemJSON.object(for: result) }

    /// The item's `--json` object, still open for more keys.
    func json(_ indexed: IndexedItem) -> JSONLine { itemJSON.object(for: indexed) }
}
