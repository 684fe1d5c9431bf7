import Searchlight
import SystemCalls

// On FAT and exFAT a file answers to every case of its name, and to its 8.3 alias: a program
// that opens `BOAT.TXT` writes to `boat.txt`, and inotify reports the name the program used
// (Docs/Contract.md#removable-drives). Such a name is no file of its own: the watch takes the
// file by the name its folder lists, so that it is neither indexed twice nor churned.
extension FolderWatcher {
    /// `paths` (files that events named) by the names their folders list: a path that exists
    /// but is not listed byte for byte is the listed entry that differs from it in case alone;
    /// with no such entry (an 8.3 alias) it is left out, and the root is reconciled once
    /// things are quiet. Only on filesystems whose inodes do not last a mount (FAT, exFAT,
    /// FUSE), where names may ignore case; elsewhere `paths` as they are.
    ///
    /// Each folder is listed once per call, however many of its files the events name. Names
    /// are compared with Swift's `lowercased()`, close to but not exactly FAT's own case table;
    /// a name that matches two entries is left out, as an alias is.
    ///
    /// - Parameter paths: Files the window's events named, relative to the root.
    /// - Returns: The same files, each by the name its folder lists.
    func listedNames(of paths: Set<ItemIdentifier>) -> Set<ItemIdentifier> {
        guard !paths.isEmpty, FileStatus.hasUnstableInodes(device: root.device) else { return paths }
        var listings: [ItemIdentifier: Set<[UInt8]>] = [:]
        var listed: Set<ItemIdentifier> = []
        for path in paths {
            let name = Array(path.lastComponent)
            let folder = ItemIdentifier(bytes: Array(path.bytes.dropLast(name.count + (name.count < path.bytes.count ? 1 : 0))))
            if listings[folder] == nil {
                listings[folder] = (try? root.openDirectory(folder)).map { opened in
                    defer { SystemCall.close(opened) }
                    return Set((try? SystemCall.entryNames(of: opened)) ?? [])
                } ?? []
            }
            let entries = listings[folder] ?? []
            // Listed as it is, gone, or its folder unreadable: left to the refresh.
            guard !entries.isEmpty, !entries.contains(name), (try? root.status(of: path)) != nil else {
                listed.insert(path)
                continue
            }
            let folded = String(decoding: name, as: UTF8.self).lowercased()
            let same = entries.filter { String(decoding: $0, as: UTF8.self).lowercased() == folded }
            if same.count == 1, let entry = same.first {
                logger.debug("\(path.lossyString) is listed as \(String(decoding: entry, as: UTF8.self))")
                listed.insert(ItemIdentifier(bytes: folder.bytes.isEmpty ? entry : folder.bytes + [0x2F] + entry))
            } else {
                inbox.requestSelfCheck(reason: "a file was changed through another name than its folder lists", counted: false)
            }
        }
        return listed
    }
}
