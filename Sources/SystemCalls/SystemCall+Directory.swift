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
        let stream = try duplicate(directory)
        guard let handle = fdopendir(stream) else {
            let error = lastError
            close(stream)
            throw error
        }
        defer { closedir(handle) }
        // The duplicate shares its offset with `directory`: start from the beginning.
        rewinddir(handle)
        var names: [[UInt8]] = []
        while true {
            // readdir(3) tells the end from a failure only through errno.
            errno = 0
            guard let record = readdir(handle) else {
                let code = lastError
                if code.rawValue != 0 { throw code }
                return names
            }
            let name: [UInt8] = withUnsafeBytes(of: &record.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            names.append(name)
        }
    }
}
