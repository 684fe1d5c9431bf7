import Foundation
import Searchlight
import SystemCalls
import Synchronization
import SystemPackage

/// A folder being indexed: its canonical path and its device, and a descriptor of it while
/// it is worked on.
///
/// Every file below it is opened relative to its descriptor (`openat(2)`), so that the walk
/// and the inspectors never resolve the root's path again. The descriptor is open only while
/// someone works below the root (``holdingOpen(_:)``, ``withDescriptor(_:)``): a watch holds
/// none between its windows, so that the drive the root lives on can be unmounted at once
/// (Docs/Contract.md#drives-and-mounts). Opened again, it must be the same filesystem: a
/// folder of another device at the root's path (the empty mount point of an unmounted drive)
/// is never taken for the root.
///
/// ```swift
/// let root = try RootFolder(path: "/home/alice/Documents")
/// let status = try root.status(of: "notes/todo.txt")           // statx relative to the root
/// root.relativePath(of: "/home/alice/Documents/notes/todo.txt")  // "notes/todo.txt"
/// ```
///
/// ## Overview
///
/// One `RootFolder` is shared by everything that works below one indexed folder: the
/// ``DirectoryWalker``, the inspectors and extraction workers of a ``FolderScanner``, the
/// ``FolderWatcher``, and the commands that open an indexed file. Its items' identifiers are
/// paths relative to it (``relativePath(of:)``, ``absolutePath(of:)``).
///
/// The class is `Sendable`: its path, device and descriptor sit behind one `Mutex`, and any
/// number of threads may use the descriptor at once. The descriptor is counted: each
/// ``withDescriptor(_:)`` call and each ``holdingOpen(_:)`` span keeps it open, and the last
/// one to end closes it. Opening it again costs an `open` and an `fstat` of the root.
///
/// A root whose drive is not mounted is made with ``init(offline:)`` and moved with
/// ``relocate(to:)`` once the drive is back, perhaps at another mount point. Until then
/// opening it fails (`ENODEV` when a folder of another device stands at its path, the empty
/// mount point; `ENOENT` when nothing does), and ``withDescriptor(_:)`` hands its body -1.
///
/// ## Topics
///
/// ### Opening
///
/// - ``init(path:)``
/// - ``init(offline:)``
/// - ``relocate(to:)``
/// - ``path``
/// - ``device``
///
/// ### Working below the root
///
/// - ``holdingOpen(_:)``
/// - ``withDescriptor(_:)``
/// - ``isOpen``
/// - ``status(of:)``
/// - ``folderAccess(_:)``
/// - ``accessAbove()``
///
/// ### Paths
///
/// - ``relativePath(of:)``
/// - ``absolutePath(of:)``
public final class RootFolder: Sendable {
    /// What the lock guards: where the root is, and its descriptor with who holds it.
    private struct Handle {
        /// The canonical absolute path.
        var path: String
        /// The device the root's folder was on when looked at: 0 for an offline root.
        var device: UInt64
        /// The open descriptor, or -1 while nobody works below the root.
        var descriptor: Int32 = -1
        /// Calls using the descriptor now.
        var users = 0
        /// Spans of work that keep it open between calls.
        var holds = 0
    }

    /// The root's state, behind its lock.
    private let handle: Mutex<Handle>

    /// The canonical absolute path (symbolic links resolved).
    public var path: String { handle.withLock { $0.path } }
    /// The device of the root: the walk does not cross into other mounts.
    public var device: UInt64 { handle.withLock { $0.device } }

    /// Opens `path` as a root (and closes it: it is opened again when worked on).
    ///
    /// The path is made canonical (`realpath(3)`: symbolic links resolved), so that a root
    /// named through a link and the same root named directly are one domain.
    ///
    /// - Parameter path: A folder, absolute or relative to the current directory.
    /// - Throws: ``FileSystemError`` when it does not exist, is not a directory, or cannot be read.
    public init(path: String) throws(FileSystemError) {
        let (canonical, device) = try Self.look(at: path)
        handle = Mutex(Handle(path: canonical, device: device))
    }

    /// A root whose folder cannot be opened now because its drive is not mounted: it is
    /// opened once the drive is back (``relocate(to:)``).
    ///
    /// Nothing is checked: `path` is kept as given, and the device is 0, which no mounted
    /// folder has, so ``holdingOpen(_:)`` fails until the root is relocated.
    ///
    /// - Parameter path: Where the root was last seen, as the index recorded it.
    public init(offline path: String) {
        handle = Mutex(Handle(path: path, device: 0))
    }

