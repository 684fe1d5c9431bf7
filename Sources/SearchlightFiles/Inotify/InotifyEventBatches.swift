@preconcurrency import Dispatch
import Synchronization

extension Inotify {
    /// The events of this instance as an asynchronous sequence of batches.
    ///
    /// Each batch holds the events that were queued when the descriptor became readable
    /// (at least one, about `maximumBatchSize` at most). While nothing happens the iterating
    /// task is suspended and no thread waits or polls: readability is watched by the
    /// system's event loop (epoll, through a dispatch source).
    ///
    /// The sequence ends (returns `nil`) when the iterating task is cancelled, and throws
    /// when reading fails. It never closes the descriptor: watches can still be added and
    /// events read after it ends. Events are read only when the iterator asks for the next
    /// batch, so a slow consumer leaves them in the kernel's queue, where an overflow is
    /// reported as ``InotifyEventMask/queueOverflow`` rather than growing memory here.
    ///
    /// ```swift
    /// for try await batch in inotify.events() {
    ///     if batch.contains(where: \.isQueueOverflow) { rescan() }
    ///     …
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - maximumBatchSize: After how many events to stop reading more into one batch.
    ///   - gathering: How long to let events queue after a batch before reading again (see
    ///     ``InotifyEventBatches/gathering``).
    public func events(maximumBatchSize: Int = 4096, gathering: Duration = .zero) -> InotifyEventBatches {
        InotifyEventBatches(inotify: self, maximumBatchSize: max(1, maximumBatchSize), gathering: gathering)
    }
}

/// The events of an ``Inotify`` instance as an asynchronous sequence of batches; see
/// ``Inotify/events(maximumBatchSize:gathering:)``.
///
/// One iterator per sequence: two iterators of the same instance would split its events
/// between them, each seeing part of the picture.
public struct InotifyEventBatches: AsyncSequence, Sendable {
    /// A batch: the events of one `read(2)`, in the kernel's order.
    public typealias Element = [InotifyEvent]
    /// What ends the sequence with an error: a failed `read(2)` of the descriptor.
    public typealias Failure = FileSystemError

    /// The instance whose descriptor is read; the sequence keeps it alive.
    let inotify: Inotify
    /// The most events one batch holds (one `read(2)` stops there).
    let maximumBatchSize: Int
    /// After a batch short of ``maximumBatchSize``, the next read waits this long, so that the
    /// events of a burst, which come a few at a time, are read by the hundred: reading each
    /// few would wake the reader, and whoever it hands them to, thousands of times a second,
    /// which costs more than handling the events. A quiet watch is not delayed: after an
    /// empty read the reader waits for readability, and a lone event is read as it comes.
    let gathering: Duration

    /// An iterator that reads the instance's events as they come.
    public func makeAsyncIterator() -> Iterator {
        Iterator(inotify: inotify, maximumBatchSize: maximumBatchSize, gathering: gathering)
    }

    /// Reads a batch when events are queued, and waits for readability when not.
    ///
    /// A batch counts as in hand (``Inotify/hasActivity(since:)`` says so) from before it is
    /// read until the consumer asks for the next one: by then it has handed it on.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        /// A batch: the events of one `read(2)`, in the kernel's order.
        public typealias Element = [InotifyEvent]
        /// What ends the sequence with an error: a failed `read(2)` of the descriptor.
        public typealias Failure = FileSystemError

        let inotify: Inotify
        let maximumBatchSize: Int
        /// How long to wait before reading after a batch that was not full.
        let gathering: Duration
        /// Where the readability handlers run; they only resume the waiting task.
        let queue = DispatchQueue(label: "searchlight.inotify.events")
        /// Whether the sequence ended (cancelled or failed): later calls return `nil`.
        var isFinished = false
        /// Whether the last batch returned is counted in ``Inotify/batchesInHand``.
        var holdsBatch = false
        /// Whether the last batch returned was full (more events were likely queued behind it).
        var lastBatchWasFull = false

