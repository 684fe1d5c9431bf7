import Searchlight
import Synchronization

/// The names of the hard-linked files in the root, so that a change through one name refreshes
/// them all.
///
/// inotify reports a write under the name it was made through: when a file has two names in the
/// root, a write or a truncation through one would leave the other item's size, dates and
/// content stale until a reconcile. Adding, removing or renaming a name changes the file's
/// ctime (which every name's change stamp holds) just the same.
///
/// The table is fed by what each of the watch's scanner runs saw (``ScanReport/linkSightings``),
/// once the run has returned (``FolderWatcher/scanned(recording:_:)``): nothing in the scanner
/// calls back into it, and nothing reads it while a run is under way. The watch's first
/// reconcile walks the whole root, so every file with more than one name is in it from the
/// start, whether its item has a change stamp or not; walks of new folders and refreshes keep it
/// current, and a window's moves and deletes re-key and forget names. A name kept here that no
/// longer holds its inode costs one needless `statx`, which finds the truth on the disk.
///
/// A window *touches* a file when it refreshes, adds, renames or removes one of its names; the
/// other names of the touched files are refreshed with the window.
///
/// Its memory grows with the names of hard-linked files in the root only (most roots have
/// none or few); every method takes one lock, briefly, so it may be called from the
/// scanner's threads and the window's alike.
final class HardLinkNames: Sendable {
    /// The names known of each hard-linked inode, and which of those inodes a window touched.
    private struct Table {
        /// The names of each inode met with more than one link.
        var names: [UInt64: Set<ItemIdentifier>] = [:]
        /// The inode of each name: ``names`` read backwards.
        var inodes: [ItemIdentifier: UInt64] = [:]
        /// The inodes touched since the last ``takeTouchedNames(lookingUp:)``.
        var touched: Set<UInt64> = []
        /// The link counts last seen of the files with a name met for the first time since the
        /// last ``takeTouchedNames(lookingUp:)``: their other names may not be known yet (a
        /// name made for a file that had one name when it was met).
        var newlyNamed: [UInt64: UInt32] = [:]

        /// Keeps `path` as a name of `inode`; `true` when it was not one before.
        mutating func register(_ path: ItemIdentifier, inode: UInt64, linkCount: UInt32? = nil) -> Bool {
            if inodes[path] == inode { return false }
            if let old = forget(path) { touched.insert(old) }
            inodes[path] = inode
            names[inode, default: []].insert(path)
            if let linkCount { newlyNamed[inode] = linkCount }
            return true
        }

        /// Forgets the name `path`; returns the inode it had.
        @discardableResult
        mutating func forget(_ path: ItemIdentifier) -> UInt64? {
            guard let inode = inodes.removeValue(forKey: path) else { return nil }
            names[inode]?.remove(path)
            if names[inode]?.isEmpty == true { names[inode] = nil }
            return inode
        }

        /// The names at or below `subtree`.
        ///
        /// Linear in the names kept: fine for the few hard-linked files a root holds.
        func names(below subtree: ItemIdentifier) -> [ItemIdentifier] {
            inodes.keys.filter { $0.isInSubtree(at: subtree) }
        }
    }

    /// The table, shared by the scanner's observer (on the walker's and inspectors' threads)
    /// and the window that takes the touched names.
    private let table = Mutex(Table())

    /// What a scanner run saw, in the order it saw it: at each path, what is there (`nil`:
    /// nothing), and whether that differs from the index. A name not met before touches its file
    /// (its other names' ctime moved when it was made), and so does a change found through it
    /// (written through a name whose event came under a path that was stale by then: in a folder
    /// moved where it could not be followed).
    ///
    /// - Parameter sightings: The report's sightings, in order; a path seen without a
    ///   hard-linked regular file forgets its name.
    func observe(_ sightings: [ScanReport.LinkSighting]) {
        guard !sightings.isEmpty else { return }
        table.withLock { table in
            for sighting in sightings {
                if let status = sighting.status, status.kind == .regular, status.linkCount > 1 {
                    if table.register(sighting.path, inode: status.inode, linkCount: status.linkCount) || sighting.changed {
                        table.touched.insert(status.inode)
                    }
                } else if let inode = table.forget(sighting.path) {
                    table.touched.insert(inode)
                }
            }
        }
    }

