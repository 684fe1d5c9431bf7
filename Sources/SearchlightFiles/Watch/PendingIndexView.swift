import Searchlight

/// Step ② of the write path: the index as a change set's structural changes will leave it.
///
/// The index as it will be once a window's structural changes (moves, subtree deletes,
/// deletes) are applied, read without applying them: a window's crawls and refreshes compare
/// the disk with this view, and everything (structure, new items, bookkeeping) is then written
/// in one transaction.
///
/// A path of the view is traced back through the changes, last to first, to where its item
/// is in the index now: a move `from → to` maps `to/x` back to `from/x` (and leaves nothing
/// below `from`); a subtree delete leaves nothing below it.
struct PendingIndexView {
    typealias Entry = IndexStampCursor.Entry

    let index: any FileIndexWriter
    let domain: String
    /// The pending changes, in order; upserts are not expected (and are ignored).
    let changes: [IndexBatch.Change]

    init(index: any FileIndexWriter, domain: String, changes: [IndexBatch.Change]) {
        self.index = index
        self.domain = domain
        self.changes = changes
    }

    /// Where the item at `path` of the view is in the index now; `nil` when the changes leave
    /// nothing there.
    func source(of path: ItemIdentifier) -> ItemIdentifier? {
        var path = path
        for change in changes.reversed() {
            switch change {
            case .upsert, .setUserAttributes, .setFolderAccess: continue
            case .delete(_, let identifier):
                if path == identifier { return nil }
            case .deleteTree(_, let identifier):
                if PendingChanges.isPath(path, inSubtreeAt: identifier) { return nil }
            case .move(_, let from, let to, _):
                if PendingChanges.isPath(path, inSubtreeAt: to) {
                    path = ItemIdentifier(bytes: from.bytes + path.bytes.dropFirst(to.bytes.count))
                } else if PendingChanges.isPath(path, inSubtreeAt: from) {
                    return nil
                }
            }
        }
        return path
    }

    /// The change stamps of those of `paths` that are items in the view (see
    /// ``FileIndexReader/changeStamps(of:domain:)``).
    func changeStamps(of paths: [ItemIdentifier]) throws -> [ItemIdentifier: [UInt8]?] {
        if changes.isEmpty { return try index.changeStamps(of: paths, domain: domain) }
        var sources: [ItemIdentifier: ItemIdentifier] = [:]
        for path in paths { if let source = source(of: path) { sources[source] = path } }
        let stamps = try index.changeStamps(of: Array(sources.keys), domain: domain)
        var result: [ItemIdentifier: [UInt8]?] = [:]
        for (source, stamp) in stamps { if let path = sources[source] { result[path] = stamp } }
        return result
    }

    /// Every item strictly below `folder` in the view, in byte order.
    func entries(below folder: ItemIdentifier) throws -> [Entry] {
        try entries(below: folder, including: false, upTo: changes.count).sorted { $0.identifier < $1.identifier }
    }

    /// The items below `folder` (and `folder` itself when `including`) after the first `count`
    /// changes, unsorted.
    private func entries(below folder: ItemIdentifier, including: Bool, upTo count: Int) throws -> [Entry] {
        // Changes that touch neither the region nor a folder above it leave it as it was.
        func related(_ path: ItemIdentifier) -> Bool {
            PendingChanges.isPath(path, inSubtreeAt: folder) || PendingChanges.isPath(folder, inSubtreeAt: path)
        }
        var count = count
        while count > 0 {
            switch changes[count - 1] {
            case .upsert, .setUserAttributes, .setFolderAccess: count -= 1; continue
            case .delete(_, let identifier), .deleteTree(_, let identifier):
                if related(identifier) { break }
                count -= 1; continue
            case .move(_, let from, let to, _):
                if related(from) || related(to) { break }
                count -= 1; continue
            }
            break
        }
        guard count > 0 else { return try stored(below: folder, including: including) }
        func moved(_ entries: [Entry], from: ItemIdentifier, to: ItemIdentifier) -> [Entry] {
            entries.map { (ItemIdentifier(bytes: to.bytes + $0.identifier.bytes.dropFirst(from.bytes.count)), $0.changeStamp) }
        }
        switch changes[count - 1] {
        case .upsert, .setUserAttributes, .setFolderAccess:
            return try entries(below: folder, including: including, upTo: count - 1)
        case .delete(_, let identifier):
            return try entries(below: folder, including: including, upTo: count - 1).filter { $0.identifier != identifier }
        case .deleteTree(_, let identifier):
            if PendingChanges.isPath(folder, inSubtreeAt: identifier) { return [] }
            return try entries(below: folder, including: including, upTo: count - 1)
                .filter { !PendingChanges.isPath($0.identifier, inSubtreeAt: identifier) }
        case .move(_, let from, let to, _):
            if PendingChanges.isPath(folder, inSubtreeAt: to) {
                let mapped = ItemIdentifier(bytes: from.bytes + folder.bytes.dropFirst(to.bytes.count))
                return moved(try entries(below: mapped, including: including, upTo: count - 1), from: from, to: to)
            }
            if PendingChanges.isPath(folder, inSubtreeAt: from) { return [] }
            var result = try entries(below: folder, including: including, upTo: count - 1).filter {
                !PendingChanges.isPath($0.identifier, inSubtreeAt: from) && !PendingChanges.isPath($0.identifier, inSubtreeAt: to)
            }
            // `to` is not `folder` nor above it (handled above): it is in the region when below it.
            if PendingChanges.isPath(to, inSubtreeAt: folder) {
                result += moved(try entries(below: from, including: true, upTo: count - 1), from: from, to: to)
            }
            return result
        }
    }

    /// The items in the index now below `folder` (and `folder` itself when `including`).
    private func stored(below folder: ItemIdentifier, including: Bool) throws -> [Entry] {
        var result: [Entry] = []
        if including, !folder.bytes.isEmpty, let stamp = try index.changeStamp(of: folder, domain: domain) {
            result.append((folder, stamp))
        }
        var cursor = try IndexStampCursor(index: index, domain: domain, below: folder)
        while let entry = try cursor.peek() {
            result.append(entry)
            cursor.advance()
        }
        return result
    }
}
