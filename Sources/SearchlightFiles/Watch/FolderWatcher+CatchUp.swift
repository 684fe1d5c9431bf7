import Searchlight

// Extraction left for later by the pipeline (``ExtractionDeferral``), caught up.

extension FolderWatcher {
    /// Once no longer backing off, extracts what was deferred meanwhile: the items of the
    /// domain that have no change stamp.
    ///
    /// Finding them reads every change stamp of the domain, 4 096 at a time: a cost that grows
    /// with the domain, paid once per backoff that deferred work. While the extraction workers
    /// are still unavailable, it schedules another try (the deferral's own backoff) and wakes the
    /// loop when it is due.
    ///
    /// Called by the loop of windows after a window, while items wait and nothing backs off,
    /// through ``recovering(_:)``. The count
    /// of deferred items is taken (and forgotten) before the stamps are read: it is what the log
    /// says; the paths refreshed are those the index holds without a stamp, whatever deferred
    /// them. The refresh goes through the scanner's pipeline, which defers again what the
    /// workers still cannot extract.
    ///
    /// - Throws: The index's errors, and the scanner's.
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
        let summary = try scanned { try scanner.refresh(paths, records: $0) }.summary
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
