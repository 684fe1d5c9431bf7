import ExtractionProtocol
import Foundation
import Logging
import Searchlight
import Synchronization
import SystemCalls

// Inspection and the write: each job's file is inspected on an inspector thread; the calling
// thread writes the findings in batches (a watch window's in one transaction).
extension FolderScanner {
    /// Hands one job's file to the pipeline (step ③) with the inspector of the thread it runs
    /// on; a file whose change time alone moved has only its user attributes read again.
    ///
    /// Runs on an inspector thread, one job at a time; its one finding goes to `results`, where
    /// ``write(results:into:records:progress:changes:draining:)`` takes it on the calling thread.
    /// The cheap path (a change time alone moved) costs a `stat`, the extended attributes and
    /// one read of the index, and never a decoder. A file that vanished, or became a secret
    /// (excluded by its content), is deleted when it was indexed and ignored when it was not.
    /// Nothing is done once the scan is stopping.
    ///
    /// The cheap path is taken only when the file, looked at again now, still differs from the
    /// stored stamp by its change time alone, and its item holds no extraction failure; when the
    /// item cannot be read from the index, the file is inspected in full instead.
    ///
    /// - Parameters:
    ///   - job: The file to look at, with what the index holds of it.
    ///   - inspector: The libmagic handle of the calling thread; never shared between threads.
    ///   - results: Where the finding goes.
    func inspect(_ job: Job, with inspector: FileInspector, results: BlockingQueue<Finding>) {
        if isStopping { return }
        // Only the change time moved: new tags or a comment, or a permission. An item that
        // failed (unreadable until a chmod, say) is inspected again in full.
        if let stored = job.contentStamp, let (attributes, access, status) = FileInspector.userAttributes(of: job.path, in: root),
           status.differsOnlyInChangeTime(from: stored),
           let indexed = try? index.item(job.path, domain: options.domain), indexed.item.failure == nil {
            results.put(.userAttributes(job.path, attributes, access, changeStamp: status.changeStamp,
                                        changed: attributes != indexed.item.attributeSet.userAttributes))
            return
        }
        switch pipeline.item(at: job.path, in: root, domain: options.domain, with: inspector) {
        case .vanished, .secret:
            if job.isIndexed { results.put(.delete(job.path)) }
        case .item(let item, _):
            results.put(.upsert(item, isNew: !job.isIndexed))
        }
    }

