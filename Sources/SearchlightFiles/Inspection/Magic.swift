import CShimMagic
import SystemCalls
import Synchronization

/// One libmagic handle. Not to be shared between threads: libmagic garbles results when two
/// threads use one handle, so each inspector thread owns its own.
final class Magic {
    private let cookie: magic_t

    /// libmagic's loading of its database is not safe to run on two threads at once.
    private static let openLock = Mutex(())

    /// The most bytes libmagic reads of a file: 1 MiB changed no result on 20 000 files of
    /// `/usr`, and makes a huge or sparse file cost no more than a small one.
    static let maximumBytesRead = 1 << 20

    /// Opens a handle with `flags` (`MAGIC_MIME_TYPE`, or `MAGIC_NONE` for descriptions).
    /// The corresponding C functions are `magic_open(3)` and `magic_load(3)`.
    /// libmagic itself is opened on first use (`CShimMagic`): the commands that inspect no
    /// file start without loading it.
    init(flags: Int32) throws(FileSystemError) {
        if let failure = searchlight_magic_library_error() {
            throw FileSystemError(.inspection, "cannot load libmagic: \(String(cString: failure))")
        }
        let opened: magic_t? = Self.openLock.withLock { _ in
            // No MAGIC_COMPRESS: it forks decompressors. MAGIC_ERROR reports read errors as errors.
            guard let cookie = searchlight_magic_open(flags | MAGIC_ERROR) else { return nil }
            guard searchlight_magic_load(cookie, nil) == 0 else {
                searchlight_magic_close(cookie)
                return nil
            }
            var limit = Self.maximumBytesRead
            searchlight_magic_setparam(cookie, Int32(MAGIC_PARAM_BYTES_MAX), &limit)
            return cookie
        }
        guard let opened else { throw FileSystemError(.inspection, "cannot load the libmagic database") }
        cookie = opened
    }

    deinit { searchlight_magic_close(cookie) }

    /// libmagic's answer for an open file, read from its start.
    /// The corresponding C function is `magic_descriptor(3)`.
    func identify(descriptor: Int32) throws(FileSystemError) -> String {
        try? SystemCall.seek(descriptor, to: 0)
        guard let result = searchlight_magic_descriptor(cookie, descriptor) else {
            let message = searchlight_magic_error(cookie).map { String(cString: $0) } ?? "unknown libmagic error"
            throw FileSystemError(.inspection, message)
        }
        return String(cString: result)
    }
}
