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
    /// The modification time at open time (seconds and nanoseconds since 1970), for
    /// `Last-Modified` and the `ETag`.
    let modificationTime: (seconds: Int64, nanoseconds: UInt32)

    /// Why a file cannot be served.
    struct Failure: Error, CustomStringConvertible {
        var message: String
        /// The system call's error, when one failed.
        var errno: Errno?
        var description: String {
            errno.map { "\(message): \($0)" } ?? message
        }
    }

    /// Opens `relativePath` below `root`, one component at a time (``FolderDescent``).
    /// - Throws: ``Failure`` when a component is unsafe, missing, a link, or not a regular file at the end.
    init(root: String, relativePath: ItemIdentifier) throws(Failure) {
        guard !relativePath.bytes.isEmpty else { throw Failure(message: "not a path below the root") }
        let opened: Int32
        do {
            let rootFolder = try SystemCall.open(root.utf8, .readOnly, options: [.directory, .closeOnExec])
            defer { SystemCall.close(rootFolder) }
            // O_NONBLOCK: a FIFO put where a file was must not block the open.
            opened = try SystemCall.open(below: rootFolder, relativePath.bytes, .readOnly, options: [.nonBlocking, .closeOnExec])
        } catch where error == .invalidArgument {
            throw Failure(message: "not a path below the root")
        } catch where error == .tooManySymbolicLinkLevels || error == .notDirectory {
            throw Failure(message: "a symbolic link or a non-folder on the way", errno: error)
        } catch {
            throw Failure(message: "cannot open the file", errno: error)
        }
        guard let status = try? SystemCall.status(of: opened), status.isRegularFile else {
            SystemCall.close(opened)
            throw Failure(message: "not a regular file")
        }
        descriptor = opened
        size = Int64(status.size)
        modificationTime = (status.modificationSeconds, status.modificationNanoseconds)
    }

    deinit { SystemCall.close(descriptor) }

    /// Reads up to `count` bytes at `offset`. The corresponding C function is `pread(2)`.
    func read(at offset: Int64, count: Int) throws(Failure) -> [UInt8] {
        do {
            return try SystemCall.readBytes(descriptor, limit: count, at: offset)
        } catch {
            throw Failure(message: "cannot read the file", errno: error)
        }
    }
}