    /// A window refreshes `path`, now `status`: the file it named before and the file it names
    /// now are touched, whatever else is known of them.
    ///
    /// - Parameters:
    ///   - path: A file the window refreshes.
    ///   - status: What is at `path` now, `nil` when nothing is.
    func refreshing(_ path: ItemIdentifier, _ status: FileStatus?) {
        table.withLock { table in
            if let inode = table.inodes[path] { table.touched.insert(inode) }
            if let status, status.kind == .regular, status.linkCount > 1 {
                _ = table.register(path, inode: status.inode, linkCount: status.linkCount)
                table.touched.insert(status.inode)
            } else if let inode = table.forget(path) {
                table.touched.insert(inode)
            }
        }
    }

    /// A window's moves and deletes: names below a deleted folder are forgotten and their files
    /// touched; names below a moved one are re-keyed, and a renamed file is touched (a rename
    /// changes its ctime).
    func apply(_ changes: [IndexBatch.Change]) {
        table.withLock { table in
            for change in changes {
                switch change {
                case .delete(_, let identifier), .deleteTree(_, let identifier):
                    for name in table.names(below: identifier) {
                        if let inode = table.forget(name) { table.touched.insert(inode) }
                    }
                case .move(_, let from, let to, _):
                    for name in table.names(below: from) {
                        guard let inode = table.forget(name) else { continue }
                        let moved = ItemIdentifier(bytes: to.bytes + name.bytes.dropFirst(from.bytes.count))
                        _ = table.register(moved, inode: inode)
                        if name == from { table.touched.insert(inode) }
                    }
                case .upsert, .setUserAttributes, .setFolderAccess:
                    break
                }
            }
        }
    }

    /// Every name of the touched files; the touches are forgotten. A file with a name met for
    /// the first time and fewer names known than it has is looked for in the index first:
    /// `lookUp` is given those inodes and returns the identifiers that hold them (one pass over
    /// the index's stamps for all of them).
    ///
    /// - Parameter lookUp: Finds the identifiers whose stored stamps hold any of the inodes.
    /// - Returns: Every known name of every touched file, the touched paths included.
    /// - Throws: What `lookUp` throws; the touches are then kept for the next call.
    func takeTouchedNames(lookingUp lookUp: (Set<UInt64>) throws -> [(ItemIdentifier, UInt64)]) rethrows -> Set<ItemIdentifier> {
        let unknown: Set<UInt64> = table.withLock { table in
            defer { table.newlyNamed.removeAll() }
            return Set(table.newlyNamed.compactMap { inode, count in
                table.touched.contains(inode) && (table.names[inode]?.count ?? 0) < count ? inode : nil
            })
        }
        let found = unknown.isEmpty ? [] : try lookUp(unknown)
        return table.withLock { table in
            for (name, inode) in found where table.inodes[name] == nil {
                _ = table.register(name, inode: inode)
            }
            defer { table.touched.removeAll() }
            return table.touched.reduce(into: []) { $0.formUnion(table.names[$1] ?? []) }
        }
    }

    /// Forgets the touches made by reconciles outside a window (they walk every name anyway).
    func clearTouches() {
        table.withLock { table in
            table.touched.removeAll()
            table.newlyNamed.removeAll()
        }
    }
}

