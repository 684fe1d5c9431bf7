internal import CShimFileSystem
#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

extension FileDescriptor.OpenOptions {
    /// A terminal opened is not made the process's controlling terminal (`O_NOCTTY`).
    public static var noControllingTerminal: Self { Self(rawValue: O_NOCTTY) }

    /// What every file the indexer reads is opened with: never through a final symbolic link,
    /// never blocking on a FIFO put in a file's place, not inherited by a child, never a
    /// controlling terminal.
    public static var readingSafely: Self { [.noFollow, .nonBlocking, .closeOnExec, .noControllingTerminal] }
}

extension SystemCall {
    /// Calls `body` with `bytes` as a NUL-terminated C string (valid only during the call).
    ///
    /// A NUL among `bytes` ends the string where C reads it, and the kernel would read a
    /// shorter path than the one meant: the wrappers that take a path refuse one first
    /// (`EINVAL`, as ``open(_:in:_:options:permissions:)`` does).
    ///
    /// - Parameters:
    ///   - bytes: The string's bytes, without their NUL.
    ///   - body: Called with the C string.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public static func withCString<T, E: Error>(
        _ bytes: some Collection<UInt8>, _ body: (UnsafePointer<CChar>) throws(E) -> T
    ) throws(E) -> T {
        var terminated = Array(bytes)
        terminated.append(0)
        return try terminated.withUnsafeBufferPointer { buffer throws(E) in
            try buffer.withMemoryRebound(to: CChar.self) { buffer throws(E) in try body(buffer.baseAddress!) }
        }
    }

    /// Calls `body` with `strings` as an array of C strings followed by a null pointer (valid
    /// only during the call), as `execv(3)`, `posix_spawn(3)`, GLib and libseccomp take them.
    public static func withCStrings<T>(_ strings: [String], _ body: (UnsafeBufferPointer<UnsafePointer<CChar>?>) -> T) -> T {
        withCStrings(strings.map { Array($0.utf8) }, body)
    }

    /// ``withCStrings(_:_:)`` of raw bytes (arguments and file names need not be UTF-8); a string
    /// holding a NUL ends there, as C reads it.
    public static func withCStrings<T>(_ strings: [[UInt8]], _ body: (UnsafeBufferPointer<UnsafePointer<CChar>?>) -> T) -> T {
        // One buffer holds them all, one after the other, each ended by its NUL.
        var characters: [CChar] = []
        characters.reserveCapacity(strings.reduce(0) { $0 + $1.count + 1 })
        for string in strings {
            characters.append(contentsOf: string.map { CChar(bitPattern: $0) })
            characters.append(0)
        }
        return characters.withUnsafeBufferPointer { characters in
            // No strings (a search with no results): the null pointer alone.
            guard var start = characters.baseAddress else { return [nil].withUnsafeBufferPointer(body) }
            let pointers: [UnsafePointer<CChar>?] = strings.map { string in
                defer { start += string.count + 1 }
                return start
            } + [nil]
            return pointers.withUnsafeBufferPointer(body)
        }
    }

    /// Opens the file at `path` (absolute, or relative to the working folder).
    /// `permissions` are those of a file `.create` makes. The corresponding C function is `open(2)`.
    ///
    /// - Parameters:
    ///   - path: The path's bytes; a NUL among them is `EINVAL`.
    ///   - mode: Read, write, or both.
    ///   - options: `O_` flags; close-on-exec by default.
    ///   - permissions: The mode of a file the call creates.
    /// - Returns: The new descriptor, which the caller closes.
    /// - Throws: The call's `Errno`; `EINTR` is retried.
    public static func open(
        _ path: some Collection<UInt8>, _ mode: FileDescriptor.AccessMode,
        options: FileDescriptor.OpenOptions = [.closeOnExec], permissions: FilePermissions = [.ownerReadWrite]
    ) throws(Errno) -> Int32 {
        try open(path, in: AT_FDCWD, mode, options: options, permissions: permissions)
    }

    /// Opens the file `name` relative to the open folder `directory` (a name with slashes is a
    /// path below it; its folders on the way are resolved by the kernel, links included: see
    /// ``FolderDescent`` for a path that must stay below). The corresponding C function is `openat(2)`.
    ///
    /// ```swift
    /// let file = try SystemCall.open(Array("notes.txt".utf8), in: folder, .readOnly, options: .readingSafely)
    /// defer { SystemCall.close(file) }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The name (or relative path) below `directory`; a NUL is `EINVAL`.
    ///   - directory: An open folder's descriptor, or `AT_FDCWD`.
    ///   - mode: Read, write, or both.
    ///   - options: `O_` flags; close-on-exec by default.
    ///   - permissions: The mode of a file the call creates.
    /// - Returns: The new descriptor, which the caller closes.
    /// - Throws: The call's `Errno`; `EINTR` is retried.
    public static func open(
        _ name: some Collection<UInt8>, in directory: Int32, _ mode: FileDescriptor.AccessMode,
        options: FileDescriptor.OpenOptions = [.closeOnExec], permissions: FilePermissions = [.ownerReadWrite]
    ) throws(Errno) -> Int32 {
        if name.contains(0) { throw .invalidArgument }
        let flags = mode.rawValue | options.rawValue
        return try withCString(name) { name throws(Errno) in
            try retryingOnInterrupt { openat(directory, name, flags, permissions.rawValue) }
        }
    }

    /// Closes `descriptor`. `EINTR` is not retried: on Linux the descriptor is closed anyway,
    /// and a second close could close a descriptor another thread just opened. The
    /// corresponding C function is `close(2)`.
    public static func close(_ descriptor: Int32) {
        _ = Glibc.close(descriptor)
    }

    /// Reads up to `buffer.count` bytes: how many were read, 0 at the end of the file.
    /// The corresponding C function is `read(2)`.
    ///
    /// - Parameters:
    ///   - descriptor: An open file.
    ///   - buffer: Where the bytes go.
    /// - Returns: The bytes read; 0 at the end. `EAGAIN` on a non-blocking descriptor with
    ///   nothing to read is thrown.
    /// - Throws: The call's `Errno`; `EINTR` is retried.
    public static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retryingOnInterrupt { Glibc.read(descriptor, buffer.baseAddress, buffer.count) }
    }

    /// Reads up to `buffer.count` bytes at `offset`, leaving the file's offset alone.
    /// The corresponding C function is `pread(2)`.
    ///
    /// - Parameters:
    ///   - descriptor: An open file that can seek.
    ///   - buffer: Where the bytes go.
    ///   - offset: Where in the file to read from.
    /// - Returns: The bytes read; 0 at or past the end.
    /// - Throws: The call's `Errno`; `EINTR` is retried.
    public static func read(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64
    ) throws(Errno) -> Int {
        try retryingOnInterrupt { pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// Reads until the end of the file or `limit` bytes, whichever comes first (at `offset`
    /// when given, else from the file's offset). The corresponding C functions are `read(2)`
    /// and `pread(2)`.
    ///
    /// - Parameters:
    ///   - descriptor: An open file.
    ///   - limit: At most this many bytes; read 64 KiB at a time.
    ///   - offset: Where to start, leaving the file's offset alone; `nil`: at the offset,
    ///     which the reads move.
    /// - Returns: The bytes, fewer than `limit` only at the end of the file.
    /// - Throws: The call's `Errno`; `EINTR` is retried.
    public static func readBytes(_ descriptor: Int32, limit: Int, at offset: Int64? = nil) throws(Errno) -> [UInt8] {
        var result: [UInt8] = []
        // A chunk at a time: `limit` is a bound (an ignore file's megabyte), rarely the size.
        var chunk = [UInt8](repeating: 0, count: min(limit, 1 << 16))
        while result.count < limit {
            let wanted = min(chunk.count, limit - result.count)
            let position = offset.map { $0 + Int64(result.count) }
            let count = try chunk.withUnsafeMutableBytes { raw in
                let buffer = UnsafeMutableRawBufferPointer(rebasing: raw[..<wanted])
                return Result { () throws(Errno) in
                    if let position { return try read(descriptor, into: buffer, at: position) }
                    return try read(descriptor, into: buffer)
                }
            }.get()
            if count == 0 { break }
            result += chunk[..<count]
        }
        return result
    }

    /// A second descriptor of the open file `descriptor`, close-on-exec; it shares the file's
    /// offset. The corresponding C function is `fcntl(2)` with `F_DUPFD_CLOEXEC`.
    ///
    /// - Parameter descriptor: An open descriptor.
    /// - Returns: The new descriptor, which the caller closes.
    /// - Throws: The call's `Errno` (`EMFILE` when the process has no descriptor left).
    public static func duplicate(_ descriptor: Int32) throws(Errno) -> Int32 {
        try checked { fcntl(descriptor, F_DUPFD_CLOEXEC, 0) }
    }

    /// Moves the offset of `descriptor` to `offset` bytes from the start of the file.
    /// The corresponding C function is `lseek(2)`.
    ///
    /// - Parameters:
    ///   - descriptor: An open file that can seek.
    ///   - offset: The new offset, from the start.
    /// - Throws: The call's `Errno` (`ESPIPE` on a pipe or socket).
    public static func seek(_ descriptor: Int32, to offset: Int64) throws(Errno) {
        _ = try checked { lseek(descriptor, off_t(offset), SEEK_SET) }
    }

    /// Writes all of `bytes`, again after a short write. The corresponding C function is `write(2)`.
    ///
    /// - Parameters:
    ///   - descriptor: An open file, pipe or socket.
    ///   - bytes: What to write.
    /// - Throws: The call's `Errno`; `EINTR` is retried.
    public static func write(_ descriptor: Int32, _ bytes: some Collection<UInt8>) throws(Errno) {
        let bytes = Array(bytes)
        var written = 0
        while written < bytes.count {
            written += try bytes.withUnsafeBytes { raw in
                Result { () throws(Errno) in
                    try retryingOnInterrupt { Glibc.write(descriptor, raw.baseAddress! + written, raw.count - written) }
                }
            }.get()
        }
    }

    /// Copies what is left of `source` from `offset` to its end onto `target`'s offset, inside
    /// the kernel. The corresponding C function is `sendfile(2)`.
    ///
    /// - Parameters:
    ///   - source: An open file, read from `offset` on (its own offset is left alone).
    ///   - offset: Where to start in `source`.
    ///   - target: Where the bytes go, at its offset.
    /// - Throws: The call's `Errno`; `EINTR` is retried.
    public static func copy(from source: Int32, at offset: Int64 = 0, to target: Int32) throws(Errno) {
        var position = off_t(offset)
        while try retryingOnInterrupt({ sendfile(target, source, &position, 1 << 30) }) > 0 {}
    }

    /// Makes a new file, readable and writable by its owner only, from `template` (a path
    /// ending in `XXXXXX`, which become a unique name): its descriptor and its path.
    /// The corresponding C function is `mkstemp(3)`.
    ///
    /// - Parameter template: A path ending in `XXXXXX`.
    /// - Returns: The open descriptor, which the caller closes, and the file's path.
    /// - Throws: The call's `Errno`.
    public static func makeTemporaryFile(_ template: String) throws(Errno) -> (descriptor: Int32, path: [UInt8]) {
        var name = Array(template.utf8CString)
        let descriptor = try checked { name.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) } }
        return (descriptor, name.dropLast().map { UInt8(bitPattern: $0) })
    }

    /// Replaces the file at `path` with `bytes` at once: they go to a temporary file beside it
    /// (`PATH.PID.tmp`, made with `permissions`), which is then renamed over `path`, so that a
    /// reader sees the old file or the new one, never half of one. The corresponding C
    /// functions are `open(2)`, `write(2)` and `rename(2)`.
    ///
    /// The temporary file is removed when a step fails. The data is not flushed to the disk
    /// (no `fsync`): the rename is atomic for readers, not across a power cut.
    ///
    /// - Parameters:
    ///   - path: The file to replace (or create).
    ///   - bytes: Its new contents.
    ///   - permissions: The new file's mode; owner read and write by default.
    /// - Throws: The `Errno` of the step that failed.
    public static func replaceFile(_ path: String, with bytes: some Collection<UInt8>, permissions: FilePermissions = [.ownerReadWrite]) throws(Errno) {
        let temporary = path + ".\(processID).tmp"
        do {
            let descriptor = try open(temporary.utf8, .writeOnly, options: [.create, .truncate, .closeOnExec], permissions: permissions)
            defer { close(descriptor) }
            try write(descriptor, bytes)
            try rename(temporary, to: path)
        } catch {
            try? unlink(temporary.utf8)
            throw error
        }
    }

    /// Makes the folder `path` and the folders above it that are missing, each with
    /// `permissions` (`mkdir -p`). The corresponding C function is `mkdir(2)`.
    ///
    /// - Parameters:
    ///   - path: The folder, absolute or relative to the working folder.
    ///   - permissions: The mode of each folder made; folders that exist keep theirs.
    /// - Throws: The `Errno` of the first `mkdir` that fails other than with `EEXIST`.
    public static func makeDirectories(_ path: String, permissions: FilePermissions = [.ownerReadWriteExecute]) throws(Errno) {
        var made = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            made += "/" + component
            try makeDirectory(made, permissions: permissions)
        }
    }

    /// Whether `name` exists in the open folder `directory`, without following a final link.
    /// The corresponding C function is `faccessat(2)`.
    public static func exists(_ name: some Collection<UInt8>, in directory: Int32) -> Bool {
        guard !name.contains(0) else { return false }
        return withCString(name) { faccessat(directory, $0, F_OK, AT_SYMLINK_NOFOLLOW) == 0 }
    }

    /// Whether the file at `path` may be run by this process. The corresponding C function is `access(2)`.
    public static func isExecutable(_ path: String) -> Bool {
        access(path, X_OK) == 0
    }

    /// Whether `path` exists (following links). The corresponding C function is `access(2)`.
    public static func exists(_ path: some Collection<UInt8>) -> Bool {
        guard !path.contains(0) else { return false }
        return withCString(path) { access($0, F_OK) == 0 }
    }

    /// The canonical absolute path of `path`: every symbolic link, `.` and `..` resolved.
    /// The corresponding C function is `realpath(3)`.
    ///
    /// - Parameter path: A path, absolute or relative to the working folder.
    /// - Returns: The canonical path.
    /// - Throws: The call's `Errno` (`ENOENT` when a component does not exist).
    public static func resolvedPath(_ path: String) throws(Errno) -> String {
        guard let resolved = realpath(path, nil) else { throw lastError }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Renames `source` to `target`, replacing it atomically. The corresponding C function is `rename(2)`.
    ///
    /// - Parameters:
    ///   - source: The path to rename.
    ///   - target: The new path, on the same file system.
    /// - Throws: The call's `Errno`; `EINTR` is retried.
    public static func rename(_ source: String, to target: String) throws(Errno) {
        _ = try retryingOnInterrupt { Glibc.rename(source, target) }
    }

    /// Removes the file at `path`. The corresponding C function is `unlink(2)`.
    ///
    /// - Parameter path: The file's path; a NUL is `EINVAL`.
    /// - Throws: The call's `Errno`; `EINTR` is retried.
    public static func unlink(_ path: some Collection<UInt8>) throws(Errno) {
        if path.contains(0) { throw .invalidArgument }
        _ = try withCString(path) { path throws(Errno) in try retryingOnInterrupt { Glibc.unlink(path) } }
    }

    /// Makes the folder `path`; nothing when it exists already. The corresponding C function is `mkdir(2)`.
    ///
    /// - Parameters:
    ///   - path: The folder; its parent must exist.
    ///   - permissions: Its mode, less the process's umask.
    /// - Throws: The call's `Errno` other than `EEXIST`; `EINTR` is retried.
    public static func makeDirectory(_ path: String, permissions: FilePermissions = [.ownerReadWriteExecute]) throws(Errno) {
        do {
            _ = try retryingOnInterrupt { mkdir(path, permissions.rawValue) }
        } catch where error == .fileExists {
            return
        }
    }

    /// What `stat(2)` says of the file at `path`, following symbolic links (the file a link
    /// names, as opening `path` would). The corresponding C function is `fstatat(2)`.
    public static func status(followingLinksOf path: String) throws(Errno) -> stat {
        var result = stat()
        _ = try retryingOnInterrupt { fstatat(AT_FDCWD, path, &result, 0) }
        return result
    }

    /// An anonymous file in memory named `name` (as `/proc/self/fd` shows it), close-on-exec,
    /// for bytes a reader reads through a descriptor as it reads a file. The caller closes it.
    /// The corresponding C function is `memfd_create(2)`.
    public static func makeMemoryFile(named name: String) throws(Errno) -> Int32 {
        try checked { cfs_memfd_create(name) }
    }
}
