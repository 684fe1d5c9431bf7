#if canImport(Glibc)
import Glibc
#endif
import DocumentExtraction
import SystemCalls
import SystemPackage

/// Runs `call` (``SystemCall/retryingOnInterrupt(_:)``); a failure is `operation`'s.
func systemCall<T: FixedWidthInteger & SignedInteger>(_ operation: String, _ call: () -> T) throws(WorkerError) -> T {
    do {
        return try SystemCall.retryingOnInterrupt(call)
    } catch {
        throw WorkerError(operation, errno: error)
    }
}

/// Reads exactly `count` bytes; nil if input ends before the first byte.
/// The corresponding C function is `read(2)`.
func readExactly(_ descriptor: Int32, count: Int) throws(WorkerError) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
        let result = try systemCall("read") {
            bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, count - filled) }
        }
        if result == 0 {
            if filled == 0 { return nil }
            throw WorkerError("read", errno: .brokenPipe)
        }
        filled += result
    }
    return bytes
}

/// Caps this process's address space. The corresponding C function is `setrlimit(2)`.
func setAddressSpaceLimit(_ bytes: UInt64) throws(WorkerError) {
    var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
    do {
        _ = try SystemCall.checked { setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) }
    } catch {
        throw WorkerError("setrlimit(RLIMIT_AS, \(bytes))", errno: error)
    }
}

/// Writes one line to standard error (without stdio's shared `stderr` global).
func printError(_ text: String) {
    try? WorkerFile.writeAll(2, Array(text.utf8))
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
