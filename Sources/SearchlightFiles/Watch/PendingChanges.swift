import Searchlight

/// Step ② of the write path, coalescing: a window of events becomes one change set.
///
/// Turns a window of inotify events into the work that brings the index in step with the disk.
///
/// Events are taken in order. What changes the structure of the tree is recorded as index
/// changes in that order: a rename or move within the root (paired by cookie) re-keys the
/// item and, for a folder, all its descendants, without re-extracting them; a deleted folder
/// deletes its subtree and drops the pending work below it. Everything else is coalesced into
/// two sets handled once per window: paths to ``refresh`` (a burst of writes to one file is
/// one refresh; a file created then deleted costs one `statx`) and folders to ``crawl`` (new
/// or moved-in folders, walked after their watches are added). A move whose other half never
/// came is a move out of the root (a delete) or into it (a create).
struct PendingChanges: CustomStringConvertible {
    /// Index changes in event order; a `nil` is a move out that turned out to be a rename.
    private(set) var changes: [IndexBatch.Change?] = []
    /// Paths whose files to stat and re-inspect if changed, or delete if gone.
    private(set) var refresh: Set<ItemIdentifier> = []
    /// Folders to walk (watching their subfolders first) and reconcile.
    private(set) var crawl: Set<ItemIdentifier> = []
    /// The kernel's queue overflowed: events were lost, the root must be reconciled.
    private(set) var overflowed = false
    /// The root itself was deleted, moved or unmounted.
    private(set) var rootGone = false

    let domain: String
    let rootWatch: WatchDescriptor
    let excluded: Set<ItemIdentifier>
    /// Whether hidden names are indexed (``DirectoryWalker/Options/includeHidden``).
    let includeHidden: Bool
    /// Moves seen from one side only, by cookie: where they came from and their placeholder.
    private var unpairedMoves: [UInt32: (path: ItemIdentifier, isDirectory: Bool, change: Int)] = [:]
    /// How many entries of ``refresh`` and ``crawl`` lie strictly below each folder that has
    /// any: a delete looks through both sets for the work below it only when there is some.
    /// Removing a tree brings a delete per file; a look through the sets for each one made a
    /// window of thousands of deletes quadratic (minutes of CPU for `rm -rf` of 6 000 files).
    private var pendingBelow: [ItemIdentifier: Int] = [:]
    /// Looks through the pending sets for the work below a deleted or moved path: one per
    /// folder with pending work below it, never one per file.
    private(set) var pendingScans = 0

    /// Whether a folder's owner, mode or ACL matters (a shared index records who may pass it):
    /// then a folder's attribute change refreshes it.
    let followsFolderAccess: Bool

    init(domain: String, rootWatch: WatchDescriptor, excluded: Set<ItemIdentifier>, includeHidden: Bool = false,
         followsFolderAccess: Bool = false) {
        self.includeHidden = includeHidden
        self.followsFolderAccess = followsFolderAccess
        self.domain = domain
        self.rootWatch = rootWatch
        self.excluded = excluded
    }

    /// Whether there is nothing to do.
    var isEmpty: Bool { changes.isEmpty && refresh.isEmpty && crawl.isEmpty && !overflowed && !rootGone }

    /// The structural index changes, in order.
    var batch: IndexBatch {
        var batch = IndexBatch()
        batch.changes = changes.compactMap { $0 }
        return batch
    }

