import Foundation
import Searchlight
import SearchlightJSON

/// Prints items as lines, NUL-terminated paths or NDJSON.
final class ItemPrinter {
    enum Format { case lines, nulTerminated, json }

    let format: Format
    let output = StandardOutput()
    /// The JSON objects, with each domain's root: decoded from the domains' stored JSON on
    /// first use (lines and NUL-terminated paths never need them, and the decoder is a cost
    /// every search would pay at start-up).
    private lazy var itemJSON = ItemJSON(domainStates: domainStates)
    private let domainStates: [String: String]

    /// Reads the domains of `index` now, whatever the format: an index that cannot be read
    /// fails here, before anything is printed.
    init(format: Format, index: any IndexStore) throws {
        self.format = format
        domainStates = try CommandFailure.wrap { try index.domainStates() }
    }

    func print(_ indexed: IndexedItem) {
        let id = indexed.item.uniqueIdentifier.bytes
        switch format {
        case .lines:
            output.writeLine(id, terminator: 0x0A)
        case .nulTerminated:
            output.writeLine(id, terminator: 0)
        case .json:
            output.writeLine(json(indexed).finished, terminator: 0x0A)
        }
    }

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
