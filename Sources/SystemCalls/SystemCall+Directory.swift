#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

extension SystemCall {
    /// The names in the open folder `directory` (without `.` and `..`), as raw bytes, in the
    /// order the file system gives them; `directory` stays open and its offset is left alone
    /// (the entries are read through a duplicate, rewound first).
    /// The corresponding C functions are `fdopendir(3)` and `readdir(3)`.
    public static func entryNames(of directory: Int32) throws(Errno) -> [[UInt8]] {
        try entries(of: directory).map(\.name)
    }

    /// The entries of the open folder `directory` (without `.` and `..`): each name, as raw
    /// bytes, and whether it may be a folder (its type from `readdir(3)`'s `d_type` is a
    /// folder's, or unknown: some file systems do not tell, and only a `statx` can), in the
    /// order the file system gives them; `directory` stays open and its offset is left alone.
    /// The corresponding C functions are `fdopendir(3)` and `readdir(3)`.
    public static func entries(of directory: Int32) throws(Errno) -> [(name: [UInt8], mayBeFolder: Bool)] {
        let stream = try duplicate(directory)
        guard let handle = fdopendir(stream) else {
            let error = lastError
            close(stream)
            throw error
        }
        defer { closedir(handle) }
        // The duplicate shares its offset with `directory`: start from the beginning.
        rewinddir(handle)
        var entries: [(name: [UInt8], mayBeFolder: Bool)] = []
        while true {
            // readdir(3) tells the end from a failure only through errno.
            errno = 0
            guard let record = readdir(handle) else {
                let code = lastError
                if code.rawValue != 0 { throw code }
                return entries
            }
            let name: [UInt8] = withUnsafeBytes(of: &record.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            let type = record.pointee.d_type
            entries.append((name, type == UInt8(DT_DIR) || type == UInt8(DT_UNKNOWN)))
        }
    }

    /// The names in the folder at `path` (without `.` and `..`), as raw bytes.
    /// The corresponding C functions are `open(2)` and `readdir(3)`.
    public static func entryNames(ofPath path: String) throws(Errno) -> [[UInt8]] {
        let directory = try open(path.utf8, .readOnly, options: [.directory, .closeOnExec])
        defer { close(directory) }
        return try entryNames(of: directory)
    }

    /// Makes a new folder, open to its owner only, from `template` (a path ending in `XXXXXX`,
    /// which become a unique name): its path. The corresponding C function is `mkdtemp(3)`.
    public static func makeTemporaryFolder(_ template: String) throws(Errno) -> String {
        var name = Array(template.utf8CString)
        guard name.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else { throw lastError }
        return String(cString: name)
    }

    /// Removes the folder at `path` and everything below it, never following a symbolic link
    /// (a link is removed, not what it points to). The corresponding C functions are
    /// `openat(2)`, `unlinkat(2)` and `readdir(3)`.
    public static func removeTree(_ path: String) throws(Errno) {
        try removeContents(of: open(Array(path.utf8), .readOnly, options: [.directory, .noFollow, .closeOnExec]))
        _ = try checked { rmdir(path) }
    }

    /// Removes what the open folder `folder` holds, then closes it.
    private static func removeContents(of folder: Int32) throws(Errno) {
        defer { close(folder) }
        for name in try entryNames(of: folder) {
            let removed = try withCString(name) { name in unlinkat(folder, name, 0) }
            if removed == 0 { continue }
            guard lastError == .isDirectory else { throw lastError }
            try removeContents(of: open(name, in: folder, .readOnly, options: [.directory, .noFollow, .closeOnExec]))
            _ = try withCString(name) { name throws(Errno) in try checked { unlinkat(folder, name, AT_REMOVEDIR) } }
        }
    }
}