extension FileStatus {
    /// The inode that a stored change stamp holds (its first number), packed or in the fixed
    /// 32-byte form of older indexes.
    ///
    /// The packed form starts with the inode as an LEB128 varint (7 bits a byte, low bits first);
    /// the 32-byte form with the inode as 8 little-endian bytes.
    ///
    /// - Parameter stamp: A change stamp as the index stores it.
    /// - Returns: The inode, or `nil` when the stamp is too short or its varint too long.
    static func inode(inStamp stamp: [UInt8]) -> UInt64? {
        if stamp.count == 32 {
            return stamp.prefix(8).reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        var value: UInt64 = 0
        var shift: UInt64 = 0
        for byte in stamp {
            guard shift < 64 else { return nil }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }
}

extension FolderWatcher {
    /// Runs the scanner for the watch (`run`, handed what it must record: `records` and what it
    /// sees of hard-linked files), then feeds ``hardLinks`` what the run saw: every run of the
    /// watch's scanner goes through here, so that the table knows each name a run met before
    /// anything asks it for names again.
    ///
    /// - Parameters:
    ///   - records: What the caller wants recorded; hard links are always added.
    ///   - run: One call of the scanner, given what to record.
    /// - Returns: The scanner's report.
    /// - Throws: What `run` throws; the table then learns nothing from the run.
    func scanned(recording records: ScanReport.Records = [],
                 _ run: (ScanReport.Records) throws -> ScanReport) rethrows -> ScanReport {
        let report = try run(records.union(.hardLinks))
        hardLinks.observe(report.linkSightings)
        return report
    }

    /// Before a window's transaction: its moves and deletes, and the files it refreshes
    /// (`files`, with `statuses`), touch hard-linked files; returns `files` with the other names
    /// of those files.
    ///
    /// When a touched file has names not known yet, the domain's change stamps are read whole
    /// (``touchedNames()``) to find them: once per window that needs it.
    func withOtherNames(_ files: Set<ItemIdentifier>, structure: [IndexBatch.Change],
                        statuses: [ItemIdentifier: FileStatus?]) -> Set<ItemIdentifier> {
        hardLinks.clearTouches()
        hardLinks.apply(structure)
        for file in files { hardLinks.refreshing(file, statuses[file] ?? nil) }
        return files.union(touchedNames())
    }

    /// ``HardLinkNames/takeTouchedNames(lookingUp:)``, looking names up among the domain's stamps
    /// (a stamp starts with the inode). A failed lookup is logged: the self-check repairs what
    /// it missed.
    ///
    /// The look-up reads the domain's change stamps 4 096 at a time, all of them: its cost grows
    /// with the domain, and it runs only when a touched file has more names than are known.
    private func touchedNames() -> Set<ItemIdentifier> {
        do {
            return try hardLinks.takeTouchedNames { inodes in
                var found: [(ItemIdentifier, UInt64)] = []
                var after: ItemIdentifier?
                while true {
                    let page = try index.changeStamps(domain: options.scan.domain, after: after, limit: 4096)
                    for entry in page {
                        if let inode = entry.changeStamp.flatMap(FileStatus.inode(inStamp:)), inodes.contains(inode) {
                            found.append((entry.identifier, inode))
                        }
                    }
                    guard page.count == 4096, let last = page.last else { return found }
                    after = last.identifier
                }
            }
        } catch {
            logger.warning("cannot look up the other names of hard-linked files: \(error)")
            return hardLinks.takeTouchedNames { _ in [] }
        }
    }

    /// After a window's transaction: names that its walks of new folders met for the first time
    /// touched their files; the other names of those files (outside the walked folders and the
    /// refreshed files) are refreshed in a second transaction.
    func refreshOtherNames(besides files: Set<ItemIdentifier>, walked folders: [ItemIdentifier]) throws -> ScanSummary {
        let others = touchedNames().subtracting(files)
            .filter { name in !folders.contains { name.isInSubtree(at: $0) } }
        guard !others.isEmpty else { return ScanSummary() }
        logger.debug("refreshing \(others.count) other names of hard-linked files")
        let summary = try scanned { try scanner.refresh(others.sorted(), records: $0) }.summary
        hardLinks.clearTouches()
        return summary
    }
}