    /// Takes one event into account, keeping `table` in step with renamed and deleted folders.
    mutating func add(_ event: InotifyEvent, table: inout WatchTable) {
        let mask = event.mask
        if mask.contains(.queueOverflow) {
            overflowed = true
            return
        }
        if event.watch == rootWatch && !mask.isDisjoint(with: [.deleteSelf, .moveSelf, .unmount, .ignored]) {
            rootGone = true
            return
        }
        if mask.contains(.ignored) {
            _ = table.remove(event.watch)
            return
        }
        // Events on a watched folder itself are reported, with a name, by its parent.
        guard !event.name.isEmpty, let folder = table.path(for: event.watch) else { return }
        // Hidden names are not indexed unless asked for (editors' swap files among them).
        if event.name.first == UInt8(ascii: "."), !includeHidden { return }
        let path = ItemIdentifier(bytes: WatchTable.path(of: event.name, inDirectory: folder))
        if excluded.contains(path) { return }
        let isDirectory = event.isDirectory

        if mask.contains(.movedFrom) {
            // A delete unless the other half arrives: then the placeholder is cleared.
            unpairedMoves[event.cookie] = (path, isDirectory, changes.count)
            changes.append(.deleteTree(domain: domain, identifier: path))
        } else if mask.contains(.movedTo) {
            if let from = unpairedMoves.removeValue(forKey: event.cookie), !isInsideMovedAwayFolder(from.path) {
                changes[from.change] = nil
                changes.append(.move(domain: domain, from: from.path, to: path, rename: FileAttributes.rename(from: from.path, to: path)))
                rekeyPending(from: from.path, to: path)
                if isDirectory {
                    _ = table.moveSubtree(from: from.path.bytes, to: path.bytes)
                    // Its items are re-keyed, and then it is walked: an earlier window may
                    // have looked for a new file in it under its old name after the move, when
                    // the file was already here. The walk re-inspects nothing unchanged.
                    insertCrawl(path)
                } else {
                    // Its name changed, and with it its title and keywords.
                    insertRefresh(path)
                }
            } else if isDirectory {
                // Moved in from outside, or from inside a folder whose own move is not
                // resolved yet (where its items are in the index is not known): its source
                // keeps its delete, and it is walked as new.
                insertCrawl(path)
            } else {
                insertRefresh(path)
            }
        } else if mask.contains(.delete) {
            dropPending(below: path)
            if isDirectory {
                changes.append(.deleteTree(domain: domain, identifier: path))
                _ = table.removeSubtree(at: path.bytes)
            } else {
                insertRefresh(path)
            }
        } else if mask.contains(.create) && isDirectory {
            insertCrawl(path)
        } else if !mask.isDisjoint(with: [.create, .closeWrite, .attrib, .modify]) && !isDirectory {
            insertRefresh(path)
        } else if mask.contains(.attrib) && isDirectory && followsFolderAccess {
            // A folder's owner, mode or ACL: who may pass through it (a shared index's rule).
            insertRefresh(path)
        }
    }

    /// Whether `path` lies in a folder that moved away and whose destination is not known yet.
    private func isInsideMovedAwayFolder(_ path: ItemIdentifier) -> Bool {
        unpairedMoves.values.contains { $0.isDirectory && Self.isPath(path, inSubtreeAt: $0.path) }
    }

    /// Folders moved away whose destination is not known (yet).
    var unpairedFolders: Set<ItemIdentifier> {
        Set(unpairedMoves.values.filter(\.isDirectory).map(\.path))
    }

    /// A folder moved away turned out to be at `to`: moved into a folder too new to be
    /// watched, so inotify could not report where it went, but its watch (the same inode)
    /// was found there. Its pending delete becomes a move: its items are re-keyed, not
    /// re-extracted.
    mutating func adoptMove(from: ItemIdentifier, to: ItemIdentifier, table: inout WatchTable) {
        guard let (cookie, move) = unpairedMoves.first(where: { $0.value.path == from && $0.value.isDirectory }) else {
            return
        }
        unpairedMoves[cookie] = nil
        changes[move.change] = .move(domain: domain, from: from, to: to, rename: FileAttributes.rename(from: from, to: to))
        // No re-keying of pending work: this is learnt at the end of the window, and work
        // pending under `from` may be for new files made there after the move. The
        // destination is crawled anyway.
        _ = table.moveSubtree(from: from.bytes, to: to.bytes)
    }

    /// Ends the window: moves whose other half never came went out of the root. Their folders'
    /// watches are dropped from `table` and returned, to be removed from the kernel (it keeps
    /// watching a folder moved elsewhere).
    mutating func resolveUnpairedMoves(table: inout WatchTable) -> [WatchDescriptor] {
        var stale: [WatchDescriptor] = []
        for (_, move) in unpairedMoves where move.isDirectory {
            stale += table.removeSubtree(at: move.path.bytes).map(\.watch)
        }
        unpairedMoves.removeAll()
        return stale
    }

    private mutating func insertRefresh(_ path: ItemIdentifier) {
        if refresh.insert(path).inserted { countAncestors(of: path, by: 1) }
    }

    private mutating func insertCrawl(_ path: ItemIdentifier) {
        if crawl.insert(path).inserted { countAncestors(of: path, by: 1) }
    }

