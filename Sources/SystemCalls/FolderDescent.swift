#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Goes down from an open folder to a file below it one component at a time, each opened
/// relative to the one before with `O_NOFOLLOW` (`openat(2)`): a symbolic link anywhere on the
/// way fails (`ELOOP`, or `ENOTDIR` for a link to a folder), so nothing outside the starting
/// folder is reached, even when a folder below it was replaced by a link a moment ago.
///
/// The one implementation of "open a path below a root": the web server's file downloads, the
/// exclusion rules reading the ignore files of a path's folders, and the walk of a subtree all
/// go down through it.
///
/// ```swift
/// var descent = FolderDescent(from: root)
/// try descent.enter("Documents")
/// let file = try descent.open("notes.txt", .readOnly)
/// ```
public struct FolderDescent: ~Copyable {
    /// The folder reached so far: the starting folder until ``enter(_:)`` succeeds.
    public private(set) var folder: Int32
    /// Whether ``folder`` is ours to close (not the starting folder, which the caller owns).
    private var owned = false

    /// Starts at the open folder `start`, which stays the caller's to close.
    public init(from start: Int32) {
        folder = start
    }

    deinit {
        if owned { SystemCall.close(folder) }
    }

    /// Goes into the folder `name` of the current folder, never through a symbolic link.
    /// - Throws: `EINVAL` for a name that is empty, `.`, `..`, or holds a `/` or a NUL (it
    ///   would not name an entry below); what `openat(2)` throws: `ENOENT`, `ELOOP` or
    ///   `ENOTDIR` (a link or a file on the way), `EACCES`.
    public mutating func enter(_ name: some Collection<UInt8>) throws(Errno) {
        let next = try open(name, .readOnly, options: [.directory, .closeOnExec])
        if owned { SystemCall.close(folder) }
        folder = next
        owned = true
    }

    /// Opens the entry `name` of the current folder, never through a final symbolic link
    /// (`O_NOFOLLOW` is added to `options`); the descriptor is the caller's to close.
    /// - Throws: as ``enter(_:)``.
    public func open(
        _ name: some Collection<UInt8>, _ mode: FileDescriptor.AccessMode,
        options: FileDescriptor.OpenOptions = [.closeOnExec]
    ) throws(Errno) -> Int32 {
        guard Self.isEntryName(name) else { throw .invalidArgument }
        return try SystemCall.open(name, in: folder, mode, options: options.union(.noFollow))
    }

    /// Whether `name` names an entry of a folder: not empty, not `.` or `..`, without `/` or NUL.
    public static func isEntryName(_ name: some Collection<UInt8>) -> Bool {
        !name.isEmpty && !name.elementsEqual([0x2E]) && !name.elementsEqual([0x2E, 0x2E])
            && !name.contains(0x2F) && !name.contains(0)
    }

    /// The components of a relative path (`a/b/c` gives `a`, `b`, `c`); empty components
    /// stay, so that ``enter(_:)`` refuses an absolute path or a doubled slash.
    public static func components(of path: some Collection<UInt8>) -> [ArraySlice<UInt8>] {
        Array(path).split(separator: 0x2F, omittingEmptySubsequences: false)
    }
}

extension SystemCall {
    /// Opens `path` below the open folder `root`, one component at a time (``FolderDescent``):
    /// its folders, then its last component with `mode` and `options` (plus `O_NOFOLLOW`).
    /// An empty path opens `root` itself again (a description of its own, offset included).
    /// The corresponding C function is `openat(2)`.
    public static func open(
        below root: Int32, _ path: some Collection<UInt8>, _ mode: FileDescriptor.AccessMode,
        options: FileDescriptor.OpenOptions = [.closeOnExec]
    ) throws(Errno) -> Int32 {
        if path.isEmpty { return try open([0x2E], in: root, mode, options: options) }
        var components = FolderDescent.components(of: path)
        let last = components.removeLast()
        var descent = FolderDescent(from: root)
        for component in components { try descent.enter(component) }
        return try descent.open(last, mode, options: options)
    }
}
