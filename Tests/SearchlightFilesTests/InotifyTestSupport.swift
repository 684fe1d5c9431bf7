#if canImport(Glibc)
import Glibc
#endif
import SearchlightFiles
import Synchronization
import SystemPackage
import SearchlightTestSupport
import Testing

/// A fresh directory in the test process's scratch folder (``TestScratch``), deleted with its
/// contents by ``remove()``, or with the folder when the process exits. Paths are raw bytes
/// so that tests can use names that are not UTF-8.
struct TemporaryDirectory {
    let path: [UInt8]

    init() throws {
        var template = Array((TestScratch.folder + "/inotify-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { throw Errno(rawValue: errno) }
        path = template.dropLast().map { UInt8(bitPattern: $0) }
    }

    /// The absolute path of `relative` inside this directory.
    func callAsFunction(_ relative: [UInt8]) -> [UInt8] {
        relative.isEmpty ? path : path + [UInt8(ascii: "/")] + relative
    }

    func callAsFunction(_ relative: String) -> [UInt8] { self(Array(relative.utf8)) }

    var filePath: FilePath { FilePath(bytes: path) }

    func remove() { removeTree(path) }
}

extension FilePath {
    init(bytes: [UInt8]) {
        self.init(platformString: bytes.map { CChar(bitPattern: $0) } + [0])
    }
}

/// Calls `body` with `path` as a NUL-terminated C string.
func withCPath<R>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
    let cString = path.map { CChar(bitPattern: $0) } + [0]
    return cString.withUnsafeBufferPointer { body($0.baseAddress!) }
}

/// Creates (or truncates) a file and writes `content` to it, then closes it.
func writeFile(_ path: [UInt8], _ content: String = "x") throws {
    let fd = withCPath(path) { open($0, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o644) }
    guard fd >= 0 else { throw Errno(rawValue: errno) }
    defer { close(fd) }
    let bytes = Array(content.utf8)
    guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
        throw Errno(rawValue: errno)
    }
}

func makeDirectory(_ path: [UInt8]) throws {
    guard withCPath(path, { mkdir($0, 0o755) }) == 0 else { throw Errno(rawValue: errno) }
}

func renameItem(_ from: [UInt8], _ to: [UInt8]) throws {
    let result = withCPath(from) { cFrom in withCPath(to) { cTo in rename(cFrom, cTo) } }
    guard result == 0 else { throw Errno(rawValue: errno) }
}

func removeFile(_ path: [UInt8]) throws {
    guard withCPath(path, { unlink($0) }) == 0 else { throw Errno(rawValue: errno) }
}

func removeDirectory(_ path: [UInt8]) throws {
    guard withCPath(path, { rmdir($0) }) == 0 else { throw Errno(rawValue: errno) }
}

func makeSymbolicLink(_ target: [UInt8], at path: [UInt8]) throws {
    let result = withCPath(target) { cTarget in withCPath(path) { cPath in symlink(cTarget, cPath) } }
    guard result == 0 else { throw Errno(rawValue: errno) }
}

/// Deletes a tree without following symbolic links, like `rm -rf`.
func removeTree(_ path: [UInt8]) {
    var info = stat()
    guard withCPath(path, { lstat($0, &info) }) == 0 else { return }
    guard (info.st_mode & S_IFMT) == S_IFDIR else {
        _ = withCPath(path) { unlink($0) }
        return
    }
    if let directory = withCPath(path, { opendir($0) }) {
        var names: [[UInt8]] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix(while: { $0 != 0 }))
            }
            if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
        }
        closedir(directory)
        for name in names { removeTree(path + [UInt8(ascii: "/")] + name) }
    }
    _ = withCPath(path) { rmdir($0) }
}

struct TimedOut: Error, CustomStringConvertible {
    var description: String
}

/// Reads events from `inotify` until `condition` holds for all events read so far, or
/// throws after `timeout`. Waits in poll(2) on the descriptor, never in a sleep.
@discardableResult
func waitUntil(
    _ inotify: Inotify,
    timeout: Duration = .seconds(30),
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: ([InotifyEvent]) -> Bool
) throws -> [InotifyEvent] {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    var events: [InotifyEvent] = []
    while true {
        events += try inotify.readEvents()
        if condition(events) { return events }
        let remaining = deadline - clock.now
        guard remaining > .zero else {
            throw TimedOut(description: "condition not met after \(timeout); events: \(events)")
        }
        var descriptor = pollfd(fd: inotify.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        let milliseconds = remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000
        _ = poll(&descriptor, 1, Int32(clamping: max(1, milliseconds)))
    }
}

/// Runs `operation`, throwing ``TimedOut`` when it has not finished after `timeout`.
/// The operation runs in a task of its own, so a hung operation fails the test instead of
/// hanging it.
func withDeadline<T: Sendable>(
    _ timeout: Duration = .seconds(60),
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let task = Task { try await operation() }
    let claimed = Mutex(false)
    let claim: @Sendable () -> Bool = {
        claimed.withLock { taken in
            defer { taken = true }
            return !taken
        }
    }
    return try await withCheckedThrowingContinuation { continuation in
        Task {
            let result = await task.result
            if claim() { continuation.resume(with: result) }
        }
        Task {
            try? await Task.sleep(for: timeout)
            if claim() { continuation.resume(throwing: TimedOut(description: "no result after \(timeout)")) }
        }
    }
}

extension Array where Element == InotifyEvent {
    /// Whether some event has all of `mask` for `name`, on `watch` when given.
    func contains(_ mask: InotifyEventMask, _ name: [UInt8], on watch: WatchDescriptor? = nil) -> Bool {
        contains { $0.mask.isSuperset(of: mask) && $0.name == name && (watch == nil || $0.watch == watch) }
    }

    func contains(_ mask: InotifyEventMask, _ name: String, on watch: WatchDescriptor? = nil) -> Bool {
        contains(mask, [UInt8](name.utf8), on: watch)
    }

    func first(_ mask: InotifyEventMask, _ name: String) -> InotifyEvent? {
        first { $0.mask.isSuperset(of: mask) && $0.name == [UInt8](name.utf8) }
    }
}
