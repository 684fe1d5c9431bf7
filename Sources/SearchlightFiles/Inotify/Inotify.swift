// The kernel-facing part of the watcher: one inotify descriptor, typed wrappers for its
// system calls, and the decoding of what `read(2)` returns.
//
// Pitfalls handled here, each learnt the hard way by someone:
//
// - `struct inotify_event` ends in a flexible array member (`char name[]`) that Swift does
//   not see: the name starts at `MemoryLayout<inotify_event>.size` (16) from the start of
//   the record and is `len` bytes long, NUL-padded; records are packed back to back, so the
//   next one starts at `16 + len`. Names are kept as raw bytes: they need not be UTF-8.
// - The `IN_*` constants come into Swift with mixed integer types (`Int32`, `UInt32`,
//   `Int`) and `IN_ALL_EVENTS` not at all; `InotifyEventMask` converts them once.
// - The descriptor is non-blocking: `EAGAIN` from `read(2)` means "no more events now"
//   and gives an empty array, not an error. `EINTR` is retried.
// - The read buffer holds many events (64 KiB); one that cannot hold a single event makes
//   `read(2)` fail with `EINVAL`.
// - `IN_Q_OVERFLOW` arrives with watch descriptor -1 and no name: events were lost and only
//   a rescan can tell what changed.
// - `IN_IGNORED` follows the removal of every watch, whether asked for with
//   `inotify_rm_watch(2)` or done by the kernel after the directory was deleted (`rm -rf`)
//   or unmounted; after it the descriptor number can be handed out again, so the
//   `WatchTable` must forget it then, and `inotify_rm_watch(2)` on it fails with `EINVAL`.
// - The kernel returns the *same* descriptor when one directory is watched twice (say under
//   its old and its new name after a rename race); `WatchTable.insert` re-keys it.
// - Watches are always added with `IN_ONLYDIR | IN_DONT_FOLLOW | IN_EXCL_UNLINK`: never
//   a file or a symbolic link by accident (`ENOTDIR` instead), no events for files that
//   were unlinked while still open.
// - The descriptor is `IN_CLOEXEC`, so extraction workers started by the indexer do not
//   inherit it, and it stays open until the last user of this `Inotify` (including a
//   dispatch source still watching it) is gone.

import Synchronization
import SystemCalls
import SystemPackage

/// An inotify instance: one kernel descriptor through which directories are watched and
/// their events read.
///
/// The instance owns its descriptor and closes it when it is deinitialized. It has no
/// mutable state of its own, so it can be shared between tasks: adding and removing watches
/// from one while another iterates ``events(maximumBatchSize:gathering:)`` is fine. Events should
/// have one reader, though: two readers would each get part of them.
///
/// ```swift
/// let inotify = try Inotify()
/// let root = try inotify.addWatch(FilePath("/home/ann/Documents"))
/// for try await batch in inotify.events() {
///     for event in batch where event.watch == root { print(event) }
/// }
/// ```
public final class Inotify: Sendable {
    /// The size of the buffer each ``readEvents()`` reads into: room for thousands of events
    /// (an event with a typical name takes 32 to 48 bytes; the largest, 16 + 256).
    public static let readBufferSize = 64 * 1024

    /// The flags every watch is added with: only directories, never through a symbolic
    /// link, and no events for unlinked children.
    public static let requiredWatchFlags: InotifyEventMask = [.onlyDir, .dontFollow, .exclUnlink]

    /// The inotify descriptor. Owned by this instance: do not close it.
    public let descriptor: FileDescriptor

    /// Reads of ``readEvents()`` under way, and reads that returned events: with the
    /// kernel's queue length they tell, without a timing guess, whether events came since a
    /// moment (see ``hasActivity(since:)``).
    ///
    /// Counts the reads that have started and not returned.
    private let readsUnderWay = Atomic<Int>(0)
    /// Counts the reads that returned at least one event, since the instance was made.
    private let readsWithEvents = Atomic<Int>(0)
    /// Batches of ``events(maximumBatchSize:gathering:)`` being read or in their consumer's hands: a
    /// batch read before a ``markActivity()`` and handed on (into a watcher's inbox) only
    /// after a ``hasActivity(since:)`` is activity the read counters alone do not show.
    let batchesInHand = Atomic<Int>(0)