        /// The next batch, waiting for events if none are queued; nil once the task is cancelled.
        ///
        /// Calling it also hands back the batch returned before: the instance no longer counts it
        /// as in hand. An iteration abandoned while it holds a batch leaves that batch counted.
        ///
        /// - Throws: ``FileSystemError`` when reading the descriptor fails.
        public mutating func next() async throws(FileSystemError) -> [InotifyEvent]? {
            try await next(isolation: nil)
        }

        /// ``next()``, on the caller's actor.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(FileSystemError) -> [InotifyEvent]? {
            if holdsBatch {
                holdsBatch = false
                inotify.batchesInHand.subtract(1, ordering: .sequentiallyConsistent)
                // Events queued meanwhile count as activity (the kernel's queue is not empty).
                if gathering > .zero && !lastBatchWasFull {
                    do {
                        try await Task.sleep(for: gathering)
                    } catch {
                        isFinished = true
                        return nil
                    }
                }
            }
            while !isFinished {
                if Task.isCancelled { break }
                let batch: [InotifyEvent]
                // Counted before the read: a check that marks activity after the read returned
                // still sees the batch until it is handed on.
                inotify.batchesInHand.add(1, ordering: .sequentiallyConsistent)
                do {
                    batch = try inotify.readEvents(upTo: maximumBatchSize)
                } catch {
                    inotify.batchesInHand.subtract(1, ordering: .sequentiallyConsistent)
                    isFinished = true
                    throw error
                }
                if !batch.isEmpty {
                    holdsBatch = true
                    lastBatchWasFull = batch.count >= maximumBatchSize
                    return batch
                }
                inotify.batchesInHand.subtract(1, ordering: .sequentiallyConsistent)
                // Reading first and waiting second cannot miss a wake-up: dispatch watches
                // the descriptor level-triggered, so events queued between the empty read
                // and the start of the wait make the wait return at once.
                await ReadabilityWait.wait(for: inotify, on: queue)
            }
            isFinished = true
            return nil
        }
    }
}

/// One wait until an inotify descriptor is readable or the waiting task is cancelled.
///
/// A fresh dispatch read source per wait keeps the life cycle simple: it is activated when
/// the wait starts and cancelled when the wait ends, so no source is ever suspended while
/// the consumer works, and none outlives its wait.
private final class ReadabilityWait: Sendable {
    /// Not started, waiting (with what to resume and the source to cancel), or over.
    private enum State {
        case idle
        case waiting(CheckedContinuation<Void, Never>, any DispatchSourceRead)
        case done
    }

    /// The wait's state, shared by the task, the event handler and the cancellation handler.
    private let state = Mutex<State>(.idle)

    /// Suspends the calling task until `inotify`'s descriptor is readable or the task is
    /// cancelled; the dispatch source's handlers run on `queue`.
    static func wait(for inotify: Inotify, on queue: DispatchQueue) async {
        let wait = ReadabilityWait()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                wait.start(inotify: inotify, queue: queue, continuation: continuation)
            }
        } onCancel: {
            wait.finish()
        }
    }

    /// Makes and activates the read source, unless the wait was cancelled first, in which case
    /// `continuation` is resumed at once.
    private func start(inotify: Inotify, queue: DispatchQueue, continuation: CheckedContinuation<Void, Never>) {
        state.withLock { state in
            guard case .idle = state else {
                // Cancelled before the wait began.
                continuation.resume()
                return
            }
            let source = DispatchSource.makeReadSource(fileDescriptor: inotify.descriptor.rawValue, queue: queue)
            source.setEventHandler { self.finish() }
            // Dispatch may watch the descriptor until the cancel handler runs: holding the
            // instance until then keeps the descriptor from being closed (and its number
            // reused) under it.
            source.setCancelHandler { withExtendedLifetime(inotify) {} }
            // The event handler takes the lock too, so it cannot run before the state is set.
            source.activate()
            state = .waiting(continuation, source)
        }
    }

    /// Ends the wait, once: from the event handler or from task cancellation.
    func finish() {
        let waiting = state.withLock { state -> (CheckedContinuation<Void, Never>, any DispatchSourceRead)? in
            defer { state = .done }
            guard case .waiting(let continuation, let source) = state else { return nil }
            return (continuation, source)
        }
        guard let (continuation, source) = waiting else { return }
        source.cancel()
        continuation.resume()
    }
}
