import Logging
import Searchlight
import SystemCalls
import SystemPackage

/// Step ① of the write path for a scan (and ② for a window's new folders): the disk as a walk.
///
/// Walks a folder tree depth first, in the byte order of the entries' relative paths.
///
/// The walk follows Docs/Contract.md#what-is-indexed: regular files only are reported; symbolic links are never
/// followed; other mounts are not crossed; FIFOs, sockets and devices are skipped without
/// being opened; hidden names are skipped unless asked for; excluded paths (the index's own
/// files, and what ``ExclusionRules`` leaves out) are never reported nor entered. Names are
/// raw bytes.
///
/// Paths come out sorted as byte strings (`a-b` before `a/c` before `a0`), which lets a caller
/// merge the walk with the index's identifiers in one pass and constant memory. To get that
/// order a directory's entries are sorted with a `/` appended to directory names.
///
/// Memory is bounded by the entries of the directories on the current path, not by the tree;
/// one descriptor is open per level of depth.
///
/// ```swift
/// let root = try RootFolder(path: "/home/alice/Documents")
/// let walker = DirectoryWalker(root: root, options: .init(includeHidden: false))
/// try walker.walk { event in
///     if case .file(let path, let status) = event { print(path.lossyString, status.size) }
/// }
/// ```
///
/// ## Overview
///
/// The walker is the disk's side of a reconcile: ``FolderScanner`` merges its events with the
/// index's identifiers, which come in the same order from
/// ``FileIndexReader/changeStamps(domain:after:before:limit:)``, and a ``FolderWatcher`` walks
/// the folders it has just started to watch (``Options/foldersOnly``). It reports what is on
/// the disk; it neither reads the index nor writes anything.
///
/// Every directory is opened relative to its parent's descriptor (`openat` with `O_NOFOLLOW`),
/// never by an absolute path: a folder renamed or replaced by a link during the walk cannot
/// lead it outside the root. A folder on another device than the root (another mount) is left
/// out without a word; so are entries that vanish between `readdir` and `statx`, and a `start`
/// that does not exist. What exists but cannot be read (`EACCES`, `EIO`) is an
/// ``Event/unreadable(_:_:)`` event, and the walk goes on beside it.
///
/// A walk is synchronous: ``walk(from:_:)`` blocks its thread on one listing (`readdir`) per
/// folder and one `statx` per entry (none for a non-folder when ``Options/foldersOnly``), and
/// calls `body` on that thread. Each directory's entries are read and sorted before the first of them is
/// reported, so a file created during the walk in a folder already listed is not seen: the
/// watcher's events, not the walk, catch it.
///
/// ## Topics
///
/// ### Walking
///
/// - ``init(root:options:)``
/// - ``walk(from:_:)``
/// - ``Event``
///
/// ### Choosing what is reported
///
/// - ``Options``
/// - ``ExclusionRules``
public struct DirectoryWalker {
    /// What the walk meets.
    ///
    /// Events come in the byte order of their paths; a folder's ``directory(_:_:)`` and
    /// ``folderAccess(_:_:)`` come before anything below it.
    public enum Event {
        /// A regular file, with its status.
        case file(ItemIdentifier, FileStatus)
        /// A directory the walk entered (reported before its contents).
        case directory(ItemIdentifier, FileStatus)
        /// An entry the walk could not read: nothing below it is known.
        ///
        /// A scanner keeps what the index holds below it as it is: not being able to look is not
        /// proof that it is gone.
        case unreadable(ItemIdentifier, FileSystemError)
        /// Who may pass through a folder the walk opened, the one it started from included
        /// (reported before its contents; read from the open folder: status and POSIX ACL),
        /// when ``Options/reportsFolderAccess``.
        case folderAccess(ItemIdentifier, FileAccess)
    }

    /// Which entries to report.
    ///
    /// ```swift
    /// var options = DirectoryWalker.Options(includeHidden: true, excluded: [".searchlight.sqlite"])
    /// options.foldersOnly = true
    /// ```
    public struct Options: Sendable {
        /// What the walk leaves out: secrets, hidden names, ignore files, patterns, defaults.
        public var exclusions = ExclusionRules()
        /// Relative paths never reported nor entered (the index's own files).
        ///
        /// Compared whole: a path listed here hides itself and, for a folder, everything below it,
        /// at no cost beyond a set look-up per entry.
        public var excluded: Set<ItemIdentifier> = []
        /// Whether to report who may pass each folder (``Event/folderAccess(_:_:)``): what a
        /// shared index records.
        ///
        /// Costs one read of each folder's POSIX ACL.
        public var reportsFolderAccess = false
        /// Whether to report folders only: a name `readdir` says is no folder costs no `statx`
        /// (the watcher's walk that watches each folder before it is listed).
        public var foldersOnly = false