    /// Creates an inotify instance with a non-blocking, close-on-exec descriptor.
    ///
    /// The corresponding C function is `inotify_init1(2)`.
    ///
    /// - Throws: ``FileSystemError`` with ``FileSystemError/Code/initializeInotify``; `EMFILE`
    ///   when the per-user limit of instances (`fs.inotify.max_user_instances`) is reached.
    public init() throws(FileSystemError) {
        do {
            descriptor = FileDescriptor(rawValue: try SystemCall.inotifyInitialize())
        } catch {
            throw FileSystemError(.initializeInotify, errno: error)
        }
    }

    /// Closes the descriptor: the kernel removes every watch of the instance with it.
    deinit {
        // EINTR from close(2) on Linux still means the descriptor is closed: never retry.
        try? descriptor.close()
    }

    // MARK: Watches

    /// Starts watching a directory, or changes the events of its existing watch.
    ///
    /// ``requiredWatchFlags`` are always added to `mask`, so a path that is not a
    /// directory, or is a symbolic link, fails with `ENOTDIR`. Watching a directory that is
    /// already watched returns its existing descriptor (replacing its mask unless `mask`
    /// contains ``InotifyEventMask/maskAdd``).
    ///
    /// The corresponding C function is `inotify_add_watch(2)`.
    ///
    /// - Parameters:
    ///   - path: The directory to watch.
    ///   - mask: The events to report; ``InotifyEventMask/standard`` by default.
    /// - Returns: The descriptor that the directory's events will carry.
    /// - Throws: ``FileSystemError`` with ``FileSystemError/Code/addWatch`` and the path.
    ///   Check ``FileSystemError/isWatchLimitReached`` (`ENOSPC`) and
    ///   ``FileSystemError/isNoSuchFile`` (`ENOENT`, `ENOTDIR`: the directory vanished).
    @discardableResult
    public func addWatch(_ path: FilePath, for mask: InotifyEventMask = .standard) throws(FileSystemError) -> WatchDescriptor {
        let flags = mask.union(Self.requiredWatchFlags).rawValue
        let result = path.withPlatformString { cPath in
            Result { () throws(Errno) in try SystemCall.inotifyAddWatch(descriptor.rawValue, path: cPath, mask: flags) }
        }
        switch result {
        case .success(let watch): return WatchDescriptor(rawValue: watch)
        case .failure(let error): throw FileSystemError(.addWatch, errno: error, path: path)
        }
    }

    /// Starts watching the directory at a path given as raw bytes, such as the root's path
    /// followed by `/` and a relative path from a ``WatchTable``.
    ///
    /// Behaves like ``addWatch(_:for:)``; the bytes are passed to the kernel unchanged, so
    /// names that are not UTF-8 work.
    ///
    /// The corresponding C function is `inotify_add_watch(2)`.
    ///
    /// - Throws: ``FileSystemError`` as ``addWatch(_:for:)`` does, and `EINVAL` when the bytes
    ///   contain a NUL.
    @discardableResult
    public func addWatch(pathBytes: some Collection<UInt8>, for mask: InotifyEventMask = .standard) throws(FileSystemError) -> WatchDescriptor {
        var cPath = pathBytes.map { CChar(bitPattern: $0) }
        cPath.append(0)
        guard cPath.firstIndex(of: 0) == cPath.count - 1 else {
            throw FileSystemError(
                .addWatch, errno: .invalidArgument, path: FilePath(platformString: cPath),
                detail: "the path contains a NUL byte")
        }
        let flags = mask.union(Self.requiredWatchFlags).rawValue
        do {
            return WatchDescriptor(rawValue: try SystemCall.inotifyAddWatch(descriptor.rawValue, path: cPath, mask: flags))
        } catch {
            throw FileSystemError(.addWatch, errno: error, path: FilePath(platformString: cPath))
        }
    }