    /// Closes the root's descriptor, when one is open (an offline root has none).
    deinit {
        let descriptor = handle.withLock { $0.descriptor }
        if descriptor >= 0 { SystemCall.close(descriptor) }
    }

    /// The canonical path and device of the folder at `path`.
    private static func look(at path: String) throws(FileSystemError) -> (String, UInt64) {
        let given = ItemIdentifier(path)
        let canonical = try FileSystemError.attributing("realpath", path: given) { () throws(Errno) in
            try SystemCall.resolvedPath(path)
        }
        let descriptor = try FileSystemError.attributing("open", path: given) { () throws(Errno) in
            try SystemCall.open(canonical.utf8, .readOnly, options: [.directory, .closeOnExec])
        }
        defer { SystemCall.close(descriptor) }
        let device = try FileStatus.of(descriptor: descriptor, path: given).device
        FileStatus.noteInodeStability(of: descriptor, device: device)
        return (canonical, device)
    }

    /// Moves the root to `path`, where its drive is mounted now (or mounted again, with
    /// another device number); nothing may be working below it.
    ///
    /// An open descriptor that nobody uses is closed; one that is in use stays open until its
    /// users are done.
    ///
    /// ```swift
    /// let root = RootFolder(offline: "/media/ada/photos")
    /// // the drive is mounted again, elsewhere
    /// try root.relocate(to: "/run/media/ada/photos")
    /// ```
    ///
    /// - Parameter path: Where the drive's folder is now.
    /// - Throws: ``FileSystemError`` when the folder cannot be opened.
    public func relocate(to path: String) throws(FileSystemError) {
        let (canonical, device) = try Self.look(at: path)
        handle.withLock { handle in
            if handle.descriptor >= 0 && handle.users == 0 && handle.holds == 0 {
                SystemCall.close(handle.descriptor)
                handle.descriptor = -1
            }
            handle.path = canonical
            handle.device = device
        }
    }

    /// Keeps the root's descriptor open while `body` runs: a scan, a watch's window.
    ///
    /// The root is opened (or checked to be open) before `body` runs, so a drive that was
    /// unmounted fails the work here, before anything is read or written.
    ///
    /// ```swift
    /// let summary = try root.holdingOpen { try scanner.reconcile() }
    /// ```
    ///
    /// - Parameter body: The work below the root.
    /// - Returns: What `body` returns.
    /// - Throws: ``FileSystemError`` when the root cannot be opened, or its folder is on
    ///   another device now (`ENODEV`: its drive was unmounted); else what `body` throws.
    public func holdingOpen<T>(_ body: () throws -> T) throws -> T {
        try handle.withLock { handle throws(FileSystemError) in
            if handle.descriptor < 0 { handle.descriptor = try Self.reopen(handle) }
            handle.holds += 1
        }
        defer { release { $0.holds -= 1 } }
        return try body()
    }

