#if canImport(Glibc)
import Glibc
#endif
import SystemCalls
import SystemPackage

/// A failed system call in the worker, with its errno.
struct WorkerSystemError: Error, CustomStringConvertible {
    var operation: String
    var errno: Errno

    var description: String { "\(operation): \(errno)" }
}

/// Runs `call` (``SystemCall/retryingOnInterrupt(_:)``); a failure is `operation`'s.
func systemCall<T: FixedWidthInteger & SignedInteger>(_ operation: String, _ call: () -> T) throws(WorkerSystemError) -> T {
    do {
        return try SystemCall.retryingOnInterrupt(call)
    } catch {
        throw WorkerSystemError(operation: operation, errno: error)
    }
}

/// Reads exactly `count` bytes; nil if input ends before the first byte.
/// The corresponding C function is `read(2)`.
func readExactly(_ descriptor: Int32, count: Int) throws(WorkerSystemError) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
        let result = try systemCall("read") {
            bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, count - filled) }
        }
        if result == 0 {
            if filled == 0 { return nil }
            throw WorkerSystemError(operation: "read", errno: .brokenPipe)
        }
        filled += result
    }
    return bytes
}

/// Writes all of `bytes`. The corresponding C function is `write(2)`.
func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(WorkerSystemError) {
    var written = 0
    while written < bytes.count {
        written += try systemCall("write") {
            bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, bytes.count - written) }
        }
    }
}

/// Opens a regular file for reading without following a final symbolic link or
/// blocking on a FIFO. The corresponding C functions are `open(2)` and `fstat(2)`.
func openRegularFile(_ path: [UInt8]) throws(WorkerSystemError) -> Int32 {
    let descriptor = try systemCall("open") {
        (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW) }
        }
    }
    var status = stat()
    do {
        _ = try SystemCall.checked { fstat(descriptor, &status) }
    } catch {
        close(descriptor)
        throw WorkerSystemError(operation: "fstat", errno: error)
    }
    guard (status.st_mode & S_IFMT) == S_IFREG else {
        close(descriptor)
        throw WorkerSystemError(operation: "open: not a regular file", errno: .invalidArgument)
    }
    return descriptor
}

/// Caps this process's address space. The corresponding C function is `setrlimit(2)`.
func setAddressSpaceLimit(_ bytes: UInt64) throws(WorkerSystemError) {
    var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
    do {
        _ = try SystemCall.checked { setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) }
    } catch {
        throw WorkerSystemError(operation: "setrlimit(RLIMIT_AS, \(bytes))", errno: error)
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
