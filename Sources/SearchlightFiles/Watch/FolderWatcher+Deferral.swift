import Searchlight
import Synchronization

/// Extraction waits while the machine is busy: backing off (see ``WatchControl``), a watcher
/// still indexes every new or changed file by name, type and dates, but leaves its content and
/// thumbnail (the worker processes, the costly part) for later. Such an item is stored without
/// a change stamp, so that it counts as changed; once the backoff ends the watcher refreshes
/// every item of its domain that has no stamp, which extracts them.
final class ExtractionDeferral: Sendable {
    private let deferred = Atomic<Int>(0)

    /// `enricher`, except while `control` backs off: then the item is marked for later.
    func enricher(_ enricher: FolderScanner.Enricher?, control: WatchControl?) -> FolderScanner.Enricher? {
        guard let enricher, let control else { return enricher }
        return { [self] item, root in
            if control.backoffReason == nil {
                enricher(&item, root)
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
        logger.notice("no longer backing off: extracting \(paths.count) files left for later (\(count) deferred)")
        let summary = try scanner.refresh(paths)
        logger.debug("deferred extraction: \(summary.counts)")
    }
}
