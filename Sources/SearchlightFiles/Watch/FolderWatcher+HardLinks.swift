import Searchlight
import Synchronization

/// The other names of hard-linked files, so that a write through one name refreshes them all.
///
/// inotify reports a write under the name it was made through: when a file has two names in
/// the root, a write or a truncation through one would leave the other item's size, dates and
/// content stale until a reconcile. A file whose `statx` says it has more than one name is
/// looked up by its inode among the stamps of the domain (a stamp starts with the inode) the
/// first time it is met, and its names are kept from then on (a few per hard-linked file: such
/// files are rare). A name kept here that no longer holds the inode costs one needless refresh,
/// which finds the truth on the disk.
final class HardLinkNames: Sendable {
    private let names = Mutex<[UInt64: Set<ItemIdentifier>]>([:])

    /// Every name of the file with `inode` in the domain, `path` (one of them) included.
    func names(of inode: UInt64, at path: ItemIdentifier, index: any FileIndexStore, domain: String) throws -> Set<ItemIdentifier> {
        if let known = names.withLock({ $0[inode] }), known.contains(path) { return known }
        var found: Set<ItemIdentifier> = [path]
        var after: ItemIdentifier?
        while true {
            let page = try index.changeStamps(domain: domain, after: after, limit: 4096)
            for entry in page where entry.changeStamp.flatMap(FileStatus.inode(inStamp:)) == inode {
                found.insert(entry.identifier)
            }
            guard page.count == 4096, let last = page.last else { break }
            after = last.identifier
        }
        return names.withLock { names in
            names[inode, default: []].formUnion(found)
            return names[inode]!
        }
    }

    /// The other names known for the inode that a removed item had; forgets the removed one. A name
    /// that goes away changes the file's ctime, which its other names' stamps hold.
    func remove(_ path: ItemIdentifier) -> Set<ItemIdentifier> {
        names.withLock { names in
            for (inode, set) in names where set.contains(path) {
                var rest = set
                rest.remove(path)
                names[inode] = rest.count > 1 ? rest : nil
                return rest
            }
            return []
        }
    }
}

extension FileStatus {
    /// The inode that a stored change stamp holds (its first number), packed or in the fixed
    /// 32-byte form of older indexes.
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
    /// `files` (paths a window refreshes) with the other names of those that are hard-linked.
    func withOtherNames(_ files: Set<ItemIdentifier>, statuses: [ItemIdentifier: FileStatus?]) -> Set<ItemIdentifier> {
        var all = files
        for file in files {
            guard let status = statuses[file] ?? nil, status.kind == .regular, status.linkCount > 1 else { continue }
            do {
                all.formUnion(try hardLinks.names(of: status.inode, at: file, index: index, domain: options.scan.domain))
            } catch {
                logger.warning("cannot look up the other names of \(file.lossyString): \(error)")
            }
        }
        return all
    }
}
