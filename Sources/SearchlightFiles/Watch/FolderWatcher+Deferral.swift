import Searchlight
import Synchronization

/// Extraction waits while the machine is busy: backing off (see ``WatchControl``), a watcher
/// still indexes every new or changed file by name, type and dates, but leaves its content and
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

    /// `enricher`, except while `control` backs off: then the item is marked for later. An item
    /// the enricher itself leaves without a stamp (the workers are out) is counted too.
    func enricher(_ enricher: FolderScanner.Enricher?, control: WatchControl?) -> FolderScanner.Enricher? {
        guard let enricher else { return nil }
        return { [self] item, root in
            if control?.backoffReason == nil {
                enricher(&item, root)
                if item.changeStamp == nil { deferred.add(1, ordering: .relaxed) }
            } else {
                item.changeStamp = nil
                deferred.add(1, ordering: .relaxed)
            }
        }
    }

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

extension FolderWatcher {
    /// Once no longer backing off, extracts what was deferred meanwhile: the items of the
    /// domain that have no change stamp.
    func catchUpOnDeferredExtraction() throws {
        guard deferral.isPending, options.control?.backoffReason == nil else { return }
        let count = deferral.take()
        var paths: [ItemIdentifier] = []
        var after: ItemIdentifier?
        while true {
            let page = try index.changeStamps(domain: options.scan.domain, after: after, limit: 4096)
            paths += page.filter { $0.changeStamp == nil }.map(\.identifier)
            guard page.count == 4096, let last = page.last else { break }
            after = last.identifier
        }
        if deferral.isRetrying {
            logger.debug("extracting \(paths.count) files again (\(count) deferred)")
        } else {
            logger.notice("extracting \(paths.count) files left for later (\(count) deferred)")
        }
        let summary = try scanner.refresh(paths)
        logger.debug("deferred extraction: \(summary.counts)")
        // Still waiting: the workers are out. Try again later, sooner than never.
        if let delay = deferral.nextRetry() {
            Task { [inbox, deferral] in
                try? await Task.sleep(for: delay)
                deferral.retryIsDue()
                inbox.poke()
            }
        }
    }
}