    /// Writes the findings in batches by count and time; a window's all at once, after its
    /// structural changes and with its states. Counts them in `report`'s summary, and records
    /// there what `records` asks for.
    ///
    /// Once `draining` (the walk is done and only the jobs in the inspectors' hands are left),
    /// a batch is also written whenever no finding waits: its full-text index is then built
    /// while the last files are decoded, instead of on one core after them.
    ///
    /// A scan (no `changes`) writes a batch whenever it reaches ``Options/batchSize`` items,
    /// ``Options/batchTextBytes`` of text, or ``Options/batchInterval`` of age, so that a large
    /// scan is searchable as it goes and no batch holds too much in memory. A watch window
    /// (`changes` given) writes once, at the end: its structural changes first, then its
    /// findings, with the domain states it carries, in one transaction, so that a window is
    /// all or nothing.
    ///
    /// Runs on the calling thread until `results` is closed and empty; it waits for findings at
    /// most 100 ms at a time, so the batches' timers and `progress` run even while the
    /// inspectors are slow.
    ///
    /// The counts: an upsert is added or updated (and its extraction failure counted too, as
    /// failed or as indexed without a preview); user attributes read again are updated when they changed, else unchanged; a
    /// deletion is removed; an unreadable path is failed. A tree's deletion is recorded as
    /// removed among the changes but not counted (what it removes is not known here). The last
    /// batch is written at the end even when empty: a window's structural changes and states are
    /// in it.
    ///
    /// - Parameters:
    ///   - results: The inspectors' findings, closed once the walk and the jobs are done.
    ///   - report: Where the counts go (added, updated, unchanged, removed, failed) and, as
    ///     `records` asks, the changes and the hard links seen.
    ///   - records: What to record beyond the counts.
    ///   - progress: Called with the counts so far, at most every 100 ms, and once at the end.
    ///   - changes: A watch window's structural changes and states, written with its findings.
    ///   - draining: Whether only the jobs in the inspectors' hands are left.
    /// - Throws: The first fatal finding (a failure of the walk or the pipeline), or the
    ///   index's error; what was written before it stays written.
    func write(results: BlockingQueue<Finding>, into report: inout ScanReport, records: ScanReport.Records,
               progress: ((ScanSummary) -> Void)?, changes: ChangeSet?,
               draining: @Sendable () -> Bool = { false }) throws {
        var batch = IndexBatch()
        var states: [String: DomainState] = [:]
        var batchStarted = Date()
        var batchTextBytes = 0
        var lastProgress = Date.distantPast
        let recordsChanges = records.contains(.changes)
        func record(_ path: ItemIdentifier, _ change: ScanChange) {
            if recordsChanges { report.changes.append((path, change)) }
        }
        func flush() throws {
            if let changes {
                batch.changes = changes.structure + batch.changes
                states = changes.states
                WindowCrashPoint.extracted.reach(logger: logger)
            }
            try index.apply(batch, states: states)
            batch = IndexBatch()
            batchStarted = Date()
            batchTextBytes = 0
        }
        while true {
            let (finding, timedOut) = results.take(until: Date().addingTimeInterval(0.1))
            if let finding {
                switch finding {
                case .unchanged(let count):
                    report.summary.unchanged += count
                case .upsert(let item, let isNew):
                    if isNew { report.summary.added += 1 } else { report.summary.updated += 1 }
                    if let failure = item.failure.map(ExtractionFailure.init(stored:)) {
                        report.summary.count(failure, of: item.uniqueIdentifier, logger: logger)
                    }
                    batch.upsert(item)
                    batchTextBytes += item.attributeSet.textContent?.utf8.count ?? 0
                    record(item.uniqueIdentifier, isNew ? .added : .updated)
                case .userAttributes(let path, let attributes, let access, let stamp, let changed):
                    if changed { report.summary.updated += 1 } else { report.summary.unchanged += 1 }
                    batch.setUserAttributes(attributes, of: path, domain: options.domain, changeStamp: stamp, access: access)
                    record(path, changed ? .updated : .restamped)
                case .delete(let path):
                    report.summary.removed += 1
                    batch.delete(path, domain: options.domain)
                    record(path, .removed)
                case .deleteTree(let path):
                    batch.deleteTree(path, domain: options.domain)
                    record(path, .removed)
                case .unreadable:
                    report.summary.failed += 1
                case .folderAccess(let folder, let access):
                    batch.setFolderAccess(access, of: folder, domain: options.domain)
                case .linkSighting(let sighting):
                    report.linkSightings.append(sighting)
                case .fatal(let error):
                    throw error
                }
            } else if !timedOut {
                break
            }
            let now = Date()
            if changes == nil, batch.count >= options.batchSize || batchTextBytes >= options.batchTextBytes
                || (!batch.isEmpty && now.timeIntervalSince(batchStarted) >= options.batchInterval)
                || (!batch.isEmpty && results.isEmpty && draining()) {
                try flush()
            }
            if let progress, now.timeIntervalSince(lastProgress) >= 0.1 {
                lastProgress = now
                progress(report.summary)
            }
        }
        try flush()
        progress?(report.summary)
    }
}

extension FolderScanner {
    /// This machine's name (``SystemCall/hostName``), which a shared index records with each root.
    ///
    /// Read once, when first used: a machine renamed while a process runs keeps its old name
    /// in that process. `localhost` when the name cannot be read.
    public static let hostName: String = SystemCall.hostName ?? "localhost"
}
