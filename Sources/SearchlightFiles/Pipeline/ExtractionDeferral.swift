import Synchronization

/// Step ③ of the write path, left for later: extraction waits while the machine is busy.
///
/// Backing off (see ``WatchControl``), a watcher still indexes every new or changed file by name, type and dates, but leaves its content and
/// thumbnail (the worker processes, the costly part) for later. Such an item is stored without
/// a change stamp, so that it counts as changed; once the backoff ends the watcher refreshes
/// every item of its domain that has no stamp, which extracts them.
///
/// The same holds while the workers are out (a missing or broken `searchlight-extractor`, see
/// ``ExtractorPool``): the extraction leaves such items without a stamp, and the watcher tries
/// them again after a back-off that doubles from ``firstRetry`` to ``longestRetry``.
final class ExtractionDeferral: Sendable {
    static let firstRetry: Duration = .seconds(2)
    static let longestRetry: Duration = .seconds(120)

    private let deferred = Atomic<Int>(0)
    /// The delay before the next retry of items the workers could not extract, and whether
    /// one is scheduled already.
    private let retry = Mutex((backoff: Backoff(first: ExtractionDeferral.firstRetry, longest: ExtractionDeferral.longestRetry),
                               scheduled: false))

    /// Counts an item left for later (see ``IndexingPipeline/extract(_:in:)``).
    func record() { deferred.add(1, ordering: .relaxed) }

    /// Whether items wait for their extraction.
    var isPending: Bool { deferred.load(ordering: .relaxed) > 0 }

    /// How many items were deferred; forgets them.
    func take() -> Int { deferred.exchange(0, ordering: .relaxed) }

    /// After a catch-up that left items waiting (the workers are still out): the delay before
    /// the next try, doubling each time, or nil when a try is scheduled already. A catch-up
    /// that extracted everything resets the delay.
    func nextRetry() -> Duration? {
        let pending = isPending
        return retry.withLock { retry in
            guard pending else {
                retry.backoff.reset()
                return nil
            }
            guard !retry.scheduled else { return nil }
            retry.scheduled = true
            return retry.backoff.next()
        }
    }

    /// A scheduled retry is due.
    func retryIsDue() { retry.withLock { $0.scheduled = false } }

    /// Whether the last catch-up left items waiting (a retry is under way).
    var isRetrying: Bool { retry.withLock { $0.backoff.current != nil } }
}
