import Foundation
import Searchlight
import SearchlightFiles

/// The JSON object of an item, as `searchlight search --json` prints it (Docs/Contract.md#command-line) and as the
/// web API answers it (with the item's URLs added by the server).
///
/// The absolute `path` comes from the root of the item's domain, read once from the index:
/// building objects happens inside the index's reads.
///
/// ```swift
/// let json = try ItemJSON(index: index)
/// let line = json.object(for: item).finished   // {"id":"notes/plan.md","domain":…}
/// ```
///
/// A value: make one per read (its roots and offline dates are a snapshot), then build any
/// number of objects from any thread. Building an object reads nothing.
public struct ItemJSON: Sendable {
    /// Each domain's root.
    public let roots: [String: String]
    /// Since when each domain whose drive is not mounted is offline (Docs/Contract.md#drives-and-mounts).
    public let offline: [String: Date]

    /// Reads the root of every domain of `index`, and which are offline.
    ///
    /// One read of the domains' states (``FileIndexReader/domainRootsAndOfflineDates()``);
    /// blocks the calling thread.
    ///
    /// - Throws: ``SearchlightError`` when the index cannot be read.
    public init(index: any FileIndexReader) throws {
        (roots, offline) = try index.domainRootsAndOfflineDates()
    }

    /// Uses the roots given (domain → root), and the offline domains' dates.
    public init(roots: [String: String], offline: [String: Date] = [:]) {
        self.roots = roots
        self.offline = offline
    }

    /// Whether the item `reference` names is on a drive that is not mounted now.
    public func isOffline(_ reference: ItemReference) -> Bool { offline[reference.domain] != nil }

    /// The absolute path of an item, from its domain's root; `nil` when the domain has no root.
    public func absolutePath(_ item: SearchableItem) -> [UInt8]? {
        absolutePath(of: item.reference)
    }

    /// The absolute path of the item `reference` names; `nil` when its domain has no root.
    ///
    /// Bytes, not a string: the identifier need not be UTF-8.
    public func absolutePath(of reference: ItemReference) -> [UInt8]? {
        guard let root = roots[reference.domain] else { return nil }
        var path = Array(root.utf8)
        if path.last != 0x2F { path.append(0x2F) }   // a root of `/`
        return path + reference.identifier.bytes
    }

    /// The object of `indexed`, still open: a caller may add keys before taking ``JSONLine/finished``.
    ///
    /// Every key is always present, `null` (or `[]`) when the item lacks the value, in a fixed
    /// order. `displayName` is the last component of the identifier, as bytes (a file's name as
    /// the disk has it), not the item's ``Searchlight/AttributeSet/displayName``. `thumbnail`
    /// describes the picture (format, size, byte count); its bytes are served apart.
    public func object(for indexed: IndexedItem) -> JSONLine {
        let item = indexed.item
        let a = item.attributeSet
        var line = JSONLine()
        line.add("id", bytes: item.uniqueIdentifier.bytes)
        line.add("domain", item.domainIdentifier)
        if let path = absolutePath(item) { line.add("path", bytes: path) } else { line.add("path", nil as String?) }
        line.add("displayName", bytes: Array(item.uniqueIdentifier.lastComponent))
        line.add("title", a.title)
        line.add("authors", strings: a.authors)
        line.add("contentType", a.contentType)
        line.add("contentTypeTree", strings: a.contentTypeTree)
        line.add("contentDescription", a.contentDescription)
        line.add("keywords", strings: a.keywords)
        line.add("size", a.size)
        line.add("pageCount", a.pageCount)
        line.add("contentModificationDate", a.contentModificationDate)
        line.add("contentCreationDate", a.contentCreationDate)
        line.add("pixelWidth", a.pixelWidth)
        line.add("pixelHeight", a.pixelHeight)
        line.add("acquisitionMake", a.acquisitionMake)
        line.add("acquisitionModel", a.acquisitionModel)
        line.add("latitude", a.latitude)
        line.add("longitude", a.longitude)
        line.add("userTags", strings: a.userTags)
        line.add("comment", a.comment)
        line.add("starRating", a.starRating)
        line.add("whereFroms", strings: a.whereFroms)
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
        // Its drive is not mounted: found by what the index holds, not openable now.
        line.add("offline", offline[item.domainIdentifier] != nil)
        return line
    }

    /// A search result's object, still open: the item's, then `matchedIn`, for a content
    /// match `snippet`, and for a result of respelled words `searchingAlsoFor` (those words).
    public func object(for result: SearchResult) -> JSONLine {
        var line = object(for: result.item)
        line.add("matchedIn", result.matchedIn.rawValue)
        if let snippet = result.snippet { line.add("snippet", snippet) }
        if let spelling = result.spelling { line.add("searchingAlsoFor", spelling.joined(separator: " ")) }
        return line
    }
}
