import Glibc
import Logging
import Searchlight

/// Walks a folder tree depth first, in the byte order of the entries' relative paths.
///
/// The walk follows SPEC §2: regular files only are reported; symbolic links are never
/// followed; other mounts are not crossed; FIFOs, sockets and devices are skipped without
/// being opened; hidden names are skipped unless asked for; excluded paths (the index's own
/// files) are never reported. Names are raw bytes.
///
/// Paths come out sorted as byte strings (`a-b` before `a/c` before `a0`), which lets a caller
/// merge the walk with the index's identifiers in one pass and constant memory. To get that
/// order a directory's entries are sorted with a `/` appended to directory names.
///
/// Memory is bounded by the entries of the directories on the current path, not by the tree;
/// one descriptor is open per level of depth.
public struct DirectoryWalker {
    /// What the walk meets.
    public enum Event {
        /// A regular file, with its status.
        case file(ItemIdentifier, FileStatus)
        /// A directory the walk entered (reported before its contents).
        case directory(ItemIdentifier, FileStatus)
        /// An entry the walk could not read: nothing below it is known.
        case unreadable(ItemIdentifier, FileSystemError)
    }

    /// Which entries to report.
    public struct Options: Sendable {
        /// Report names that start with a dot, and walk such folders.
        public var includeHidden = false
        /// Relative paths never reported nor entered (the index's own files).
        public var excluded: Set<ItemIdentifier> = []

        public init(includeHidden: Bool = false, excluded: Set<ItemIdentifier> = []) {
            self.includeHidden = includeHidden
            self.excluded = excluded
        }
    }

    let root: RootFolder
    let options: Options

    public init(root: RootFolder, options: Options) {
        self.root = root
        self.options = options
    }

    /// Walks the directory at `start` (relative to the root; empty for the root itself),
    /// calling `body` for each event in byte order of the paths.
    ///
    /// - Throws: What `body` throws; a `start` that cannot be opened is reported as `.unreadable`.
    public func walk(from start: ItemIdentifier = ItemIdentifier(bytes: []), _ body: (Event) throws -> Void) throws {
        var stack: [Level] = []
        defer { for level in stack { close(level.descriptor) } }
        do {
            let descriptor = try root.openDirectory(start)
            stack.append(try Level(descriptor: descriptor, path: start, walker: self))
        } catch let error as FileSystemError {
            if error.errno != ENOENT && error.errno != ENOTDIR { try body(.unreadable(start, error)) }
            return
        }
        while !stack.isEmpty {
            let top = stack.count - 1
            guard stack[top].next < stack[top].entries.count else {
                close(stack[top].descriptor)
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
                let opened = Level.withCString(entry.name) { name in
                    openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                }
                if opened < 0 {
                    let error = FileSystemError("open", path: path, errno: errno)
                    if error.errno != ENOENT && error.errno != ENOTDIR { try body(.unreadable(path, error)) }
                    continue
                }
                try body(.directory(path, status))
                do {
                    stack.append(try Level(descriptor: opened, path: path, walker: self))
                } catch let error as FileSystemError {
                    close(opened)
                    try body(.unreadable(path, error))
                }
            }
        }
    }

    /// One directory being walked: its descriptor and its sorted entries.
    struct Level {
        struct Entry {
            var name: [UInt8]
            var sortKey: [UInt8]
            var outcome: Result<FileStatus, FileSystemError>
        }

        let descriptor: Int32
        let path: ItemIdentifier
        var entries: [Entry]
        var next = 0

        /// Reads and sorts the entries of the open directory `descriptor`; takes no ownership of it.
        init(descriptor: Int32, path: ItemIdentifier, walker: DirectoryWalker) throws {
            self.descriptor = descriptor
            self.path = path
            let stream = dup(descriptor)
            guard stream >= 0, let directory = fdopendir(stream) else {
                let error = FileSystemError("opendir", path: path, errno: errno)
                if stream >= 0 { close(stream) }
                throw error
            }
            defer { closedir(directory) }
            // The duplicate shares its offset with `descriptor`: start from the beginning.
            rewinddir(directory)
            var entries: [Entry] = []
            while true {
                errno = 0
                guard let record = readdir(directory) else {
                    if errno != 0 { throw FileSystemError("readdir", path: path, errno: errno) }
                    break
                }
                let name: [UInt8] = withUnsafeBytes(of: &record.pointee.d_name) { raw in
                    Array(raw.prefix { $0 != 0 })
                }
                if name == [0x2E] || name == [0x2E, 0x2E] { continue }
                if name.first == 0x2E && !walker.options.includeHidden { continue }
                let childPath = Self.childPath(of: path, name)
                if walker.options.excluded.contains(childPath) { continue }
                let outcome: Result<FileStatus, FileSystemError>
                do {
                    let status = try Self.withCString(name) { name throws(FileSystemError) in
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
                    outcome = .success(status)
                } catch {
                    // Vanished between readdir and statx: it is simply gone.
                    if error.errno == ENOENT { continue }
                    outcome = .failure(error)
                }
                var key = name
                if case .success(let status) = outcome, status.kind == .directory { key.append(0x2F) }
                entries.append(Entry(name: name, sortKey: key, outcome: outcome))
            }
            entries.sort { $0.sortKey.lexicographicallyPrecedes($1.sortKey) }
            self.entries = entries
        }

        func childPath(_ name: [UInt8]) -> ItemIdentifier { Self.childPath(of: path, name) }

        static func childPath(of path: ItemIdentifier, _ name: [UInt8]) -> ItemIdentifier {
            path.bytes.isEmpty ? ItemIdentifier(bytes: name) : ItemIdentifier(bytes: path.bytes + [0x2F] + name)
        }

        /// Calls `body` with `bytes` as a NUL-terminated C string.
        static func withCString<T, E: Error>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) throws(E) -> T) throws(E) -> T {
            var terminated = bytes
            terminated.append(0)
            return try terminated.withUnsafeBufferPointer { buffer throws(E) in
                try buffer.withMemoryRebound(to: CChar.self) { buffer throws(E) in try body(buffer.baseAddress!) }
            }
        }
    }
}
