import Foundation
import Searchlight
import SystemCalls
import SystemPackage

/// What `statx(2)` says of a directory entry, without following symbolic links.
///
/// ```swift
/// let status = try root.status(of: "report.pdf")
/// if status.kind == .regular && !status.hasChangeStamp(stored) {
///     // new or changed since it was indexed: inspect it again, and store status.changeStamp
/// }
/// ```
public struct FileStatus: Sendable, Equatable {
    /// The kind of directory entry.
    public enum Kind: Sendable, Equatable {
        /// A regular file, a folder, a symbolic link (never followed), or anything else (a device,
        /// a socket, a FIFO), which is not indexed.
        case regular, directory, symbolicLink, other
    }

    /// What the entry is.
    public var kind: Kind
    /// The inode number; 0 on a filesystem whose inodes do not last across mounts (FAT,
    /// exFAT, FUSE: ``RootFolder`` notes them), where a file is known by path, size and times.
    public var inode: UInt64
    /// The names the file has (`st_nlink`): more than one for a hard-linked file; 1 where
    /// inodes are not stable.
    public var linkCount: UInt32
    /// The size in bytes.
    public var size: UInt64
    /// Bytes actually allocated (512-byte blocks × 512): less than `size` for a sparse file.
    public var allocatedSize: UInt64
    /// The device the entry is on (major and minor in one number): with ``inode``, what names a file.
    public var device: UInt64
    /// When the content last changed, in nanoseconds since 1970.
    public var modificationNanoseconds: Int64
    /// When the inode last changed (content, name, owner, mode, attributes), in nanoseconds since 1970.
    public var changeNanoseconds: Int64
    /// When the file was made, in nanoseconds since 1970, where the filesystem records it.
    public var birthNanoseconds: Int64?
    /// The owner's user id, the owning group's id and the permission bits (`0o7777`).
    public var owner: UInt32
    /// The owning group's id.
    public var group: UInt32
    /// The permission bits (`0o7777`).
    public var permissions: UInt16

    init(_ raw: SystemCall.Status) {
        kind = raw.isRegularFile ? .regular : raw.isDirectory ? .directory : raw.isSymbolicLink ? .symbolicLink : .other
        device = UInt64(raw.deviceMajor) << 32 | UInt64(raw.deviceMinor)
        // On FAT, exFAT and FUSE an inode number lasts one mount: a file is known without
        // it, and no two names are taken for one file (FileStatus+Inodes.swift).
        let stable = !Self.hasUnstableInodes(device: device)
        inode = stable ? raw.inode : 0
        linkCount = stable ? raw.linkCount : 1
        size = raw.size
        allocatedSize = raw.blocks * 512
        modificationNanoseconds = raw.modificationSeconds * 1_000_000_000 + Int64(raw.modificationNanoseconds)
        changeNanoseconds = raw.changeSeconds * 1_000_000_000 + Int64(raw.changeNanoseconds)
        birthNanoseconds = raw.birthSeconds.map { $0 * 1_000_000_000 + Int64(raw.birthNanoseconds ?? 0) }
        owner = raw.owner
        group = raw.group
        permissions = UInt16(truncatingIfNeeded: raw.mode & 0o7777)
    }

    /// Who may read or pass, from this status and the value of the file's POSIX ACL
    /// (``ExtendedAttributes/posixACL``; the status alone without one, or when it cannot be read).
    ///
    /// - Parameter posixACL: The raw value of `system.posix_acl_access`, or `nil`.
    /// - Returns: The owner, group, permission bits and, when the ACL parses, its entries.
    public func access(posixACL: [UInt8]?) -> FileAccess {
        posixACL.flatMap { FileAccess(owner: owner, group: group, mode: permissions, posixACL: $0) }
            ?? FileAccess(owner: owner, group: group, mode: permissions)
    }

    /// Who may pass through the open folder `descriptor`, whose status this is.
    func folderAccess(descriptor: Int32) -> FileAccess {
        access(posixACL: (try? SystemCall.extendedAttribute(ExtendedAttributes.posixACL, descriptor: descriptor)) ?? nil)
    }