        /// Report names that start with a dot, and walk such folders (secrets stay out).
        public var includeHidden: Bool {
            get { exclusions.includeHidden }
            set { exclusions.includeHidden = newValue }
        }

        /// The default exclusions, hidden entries in or out, and `excluded` paths left out.
        public init(includeHidden: Bool = false, excluded: Set<ItemIdentifier> = []) {
            self.exclusions.includeHidden = includeHidden
            self.excluded = excluded
        }

        /// `exclusions` as configured, and `excluded` paths (relative to the root) left out.
        public init(exclusions: ExclusionRules, excluded: Set<ItemIdentifier> = []) {
            self.exclusions = exclusions
            self.excluded = excluded
        }
    }

    /// The folder walked, whose device bounds the walk.
    ///
    /// Its descriptor is the walk's anchor: every folder is opened from it, level by level.
    let root: RootFolder
    /// What the walk reports and leaves out.
    let options: Options

    /// A walker of `root`; it opens nothing until a walk starts.
    public init(root: RootFolder, options: Options) {
        self.root = root
        self.options = options
    }

    /// Walks the directory at `start` (relative to the root; empty for the root itself),
    /// calling `body` for each event in byte order of the paths.
    ///
    /// A `start` below the root is first judged as the folders above it would judge it (their
    /// ignore files, the exclusions): an excluded subtree reports nothing. `start` itself is
    /// reported only as ``Event/folderAccess(_:_:)``, never as ``Event/directory(_:_:)``. The
    /// descriptors the walk opens are closed when it returns or throws.
    ///
    /// ```swift
    /// var files = 0
    /// try walker.walk(from: "Projects") { event in
    ///     switch event {
    ///     case .file: files += 1
    ///     case .unreadable(let path, let error): print("cannot read \(path): \(error)")
    ///     case .directory, .folderAccess: break
    ///     }
    /// }
    /// ```
    ///
    /// A walker holds no state between walks: one walker may walk on several threads at once,
    /// each walk calling its `body` on its own thread.
    ///
    /// - Parameters:
    ///   - start: A folder relative to the root; empty (the default) for the root.
    ///   - body: Called with each event; throwing from it ends the walk.
    /// - Throws: What `body` throws; a `start` that cannot be opened is reported as `.unreadable`.
    public func walk(from start: ItemIdentifier = ItemIdentifier(bytes: []), _ body: (Event) throws -> Void) throws {
        var stack: [Level] = []
        defer { for level in stack { SystemCall.close(level.descriptor) } }
        var inherited: [ExclusionRules.FolderRules] = []
        if !start.bytes.isEmpty {
            // A subtree: the folders above it decide whether it is walked at all.
            let (excluded, rules) = options.exclusions.judge(start, isDirectory: true, in: root)
            if excluded || options.excluded.contains(start) { return }
            inherited = rules
        }
        do {
            let descriptor = try root.openDirectory(start)
            do {
                if options.reportsFolderAccess, let status = try? FileStatus.of(descriptor: descriptor, path: start) {
                    try body(.folderAccess(start, status.folderAccess(descriptor: descriptor)))
                }
                stack.append(try Level(descriptor: descriptor, path: start, inherited: inherited, walker: self))
            } catch {
                SystemCall.close(descriptor)
                throw error
            }
        } catch let error as FileSystemError {
            if !error.isNoSuchFile { try body(.unreadable(start, error)) }
            return
        }
        while !stack.isEmpty {
            let top = stack.count - 1
            guard stack[top].next < stack[top].entries.count else {
                SystemCall.close(stack[top].descriptor)
                stack.removeLast()
                continue
            }
            let entry = stack[top].entries[stack[top].next]
            stack[top].next += 1
            let path = stack[top].childPath(entry.name)
            switch entry.outcome {
            case .failure(let error):
                try body(.unreadable(path, error))
            case .success(let status) where status.kind == .regular:
                try body(.file(path, status))
            case .success(let status):
                let parent = stack[top].descriptor
                let opened: Int32
                do {
                    opened = try FileSystemError.attributing("open", path: path) { () throws(Errno) in
                        try SystemCall.open(entry.name, in: parent, .readOnly, options: [.directory, .noFollow, .closeOnExec])
                    }
                } catch {
                    if !error.isNoSuchFile { try body(.unreadable(path, error)) }
                    continue
                }
                try body(.directory(path, status))
                if options.reportsFolderAccess { try body(.folderAccess(path, status.folderAccess(descriptor: opened))) }
                do {
                    stack.append(try Level(descriptor: opened, path: path, inherited: stack[top].folderRules, walker: self))
                } catch let error as FileSystemError {
                    SystemCall.close(opened)
                    try body(.unreadable(path, error))
                }
            }
        }
    }

