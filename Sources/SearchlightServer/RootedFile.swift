import Glibc
import Searchlight
import SystemCalls
import SystemPackage

/// A regular file opened below a root without following any symbolic link.
///
/// The root is opened by its canonical path (the one the scan recorded); then each component of
/// the relative path is opened relative to the previous one with `O_NOFOLLOW` (`openat(2)`):
/// a symbolic link anywhere on the way, a `..` or `.` component, an empty component (an
/// absolute path) or a last component that is not a regular file fails, so nothing outside the
/// root can be reached, even when a folder below it was replaced by a link after the scan.
final class RootedFile: Sendable {
    /// The open descriptor, closed when the file is released.
    let descriptor: Int32
    /// The size at open time.
    let size: Int64
    /// The modification time at open time, for `Last-Modified` and the `ETag`.
    let modificationTime: timespec

    /// Why a file cannot be served.
    struct Failure: Error, CustomStringConvertible {
        var message: String
        /// The system call's error, when one failed.
        var errno: Errno?
        var description: String {
            errno.map { "\(message): \($0)" } ?? message
        }
    }

    /// Opens `relativePath` below `root`.
    /// - Throws: ``Failure`` when a component is unsafe, missing, a link, or not a regular file at the end.
    init(root: String, relativePath: ItemIdentifier) throws(Failure) {
        let components = relativePath.bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        for component in components {
            if component.isEmpty || component.elementsEqual([0x2E]) || component.elementsEqual([0x2E, 0x2E]) {
                throw Failure(message: "not a path below the root")
            }
            if component.contains(0) { throw Failure(message: "not a path below the root") }
        }
        var current = try Self.retrying { open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        for (position, component) in components.enumerated() {
            let isLast = position == components.count - 1
            // O_NONBLOCK: a FIFO put where a file was must not block the open.
            let flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (isLast ? O_NONBLOCK : O_DIRECTORY)
            let next: Int32
            do {
                next = try Self.retrying {
                    (Array(component) + [0]).withUnsafeBufferPointer { name in
                        name.withMemoryRebound(to: CChar.self) { openat(current, $0.baseAddress!, flags) }
                    }
                }
            } catch {
                close(current)
                throw error
            }
            close(current)
            current = next
        }
        var status = stat()
        guard fstat(current, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(current)
            throw Failure(message: "not a regular file")
        }
        descriptor = current
        size = Int64(status.st_size)
        modificationTime = status.st_mtim
    }

    deinit { close(descriptor) }

    /// Reads up to `count` bytes at `offset`. The corresponding C function is `pread(2)`.
    func read(at offset: Int64, count: Int) throws(Failure) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got: Int
            do {
                got = try SystemCall.retryingOnInterrupt {
                    buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled)) }
                }
            } catch {
                throw Failure(message: "cannot read the file", errno: error)
            }
            if got == 0 { break }
            filled += got
        }
        buffer.removeSubrange(filled...)
        return buffer
    }

    private static func retrying(_ call: () -> Int32) throws(Failure) -> Int32 {
        do {
            return try SystemCall.retryingOnInterrupt(call)
        } catch where error == .tooManySymbolicLinkLevels || error == .notDirectory {
            throw Failure(message: "a symbolic link or a non-folder on the way", errno: error)
        } catch {
            throw Failure(message: "cannot open the file", errno: error)
        }
    }
}
