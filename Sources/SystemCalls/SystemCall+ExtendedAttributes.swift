internal import CShimFileSystem
#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

extension SystemCall {
    /// The value of the extended attribute `name` of an open file, or `nil` when the file has
    /// no such attribute (`ENODATA`). A file system without user attributes throws
    /// `Errno.notSupported`. The corresponding C function is `fgetxattr(2)`.
    public static func extendedAttribute(_ name: String, descriptor: Int32) throws(Errno) -> [UInt8]? {
        try readAttribute { buffer, size in cfs_fgetxattr(descriptor, name, buffer, size) }
    }

    /// The names of the extended attributes of an open file (those the caller may read): one
    /// system call when it has none. A file system without extended attributes throws
    /// `Errno.notSupported`. The corresponding C function is `flistxattr(2)`.
    public static func extendedAttributeNames(descriptor: Int32) throws(Errno) -> [[UInt8]] {
        let list = try readAttribute { buffer, size in
            cfs_flistxattr(descriptor, buffer?.assumingMemoryBound(to: CChar.self), size)
        } ?? []
        return list.split(separator: 0, omittingEmptySubsequences: true).map(Array.init)
    }

    /// The value of the extended attribute `name` of the file at `path`, not following a final
    /// symbolic link, or `nil` when it has none (`ENODATA`). The corresponding C function is
    /// `lgetxattr(2)`.
    public static func extendedAttribute(_ name: String, path: String) throws(Errno) -> [UInt8]? {
        try readAttribute { buffer, size in cfs_lgetxattr(path, name, buffer, size) }
    }

    /// Sets the extended attribute `name` of the file at `path` to `value`, creating or
    /// replacing it. The corresponding C function is `setxattr(2)`.
    public static func setExtendedAttribute(_ name: String, to value: [UInt8], path: String) throws(Errno) {
        _ = try retryingOnInterrupt {
            value.withUnsafeBytes { cfs_setxattr(path, name, $0.baseAddress, $0.count) }
        }
    }

    /// Removes the extended attribute `name` of the file at `path`; nothing when it has none.
    /// The corresponding C function is `removexattr(2)`.
    public static func removeExtendedAttribute(_ name: String, path: String) throws(Errno) {
        do {
            _ = try retryingOnInterrupt { cfs_removexattr(path, name) }
        } catch where error == .noData {
            return
        }
    }

    /// Asks for the size, then reads; again when the value grew in between (`ERANGE`).
    private static func readAttribute(_ call: (UnsafeMutableRawPointer?, Int) -> Int) throws(Errno) -> [UInt8]? {
        while true {
            let size: Int
            do {
                size = try retryingOnInterrupt { call(nil, 0) }
            } catch where error == .noData {
                return nil
            }
            if size == 0 { return [] }
            var value = [UInt8](repeating: 0, count: size)
            do {
                let count = try retryingOnInterrupt { value.withUnsafeMutableBytes { call($0.baseAddress, $0.count) } }
                return Array(value.prefix(count))
            } catch where error == .noData {
                return nil
            } catch where error == .outOfRange {
                continue
            }
        }
    }
}