    /// Stops watching a directory. An ``InotifyEventMask/ignored`` event for the watch
    /// follows; forget the watch when it arrives, not before.
    ///
    /// The corresponding C function is `inotify_rm_watch(2)`.
    ///
    /// - Throws: ``FileSystemError`` with ``FileSystemError/Code/removeWatch``; `EINVAL`
    ///   (``FileSystemError/isStaleWatch``) when the kernel already removed the watch because
    ///   its directory was deleted.
    public func removeWatch(_ watch: WatchDescriptor) throws(FileSystemError) {
        do {
            try SystemCall.inotifyRemoveWatch(descriptor.rawValue, watch: watch.rawValue)
        } catch {
            throw FileSystemError(.removeWatch, errno: error, watch: watch)
        }
    }

    // MARK: Events

    /// Reads the events that are queued now, without waiting.
    ///
    /// Reads once, into a ``readBufferSize`` buffer: when more events are queued than fit,
    /// the rest come with the next call. To wait for events, iterate
    /// ``events(maximumBatchSize:gathering:)`` instead.
    ///
    /// The corresponding C function is `read(2)`.
    ///
    /// - Returns: The events in the order the kernel queued them; empty when there are
    ///   none (`EAGAIN`).
    /// - Throws: ``FileSystemError`` with ``FileSystemError/Code/readEvents``.
    public func readEvents() throws(FileSystemError) -> [InotifyEvent] {
        readsUnderWay.add(1, ordering: .sequentiallyConsistent)
        defer { readsUnderWay.subtract(1, ordering: .sequentiallyConsistent) }
        let result: Result<[InotifyEvent], FileSystemError> = withUnsafeTemporaryAllocation(
            byteCount: Self.readBufferSize, alignment: SystemCall.InotifyRecordHeader.alignment
        ) { buffer in
            let count: Int
            do {
                count = try descriptor.read(into: buffer, retryOnInterrupt: true)
            } catch let error as Errno {
                if error == .resourceTemporarilyUnavailable || error == .wouldBlock {
                    return .success([])
                }
                return .failure(FileSystemError(.readEvents, errno: error))
            } catch {
                return .failure(FileSystemError(.readEvents, errno: nil, detail: "\(error)"))
            }
            if count > 0 { readsWithEvents.add(1, ordering: .sequentiallyConsistent) }
            do throws(FileSystemError) {
                return .success(try InotifyEvent.decode(UnsafeRawBufferPointer(rebasing: buffer[..<count])))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// A moment to compare with later in ``hasActivity(since:)``.
    public struct ActivityMark: Sendable, Equatable {
        let readsWithEvents: Int
    }

    /// Now, for ``hasActivity(since:)``.
    public func markActivity() -> ActivityMark {
        ActivityMark(readsWithEvents: readsWithEvents.load(ordering: .sequentiallyConsistent))
    }

    /// Whether an event was queued since `mark` that a reader may not have handed on yet:
    /// one waits in the kernel's queue, a read is under way, a batch of
    /// ``events(maximumBatchSize:gathering:)`` is still in its consumer's hands (it may have been read
    /// before `mark`), or a read returned events since.
    /// A change to a watched folder whose system call returned before this call is always
    /// seen (the kernel queues its event before the call returns); `true` may also mean that
    /// events older than `mark` were being read.
    ///
    /// The order of the three looks matters: an event taken from the queue after the first
    /// look belongs to a read that is still under way at the second, or that had counted
    /// itself by the third.
    public func hasActivity(since mark: ActivityMark) -> Bool {
        // Queued, or the ioctl failed: assume so.
        if (try? SystemCall.readableByteCount(descriptor.rawValue)) != 0 { return true }
        if readsUnderWay.load(ordering: .sequentiallyConsistent) > 0 { return true }
        if batchesInHand.load(ordering: .sequentiallyConsistent) > 0 { return true }
        return readsWithEvents.load(ordering: .sequentiallyConsistent) != mark.readsWithEvents
    }

    /// Reads the events queued now, reading again while more are queued, until there are
    /// none or at least `maximumCount` were read.
    func readEvents(upTo maximumCount: Int) throws(FileSystemError) -> [InotifyEvent] {
        var events = try readEvents()
        while !events.isEmpty, events.count < maximumCount {
            let more = try readEvents()
            if more.isEmpty { break }
            events += more
        }
        return events
    }
}
