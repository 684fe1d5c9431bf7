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

extension WorkerSystemError {
    /// Runs `call`, a ``SystemCall`` wrapper; its `Errno` becomes `operation`'s failure.
    static func attributing<T>(_ operation: String, _ call: () throws(Errno) -> T) throws(WorkerSystemError) -> T {
        do {
            return try call()
        } catch {
            throw WorkerSystemError(operation: operation, errno: error)
        }
    }
}

/// Reads exactly `count` bytes; nil if input ends before the first byte.
/// The corresponding C function is `read(2)`.
func readExactly(_ descriptor: Int32, count: Int) throws(WorkerSystemError) -> [UInt8]? {
    let bytes = try WorkerSystemError.attributing("read") { () throws(Errno) in
        try SystemCall.readBytes(descriptor, limit: count)
    }
    if bytes.isEmpty && count > 0 { return nil }
    guard bytes.count == count else { throw WorkerSystemError(operation: "read", errno: .brokenPipe) }
    return bytes
}

/// Writes all of `bytes`. The corresponding C function is `write(2)`.
func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(WorkerSystemError) {
    try WorkerSystemError.attributing("write") { () throws(Errno) in try SystemCall.write(descriptor, bytes) }
}

/// Opens a regular file for reading without following a final symbolic link or
/// blocking on a FIFO. The corresponding C functions are `open(2)` and `statx(2)`.
func openRegularFile(_ path: [UInt8]) throws(WorkerSystemError) -> Int32 {
    let descriptor = try WorkerSystemError.attributing("open") { () throws(Errno) in
        try SystemCall.open(path, .readOnly, options: .readingSafely)
    }
    let status: Result<Bool, Errno> = Result { () throws(Errno) in try SystemCall.status(of: descriptor).isRegularFile }
    switch status {
    case .success(true):
        return descriptor
    case .success(false):
        SystemCall.close(descriptor)
        throw WorkerSystemError(operation: "open: not a regular file", errno: .invalidArgument)
    case .failure(let error):
        SystemCall.close(descriptor)
        throw WorkerSystemError(operation: "fstat", errno: error)
    }
}

/// Caps this process's address space. The corresponding C function is `setrlimit(2)`.
func setAddressSpaceLimit(_ bytes: UInt64) throws(WorkerSystemError) {
    try WorkerSystemError.attributing("setrlimit(RLIMIT_AS, \(bytes))") { () throws(Errno) in
        try SystemCall.setLimit(.addressSpace, to: bytes)
    }
}

/// Writes one line to standard error (without stdio's shared `stderr` global).
func printError(_ text: String) {
    try? writeAll(2, Array(text.utf8))
}

/// Sets `RLIMIT_CORE` to 0. The corresponding C function is `setrlimit(2)`.
func disableCoreDumps() {
    try? SystemCall.setLimit(.coreFileSize, to: 0)
}

/// Exits when the indexer that started us dies, even while a decoder is stuck.
///
/// End of input covers a live worker; this covers one that hangs inside a decoder
/// after its parent was killed (`kill -9`). `PR_SET_PDEATHSIG` is not used because
/// it fires when the parent *thread* that spawned us exits, and the pool spawns
/// workers from its callers' threads.
func exitWhenOrphaned() {
    let parent = UnsafeMutableRawPointer(bitPattern: Int(SystemCall.parentProcessID))
    var thread = pthread_t()
    _ = pthread_create(&thread, nil, { argument in
        let parent = pid_t(Int(bitPattern: argument))
        while true {
            SystemCall.sleep(nanoseconds: 1_000_000_000)
            if SystemCall.parentProcessID != parent { _exit(70) }
        }
    }, parent)
    pthread_detach(thread)
}
