import DocumentExtraction
import SystemCalls
import SystemPackage

/// Reads exactly `count` bytes; nil if input ends before the first byte.
/// The corresponding C function is `read(2)`.
func readExactly(_ descriptor: Int32, count: Int) throws(WorkerError) -> [UInt8]? {
    let bytes: [UInt8]
    do {
        bytes = try SystemCall.readBytes(descriptor, limit: count)
    } catch {
        throw WorkerError("read", errno: error)
    }
    if bytes.isEmpty && count > 0 { return nil }
    guard bytes.count == count else { throw WorkerError("read", errno: .brokenPipe) }
    return bytes
}

/// Reads exactly `count` bytes from the socket `socket` and the descriptor that came with
/// them, if any (a request's file); nil if input ends before the first byte.
/// The corresponding C function is `recvmsg(2)`.
func receiveExactly(_ socket: Int32, count: Int) throws(WorkerError) -> (bytes: [UInt8], descriptor: Int32?)? {
    var bytes = [UInt8](repeating: 0, count: count)
    var received = 0
    var descriptor: Int32?
    while received < count {
        let (length, passed): (Int, Int32?)
        do {
            (length, passed) = try bytes.withUnsafeMutableBytes { raw in
                Result { () throws(Errno) in
                    try SystemCall.receiveWithDescriptor(socket, into: UnsafeMutableRawBufferPointer(rebasing: raw[received...]))
                }
            }.get()
        } catch {
            if let descriptor { SystemCall.close(descriptor) }
            throw WorkerError("recvmsg", errno: error)
        }
        if let passed {
            if let descriptor { SystemCall.close(descriptor) }
            descriptor = passed
        }
        if length == 0 {
            if let descriptor { SystemCall.close(descriptor) }
            if received == 0 { return nil }
            throw WorkerError("recvmsg", errno: .brokenPipe)
        }
        received += length
    }
    return (bytes, descriptor)
}

/// Caps this process's address space. The corresponding C function is `setrlimit(2)`.
func setAddressSpaceLimit(_ bytes: UInt64) throws(WorkerError) {
    do {
        try SystemCall.setLimit(.addressSpace, to: bytes)
    } catch {
        throw WorkerError("setrlimit(RLIMIT_AS, \(bytes))", errno: error)
    }
}

/// Writes one line to standard error (without stdio's shared `stderr` global).
func printError(_ text: String) {
    try? SystemCall.write(2, text.utf8)
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
    let parent = SystemCall.parentProcessID
    try? SystemCall.startDetachedThread {
        while true {
            SystemCall.sleep(nanoseconds: 1_000_000_000)
            if SystemCall.parentProcessID != parent { SystemCall.exitImmediately(70) }
        }
    }
}
