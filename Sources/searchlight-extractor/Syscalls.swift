#if canImport(Glibc)
import Glibc
#endif

/// A failed system call in the worker, with its errno.
struct WorkerSystemError: Error, CustomStringConvertible {
    var operation: String
    var errno: Int32

    var description: String { "\(operation): \(String(cString: strerror(errno)))" }
}

/// Reads exactly `count` bytes; nil if input ends before the first byte.
/// The corresponding C function is `read(2)`.
func readExactly(_ descriptor: Int32, count: Int) throws(WorkerSystemError) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
        let result = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, count - filled) }
        if result < 0 {
            let code = errno
            if code == EINTR { continue }
            throw WorkerSystemError(operation: "read", errno: code)
        }
        if result == 0 {
            if filled == 0 { return nil }
            throw WorkerSystemError(operation: "read", errno: EPIPE)
        }
        filled += result
    }
    return bytes
}

/// Writes all of `bytes`. The corresponding C function is `write(2)`.
func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(WorkerSystemError) {
    var written = 0
    while written < bytes.count {
        let result = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, bytes.count - written) }
        if result < 0 {
            let code = errno
            if code == EINTR { continue }
            throw WorkerSystemError(operation: "write", errno: code)
        }
        written += result
    }
}

/// Opens a regular file for reading without following a final symbolic link or
/// blocking on a FIFO. The corresponding C functions are `open(2)` and `fstat(2)`.
func openRegularFile(_ path: [UInt8]) throws(WorkerSystemError) -> Int32 {
    var descriptor: Int32 = -1
    repeat {
        descriptor = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW) }
        }
    } while descriptor < 0 && errno == EINTR
    if descriptor < 0 { throw WorkerSystemError(operation: "open", errno: errno) }
    var status = stat()
    if fstat(descriptor, &status) != 0 {
        let code = errno
        close(descriptor)
        throw WorkerSystemError(operation: "fstat", errno: code)
    }
    guard (status.st_mode & S_IFMT) == S_IFREG else {
        close(descriptor)
        throw WorkerSystemError(operation: "open: not a regular file", errno: EINVAL)
    }
    return descriptor
}

/// Caps this process's address space. The corresponding C function is `setrlimit(2)`.
func setAddressSpaceLimit(_ bytes: UInt64) throws(WorkerSystemError) {
    var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
    if setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) != 0 {
        throw WorkerSystemError(operation: "setrlimit(RLIMIT_AS, \(bytes))", errno: errno)
    }
}

/// Writes one line to standard error (without stdio's shared `stderr` global).
func printError(_ text: String) {
    try? writeAll(2, Array(text.utf8))
}

/// Sets `RLIMIT_CORE` to 0. The corresponding C function is `setrlimit(2)`.
func disableCoreDumps() {
    var limit = rlimit(rlim_cur: 0, rlim_max: 0)
    _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &limit)
}

/// Exits when the indexer that started us dies, even while a decoder is stuck.
///
/// End of input covers a live worker; this covers one that hangs inside a decoder
/// after its parent was killed (`kill -9`). `PR_SET_PDEATHSIG` is not used because
/// it fires when the parent *thread* that spawned us exits, and the pool spawns
/// workers from its callers' threads.
func exitWhenOrphaned() {
    let parent = UnsafeMutableRawPointer(bitPattern: Int(getppid()))
    var thread = pthread_t()
    _ = pthread_create(&thread, nil, { argument in
        let parent = pid_t(Int(bitPattern: argument))
        while true {
            sleep(1)
            if getppid() != parent { _exit(70) }
        }
    }, parent)
    pthread_detach(thread)
}
