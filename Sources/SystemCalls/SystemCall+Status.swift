internal import CShimFileSystem
#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

extension SystemCall {
    /// What `statx(2)` says of a file: its inode, size, owner, mode, device and times.
    ///
    /// Glibc's `struct statx` is hidden from Swift's Glibc module (behind `_GNU_SOURCE`): the
    /// C shim copies the fields Searchlight reads into this.
    public struct Status: Sendable, Equatable {
        /// The inode number, unique on its device (`stx_ino`): with the device, what names a file.
        public var inode: UInt64
        /// The size in bytes.
        public var size: UInt64
        /// The 512-byte blocks allocated (`stx_blocks`).
        public var blocks: UInt64
        /// The type and permission bits (`stx_mode`).
        public var mode: UInt32
        /// The owner's user id (`stx_uid`).
        public var owner: UInt32
        /// The file's group id (`stx_gid`).
        public var group: UInt32
        /// The names the file has (`stx_nlink`).
        public var linkCount: UInt32
        /// The major number of the device the file is on (`stx_dev_major`).
        public var deviceMajor: UInt32
        /// The minor number of the device the file is on (`stx_dev_minor`).
        public var deviceMinor: UInt32
        /// When the content last changed, in seconds since 1970 (`stx_mtime`).
        public var modificationSeconds: Int64
        /// The nanoseconds of ``modificationSeconds``.
        public var modificationNanoseconds: UInt32
        /// When the inode last changed (content, name, owner or mode), in seconds since 1970 (`stx_ctime`).
        public var changeSeconds: Int64
        /// The nanoseconds of ``changeSeconds``.
        public var changeNanoseconds: UInt32
        /// The birth time, when the filesystem records one (`STATX_BTIME`).
        public var birthSeconds: Int64?
        /// The nanoseconds of ``birthSeconds``, when there is a birth time.
        public var birthNanoseconds: UInt32?

        init(_ raw: cfs_stat) {
            inode = raw.inode
            size = raw.size
            blocks = raw.blocks
            mode = raw.mode
            owner = raw.owner
            group = raw.group
            linkCount = raw.link_count
            deviceMajor = raw.device_major
            deviceMinor = raw.device_minor
            modificationSeconds = raw.modification_seconds
            modificationNanoseconds = raw.modification_nanoseconds
            changeSeconds = raw.change_seconds
            changeNanoseconds = raw.change_nanoseconds
            birthSeconds = raw.has_birth_time != 0 ? raw.birth_seconds : nil
            birthNanoseconds = raw.has_birth_time != 0 ? raw.birth_nanoseconds : nil
        }

        /// Whether the entry is a regular file (`S_ISREG`).
        public var isRegularFile: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFREG) }
        /// Whether the entry is a folder (`S_ISDIR`).
        public var isDirectory: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFDIR) }
        /// Whether the entry is a symbolic link (`S_ISLNK`).
        public var isSymbolicLink: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFLNK) }
    }

    /// What `statx(2)` says of `name` in the open folder `directory`, not following a final
    /// symbolic link. The corresponding C function is `statx(2)`.
    public static func status(of name: UnsafePointer<CChar>, in directory: Int32) throws(Errno) -> Status {
        var raw = cfs_stat()
        _ = try retryingOnInterrupt { cfs_statx_nofollow(directory, name, &raw) }
        return Status(raw)
    }

    /// What `statx(2)` says of the file at `path` (relative to `directory`, the working folder
    /// by default), not following a final symbolic link. The corresponding C function is `statx(2)`.
    public static func status(ofPath path: some Collection<UInt8>, in directory: Int32 = AT_FDCWD) throws(Errno) -> Status {
        if path.contains(0) { throw .invalidArgument }
        return try withCString(path) { path throws(Errno) in try status(of: path, in: directory) }
    }

    /// What `statx(2)` says of the open file `descriptor`. The corresponding C function is `statx(2)`.
    public static func status(of descriptor: Int32) throws(Errno) -> Status {
        var raw = cfs_stat()
        _ = try retryingOnInterrupt { cfs_fstatx(descriptor, &raw) }
        return Status(raw)
    }

    /// The type of the filesystem the open file `descriptor` is on (`f_type`: `0x4d44` for FAT).
    /// The corresponding C function is `fstatfs(2)`.
    public static func fileSystemType(of descriptor: Int32) throws(Errno) -> Int {
        Int(try checked { cfs_filesystem_type(descriptor) })
    }
}