    /// Adds `delta` to ``pendingBelow`` for each folder above `path` (the root aside).
    private mutating func countAncestors(of path: ItemIdentifier, by delta: Int) {
        for (offset, byte) in path.bytes.enumerated() where byte == UInt8(ascii: "/") {
            let ancestor = ItemIdentifier(bytes: Array(path.bytes[..<offset]))
            let count = pendingBelow[ancestor, default: 0] + delta
            pendingBelow[ancestor] = count == 0 ? nil : count
        }
    }

    /// Whether `path` itself or anything below it is pending.
    private func hasPending(atOrBelow path: ItemIdentifier) -> Bool {
        pendingBelow[path] != nil || refresh.contains(path) || crawl.contains(path)
    }

    private mutating func dropPending(below path: ItemIdentifier) {
        if refresh.remove(path) != nil { countAncestors(of: path, by: -1) }
        if crawl.remove(path) != nil { countAncestors(of: path, by: -1) }
        guard pendingBelow[path] != nil else { return }
        pendingScans += 1
        let dropped = refresh.filter { Self.isPath($0, inSubtreeAt: path) }
        let droppedCrawls = crawl.filter { Self.isPath($0, inSubtreeAt: path) }
        refresh.subtract(dropped)
        crawl.subtract(droppedCrawls)
        for entry in dropped { countAncestors(of: entry, by: -1) }
        for entry in droppedCrawls { countAncestors(of: entry, by: -1) }
    }

    private mutating func rekeyPending(from old: ItemIdentifier, to new: ItemIdentifier) {
        guard hasPending(atOrBelow: old) else { return }
        pendingScans += 1
        func rekey(_ set: Set<ItemIdentifier>) -> Set<ItemIdentifier> {
            Set(set.map { path in
                guard Self.isPath(path, inSubtreeAt: old) else { return path }
                return ItemIdentifier(bytes: new.bytes + path.bytes.dropFirst(old.bytes.count))
            })
        }
        refresh = rekey(refresh)
        crawl = rekey(crawl)
        // Re-keyed entries may have merged with others: counted again from the sets.
        pendingBelow = [:]
        for path in refresh { countAncestors(of: path, by: 1) }
        for path in crawl { countAncestors(of: path, by: 1) }
    }

    var description: String {
        let structure = changes.compactMap { change -> String? in
            switch change {
            case .move(_, let from, let to, _): "move \(from) → \(to)"
            case .deleteTree(_, let identifier): "delete tree \(identifier)"
            case .delete(_, let identifier): "delete \(identifier)"
            case .upsert(let item): "upsert \(item.uniqueIdentifier)"
            case .setUserAttributes(_, let identifier, _, _, _): "user attributes \(identifier)"
            case .setFolderAccess(_, let folder, _): "folder access \(folder)"
            case nil: nil
            }
        }
        return "changes \(structure), refresh \(refresh.map(\.lossyString).sorted()), "
            + "crawl \(crawl.map(\.lossyString).sorted())\(overflowed ? ", overflow" : "")"
    }

    /// Whether `path` is `ancestor` or below it.
    static func isPath(_ path: ItemIdentifier, inSubtreeAt ancestor: ItemIdentifier) -> Bool {
        path.isInSubtree(at: ancestor)
    }

    /// Whether `path` is one of `folders` or below one of them. Costs a lookup per level of
    /// `path`, not a comparison per folder: a burst brings thousands of paths and folders.
    static func isPath(_ path: ItemIdentifier, inSubtreeOfAnyOf folders: Set<ItemIdentifier>) -> Bool {
        folders.contains(path) || hasAncestor(path, in: folders)
    }

    /// Whether a folder above `path` is one of `folders` (the root, the empty path, included).
    static func hasAncestor(_ path: ItemIdentifier, in folders: Set<ItemIdentifier>) -> Bool {
        guard !folders.isEmpty, !path.bytes.isEmpty else { return false }
        if folders.contains(ItemIdentifier(bytes: [])) { return true }
        for (offset, byte) in path.bytes.enumerated() where byte == UInt8(ascii: "/") {
            if folders.contains(ItemIdentifier(bytes: Array(path.bytes[..<offset]))) { return true }
        }
        return false
    }
}
