import Foundation
import Searchlight
import SystemCalls
import SystemPackage

/// A folder being indexed: its canonical path, an open descriptor, and its device.
///
/// Every file below it is opened relative to ``descriptor`` (`openat(2)`), so that the walk
/// and the inspectors never resolve the root's path again.
public final class RootFolder: Sendable {
    /// The canonical absolute path (symbolic links resolved).
    public let path: String
    /// An open descriptor of the root directory.
    public let descriptor: Int32
    /// The device of the root: the walk does not cross into other mounts.
    public let device: UInt64

    /// Opens `path` as a root.
    /// - Throws: ``FileSystemError`` when it does not exist, is not a directory, or cannot be read.
    public init(path: String) throws(FileSystemError) {
        let given = ItemIdentifier(path)
        let canonical = try FileSystemError.attributing("realpath", path: given) { () throws(Errno) in
            try SystemCall.resolvedPath(path)
        }
        self.path = canonical
        let descriptor = try FileSystemError.attributing("open", path: given) { () throws(Errno) in
            try SystemCall.open(canonical.utf8, .readOnly, options: [.directory, .closeOnExec])
        }
        self.descriptor = descriptor
        do {
            device = try FileStatus.of(descriptor: descriptor, path: given).device
        } catch {
            SystemCall.close(descriptor)
            throw error
        }
    }

    deinit { SystemCall.close(descriptor) }

    /// Opens the directory at `relativePath` (the root itself when empty), one component at a
    /// time, never through a symbolic link (``SystemCall/open(below:_:_:options:)``).
    /// For the root itself, not dup(2): a duplicate shares the directory offset, so a second
    /// walk would start where the first one ended; "." opens a description of its own.
    func openDirectory(_ relativePath: ItemIdentifier) throws(FileSystemError) -> Int32 {
        try FileSystemError.attributing("open", path: relativePath) { () throws(Errno) in
            try SystemCall.open(below: descriptor, relativePath.bytes, .readOnly, options: [.directory, .closeOnExec])
        }
    }

    /// Who may pass through the folder at `relativePath` below the root (empty: the root):
    /// its status and POSIX ACL, read from the open folder.
    public func folderAccess(_ relativePath: ItemIdentifier) throws(FileSystemError) -> FileAccess {
        let folder = try openDirectory(relativePath)
        defer { SystemCall.close(folder) }
        return try FileStatus.of(descriptor: folder, path: relativePath).folderAccess(descriptor: folder)
    }

    /// Who may pass through each folder above the root, from `/` down to the root's parent,
    /// by absolute path; a folder that cannot be looked at is left out.
    public func accessAbove() -> [(path: String, access: FileAccess)] {
        var folders: [String] = []
        var folder = path
        while let slash = folder.lastIndex(of: "/"), folder != "/" {
            folder = slash == folder.startIndex ? "/" : String(folder[..<slash])
            folders.insert(folder, at: 0)
        }
        return folders.compactMap { folder in
            guard let raw = try? SystemCall.status(ofPath: Array(folder.utf8)) else { return nil }
            let acl = (try? SystemCall.extendedAttribute(ExtendedAttributes.posixACL, path: folder)) ?? nil
            return (folder, FileStatus(raw).access(posixACL: acl))
        }
    }

    /// The status of the entry at `relativePath` below the root, without opening it nor
    /// following a final symbolic link (`statx(2)` relative to ``descriptor``).
    public func status(of relativePath: ItemIdentifier) throws(FileSystemError) -> FileStatus {
        try SystemCall.withCString(relativePath.bytes) { name throws(FileSystemError) in
            try FileStatus.of(name, in: descriptor, path: relativePath)
        }
    }

    /// The absolute path of a relative path below the root, as bytes.
    public func absolutePath(of relativePath: ItemIdentifier) -> [UInt8] {
        relativePath.bytes.isEmpty ? Array(path.utf8) : Array(path.utf8) + [0x2F] + relativePath.bytes
    }

    /// The path of `absolutePath` relative to this root, when it lies strictly below it.
    public func relativePath(of absolutePath: String) -> ItemIdentifier? {
        let prefix = path.hasSuffix("/") ? path : path + "/"
        guard absolutePath.hasPrefix(prefix), absolutePath.count > prefix.count else { return nil }
        return ItemIdentifier(String(absolutePath.dropFirst(prefix.count)))
    }
}