    /// The status of `name` in the directory `directory`, without following a final symbolic link.
    /// The corresponding C function is `statx(2)`.
    ///
    /// - Parameters:
    ///   - name: The entry's name (or a relative path) in `directory`, as a C string.
    ///   - directory: An open folder's descriptor.
    ///   - path: The entry's path relative to the root, for the error's message only.
    /// - Returns: The entry's status.
    /// - Throws: ``FileSystemError`` with the path and `statx`'s `Errno`.
    public static func of(_ name: UnsafePointer<CChar>, in directory: Int32, path: ItemIdentifier? = nil) throws(FileSystemError) -> FileStatus {
        FileStatus(try FileSystemError.attributing("statx", path: path) { () throws(Errno) in
            try SystemCall.status(of: name, in: directory)
        })
    }

    /// The status of an open descriptor. The corresponding C function is `statx(2)`.
    ///
    /// - Parameters:
    ///   - descriptor: An open file or folder.
    ///   - path: Its path relative to the root, for the error's message only.
    /// - Returns: Its status.
    /// - Throws: ``FileSystemError`` with the path and `statx`'s `Errno`.
    public static func of(descriptor: Int32, path: ItemIdentifier? = nil) throws(FileSystemError) -> FileStatus {
        FileStatus(try FileSystemError.attributing("statx", path: path) { () throws(Errno) in
            try SystemCall.status(of: descriptor)
        })
    }

    /// The change stamp stored with an item: inode, size, mtime and ctime (nanoseconds).
    /// A file is re-inspected only when its stamp differs from the stored one.
    ///
    /// The four numbers are packed as LEB128 varints, ctime as its zigzag difference from
    /// mtime (often tiny): about 20 bytes rather than 32.
    public var changeStamp: [UInt8] {
        let delta = changeNanoseconds &- modificationNanoseconds
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for value in [inode, size, UInt64(bitPattern: modificationNanoseconds), UInt64(bitPattern: (delta << 1) ^ (delta >> 63))] {
            var rest = value
            while rest >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
                rest >>= 7
            }
            bytes.append(UInt8(rest))
        }
        return bytes
    }

    /// Whether `stored` is this status's change stamp, packed or in the fixed 32-byte form that
    /// indexes written before the packed one hold (so that upgrading re-inspects nothing).
    ///
    /// ```swift
    /// let status = try root.status(of: path)
    /// if status.hasChangeStamp(storedStamp) { /* unchanged: not inspected again */ }
    /// ```
    ///
    /// - Parameter stored: The stamp the index holds for the item, or `nil`.
    /// - Returns: Whether the file is as indexed; `false` without a stamp.
    public func hasChangeStamp(_ stored: [UInt8]?) -> Bool {
        guard let stored else { return false }
        if stored == changeStamp || matchesIgnoringInode(stored) { return true }
        guard stored.count == 32 else { return false }
        var fixed: [UInt8] = []
        for value in [inode, size, UInt64(bitPattern: modificationNanoseconds), UInt64(bitPattern: changeNanoseconds)] {
            withUnsafeBytes(of: value.littleEndian) { fixed.append(contentsOf: $0) }
        }
        return stored == fixed
    }

    /// Whether `stored` (a packed ``changeStamp``) differs from this status's stamp in the
    /// change time alone: same inode, size and modification time. Setting an extended
    /// attribute, a permission or an owner moves only the change time; writing moves the
    /// modification time. `false` for no stamp and for the fixed form of older indexes.
    ///
    /// A scan then reads only the file's user attributes again (tags, comment, rating,
    /// origins), not its contents, unless its item holds a failure.
    ///
    /// - Parameter stored: The stamp the index holds for the item.
    /// - Returns: Whether only the change time moved.
    public func differsOnlyInChangeTime(from stored: [UInt8]?) -> Bool {
        guard let stored, stored != changeStamp, let values = Self.values(ofStamp: stored) else { return false }
        return (values[0] == inode || inode == 0) && values[1] == size && values[2] == UInt64(bitPattern: modificationNanoseconds)
    }

    /// ``modificationNanoseconds`` as a date.
    public var modificationDate: Date { Date(nanosecondsSince1970: modificationNanoseconds) }
    /// ``birthNanoseconds`` as a date, where there is one.
    public var birthDate: Date? { birthNanoseconds.map(Date.init(nanosecondsSince1970:)) }
}

extension Date {
    init(nanosecondsSince1970 nanoseconds: Int64) {
        self.init(timeIntervalSince1970: Double(nanoseconds) / 1_000_000_000)
    }
}