    /// Runs `body` with the root's descriptor, opened for the call when no work holds it
    /// open; `-1` when it cannot be opened (the call then fails with `EBADF`).
    ///
    /// For one system call relative to the root (`statx`, `openat`): the descriptor is valid
    /// only inside `body`, and is closed after it unless other work holds it.
    ///
    /// - Parameter body: Called with the root's descriptor, or -1.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func withDescriptor<T, E: Error>(_ body: (Int32) throws(E) -> T) throws(E) -> T {
        let descriptor = handle.withLock { handle in
            if handle.descriptor < 0 { handle.descriptor = (try? Self.reopen(handle)) ?? -1 }
            if handle.descriptor >= 0 { handle.users += 1 }
            return handle.descriptor
        }
        guard descriptor >= 0 else { return try body(-1) }
        defer { release { $0.users -= 1 } }
        return try body(descriptor)
    }

    /// Whether a descriptor of the root is open now.
    public var isOpen: Bool { handle.withLock { $0.descriptor >= 0 } }

    /// Applies `change` (a user or a hold ending), and closes the descriptor when it was the last.
    private func release(_ change: (inout Handle) -> Void) {
        handle.withLock { handle in
            change(&handle)
            if handle.users == 0 && handle.holds == 0 && handle.descriptor >= 0 {
                SystemCall.close(handle.descriptor)
                handle.descriptor = -1
            }
        }
    }

    /// Opens the root's folder again, refusing one on another device.
    private static func reopen(_ handle: Handle) throws(FileSystemError) -> Int32 {
        let path = ItemIdentifier(handle.path)
        let descriptor = try FileSystemError.attributing("open", path: path) { () throws(Errno) in
            try SystemCall.open(handle.path.utf8, .readOnly, options: [.directory, .closeOnExec])
        }
        let device: UInt64
        do {
            device = try FileStatus.of(descriptor: descriptor, path: path).device
        } catch {
            SystemCall.close(descriptor)
            throw error
        }
        guard device == handle.device else {
            SystemCall.close(descriptor)
            throw FileSystemError("open", path: path, errno: Errno(rawValue: ENODEV))
        }
        return descriptor
    }

    /// Opens the directory at `relativePath` (the root itself when empty), one component at a
    /// time, never through a symbolic link (``SystemCall/open(below:_:_:options:)``).
    /// For the root itself, not dup(2): a duplicate shares the directory offset, so a second
    /// walk would start where the first one ended; "." opens a description of its own.
    func openDirectory(_ relativePath: ItemIdentifier) throws(FileSystemError) -> Int32 {
        try withDescriptor { descriptor throws(FileSystemError) in
            try FileSystemError.attributing("open", path: relativePath) { () throws(Errno) in
                try SystemCall.open(below: descriptor, relativePath.bytes, .readOnly, options: [.directory, .closeOnExec])
            }
        }
    }

    /// Who may pass through the folder at `relativePath` below the root (empty: the root):
    /// its status and POSIX ACL, read from the open folder.
    ///
    /// What a shared index records for each folder, so that a person sees only the items
    /// below folders they may pass.
    ///
    /// - Parameter relativePath: The folder, relative to the root.
    /// - Returns: The owner, group, mode and ACL entries that decide who may pass.
    /// - Throws: ``FileSystemError`` when the folder cannot be opened or its status read.
    public func folderAccess(_ relativePath: ItemIdentifier) throws(FileSystemError) -> FileAccess {
        let folder = try openDirectory(relativePath)
        defer { SystemCall.close(folder) }
        return try FileStatus.of(descriptor: folder, path: relativePath).folderAccess(descriptor: folder)
    }

    /// Who may pass through each folder above the root, from `/` down to the root's parent,
    /// by absolute path; a folder that cannot be looked at is left out.
    ///
    /// - Returns: Each folder above the root, shallowest first, with who may pass it.
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
    /// following a final symbolic link (`statx(2)` relative to the root's descriptor).
    ///
    /// ```swift
    /// let status = try root.status(of: "notes/todo.txt")
    /// print(status.size, status.kind == .regular)
    /// ```
    ///
    /// - Parameter relativePath: The entry, relative to the root; empty for the root.
    /// - Returns: The entry's status.
    /// - Throws: ``FileSystemError`` with the path and `statx`'s `Errno`.
    public func status(of relativePath: ItemIdentifier) throws(FileSystemError) -> FileStatus {
        try withDescriptor { descriptor throws(FileSystemError) in
            try SystemCall.withCString(relativePath.bytes) { name throws(FileSystemError) in
                try FileStatus.of(name, in: descriptor, path: relativePath)
            }
        }
    }

    /// The absolute path of a relative path below the root, as bytes.
    ///
    /// Bytes, not a string: an identifier need not be valid UTF-8. The root's current path is
    /// used, so the answer changes after ``relocate(to:)``.
    ///
    /// - Parameter relativePath: A path relative to the root; empty for the root itself.
    /// - Returns: The root's path, `/`, and the relative path.
    public func absolutePath(of relativePath: ItemIdentifier) -> [UInt8] {
        let path = self.path
        return relativePath.bytes.isEmpty ? Array(path.utf8) : Array(path.utf8) + [0x2F] + relativePath.bytes
    }

    /// The path of `absolutePath` relative to this root, when it lies strictly below it.
    ///
    /// A comparison of strings: `absolutePath` must be spelled as the root's canonical path
    /// is (no `..`, no link on its way); nothing on the disk is looked at.
    ///
    /// - Parameter absolutePath: An absolute path.
    /// - Returns: The relative path, or `nil` for the root itself or a path outside it.
    public func relativePath(of absolutePath: String) -> ItemIdentifier? {
        let path = self.path
        let prefix = path.hasSuffix("/") ? path : path + "/"
        guard absolutePath.hasPrefix(prefix), absolutePath.count > prefix.count else { return nil }
        return ItemIdentifier(String(absolutePath.dropFirst(prefix.count)))
    }
}
