import Foundation
import Searchlight
import SearchlightFiles

/// Prints items as lines, NUL-terminated paths or NDJSON.
final class ItemPrinter {
    enum Format { case lines, nulTerminated, json }

    let format: Format
    let output = StandardOutput()
    private let index: SearchableIndex
    /// Each domain's root, read once up front: printing happens inside the index's reads.
    private let roots: [String: String]

    init(format: Format, index: SearchableIndex) throws {
        self.format = format
        self.index = index
        roots = try CommandFailure.wrap { try index.domainStates() }.compactMapValues { DomainState(json: $0)?.root }
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

    func printCount(_ count: Int) { output.write("\(count)\n") }

    func flush() { output.flush() }

    /// The absolute path of an item, from its domain's root.
    func absolutePath(_ item: SearchableItem) -> [UInt8]? {
        guard let root = roots[item.domainIdentifier] else { return nil }
        return Array(root.utf8) + [0x2F] + item.uniqueIdentifier.bytes
    }

    func json(_ indexed: IndexedItem) -> JSONLine {
        let item = indexed.item
        let a = item.attributeSet
        var line = JSONLine()
        line.add("id", bytes: item.uniqueIdentifier.bytes)
        line.add("domain", item.domainIdentifier)
        if let path = absolutePath(item) { line.add("path", bytes: path) } else { line.add("path", nil as String?) }
        line.add("displayName", bytes: Array(item.uniqueIdentifier.lastComponent))
        line.add("title", a.title)
        line.add("contentType", a.contentType)
        line.add("contentTypeTree", strings: a.contentTypeTree)
        line.add("contentDescription", a.contentDescription)
        line.add("keywords", strings: a.keywords)
        line.add("size", a.size)
        line.add("contentModificationDate", a.contentModificationDate)
        line.add("contentCreationDate", a.contentCreationDate)
        line.add("pixelWidth", a.pixelWidth)
        line.add("pixelHeight", a.pixelHeight)
        var thumbnail: JSONLine?
        if let info = indexed.thumbnailInfo {
            var object = JSONLine()
            object.add("format", info.format)
            object.add("width", info.width)
            object.add("height", info.height)
            object.add("bytes", info.byteCount)
            thumbnail = object
        }
        line.add("thumbnail", object: thumbnail)
        line.add("failure", item.failure)
        return line
    }
}
