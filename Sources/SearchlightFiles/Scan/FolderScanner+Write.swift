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
    public static let hostName: String = SystemCall.hostName ?? "localhost"
}