    /// One directory being walked: its descriptor and its sorted entries.
    ///
    /// Holding all of a directory's entries (names and statuses) is what bounds the walk's memory
    /// by the directories on the current path; a folder of a million files costs a million
    /// entries while it is walked.
    struct Level {
        /// One entry of the directory, kept after the exclusions.
        struct Entry {
            /// The entry's name, as `readdir` gave it.
            var name: [UInt8]
            /// The name, with `/` appended for a folder: sorting by it sorts the paths.
            var sortKey: [UInt8]
            /// The entry's status, or why it could not be read.
            var outcome: Result<FileStatus, FileSystemError>
        }

        /// The directory, open; the walk closes it when it leaves the level.
        let descriptor: Int32
        /// The directory's path relative to the root.
        let path: ItemIdentifier
        /// The entries, sorted by ``Entry/sortKey``.
        var entries: [Entry]
        /// The index of the next entry to report.
        var next = 0
        /// The ignore files of this folder and the folders above it, shallowest first.
        let folderRules: [ExclusionRules.FolderRules]

        /// Reads and sorts the entries of the open directory `descriptor`, leaving out what
        /// the walker's exclusions exclude; takes no ownership of it. `inherited` are the
        /// ignore files of the folders above.
        ///
        /// Costs one listing and a `statx` per entry kept (hidden names and, with
        /// ``Options/foldersOnly``, names `readdir` says are no folders cost none). Symbolic links,
        /// FIFOs, sockets and devices are dropped here, as are folders on another device.
        ///
        /// - Throws: ``FileSystemError`` when the directory cannot be listed.
        init(descriptor: Int32, path: ItemIdentifier, inherited: [ExclusionRules.FolderRules],
             walker: DirectoryWalker) throws {
            self.descriptor = descriptor
            self.path = path
            let listed = try FileSystemError.attributing("readdir", path: path) { () throws(Errno) in
                try SystemCall.entries(of: descriptor)
            }
            let foldersOnly = walker.options.foldersOnly
            let hasIgnoreFile = listed.contains { $0.name.elementsEqual(ExclusionRules.ignoreFileName.utf8) }
            let exclusions = walker.options.exclusions
            var folderRules = inherited
            if hasIgnoreFile && exclusions.readsIgnoreFiles, let rules = ExclusionRules.ignoreFile(in: descriptor) {
                folderRules.append(ExclusionRules.FolderRules(folder: path, rules: rules))
            }
            self.folderRules = folderRules
            var entries: [Entry] = []
            entries.reserveCapacity(listed.count)
            for (name, mayBeFolder) in listed {
                // Hidden names are out before costing a statx (secrets are out either way).
                if name.first == 0x2E && !exclusions.includeHidden { continue }
                if foldersOnly && !mayBeFolder { continue }
                let childPath = Self.childPath(of: path, name)
                if walker.options.excluded.contains(childPath) { continue }
                let outcome: Result<FileStatus, FileSystemError>
                do {
                    let status = try SystemCall.withCString(name) { name throws(FileSystemError) in
                        try FileStatus.of(name, in: descriptor, path: childPath)
                    }
                    switch status.kind {
                    case .regular: break
                    case .directory:
                        // Another file system is mounted here: not ours to walk.
                        if status.device != walker.root.device { continue }
                    case .symbolicLink, .other:
                        continue
                    }
                    let nameStart = childPath.bytes.count - name.count
                    if exclusions.excludes(childPath.bytes[...], nameStart: nameStart, isDirectory: status.kind == .directory,
                                           folderRules: folderRules, parent: descriptor) {
                        continue
                    }
                    outcome = .success(status)
                } catch {
                    // Vanished between readdir and statx: it is simply gone.
                    if error.cause == .noSuchFileOrDirectory { continue }
                    outcome = .failure(error)
                }
                var key = name
                if case .success(let status) = outcome, status.kind == .directory { key.append(0x2F) }
                entries.append(Entry(name: name, sortKey: key, outcome: outcome))
            }
            entries.sort { $0.sortKey.lexicographicallyPrecedes($1.sortKey) }
            self.entries = entries
        }

        /// The relative path of the entry `name` of this directory.
        func childPath(_ name: [UInt8]) -> ItemIdentifier { Self.childPath(of: path, name) }

        /// `path/name`, or `name` below the root.
        static func childPath(of path: ItemIdentifier, _ name: [UInt8]) -> ItemIdentifier {
            path.bytes.isEmpty ? ItemIdentifier(bytes: name) : ItemIdentifier(bytes: path.bytes + [0x2F] + name)
        }
    }
}
