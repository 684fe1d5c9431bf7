import Foundation
import Searchlight
import SearchlightFiles
import SearchlightJSON

/// Prints items as lines, NUL-terminated paths or NDJSON.
final class ItemPrinter {
    enum Format {
        case lines, nulTerminated, json

        /// `--json`, else `-0`, else lines.
        init(json: Bool, nulTerminated: Bool) { self = json ? .json : nulTerminated ? .nulTerminated : .lines }
    }

    let format: Format
    let output = StandardOutput()
    private let index: any FileIndexStore
    /// The JSON objects, with each domain's root read once up front; `nil` for a printer
    /// that prints only paths.
    private let roots: ItemJSON?

    /// A printer; `needsRoots: false` (only paths are printed: ``print(_:)`` with `.lines` or
    /// `.nulTerminated`) reads the domains' states without decoding their JSON, a cost every
    /// search paid at start-up (Benchmarks/README.md, "Start-up"). Either way a damaged
    /// `domain` table fails here, before anything is printed.
    init(format: Format, index: any FileIndexStore, needsRoots: Bool = true) throws {
        self.format = format
        self.index = index
        if needsRoots {
            roots = try CommandFailure.wrap { try ItemJSON(index: index) }
        } else {
            roots = nil
            try CommandFailure.wrap {
                if let index = index as? SearchableIndex { try index.readDomainStates() } else { _ = try index.domainStates() }
            }
        }
    }

    private var itemJSON: ItemJSON {
        guard let roots else { preconditionFailure("an ItemPrinter made with needsRoots: false printed a JSON object or a path") }
        return roots
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
