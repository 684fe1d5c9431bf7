import Foundation

/// Step ③ of the write path, inspection: the threads that run it.
///
/// Inspector threads, each with its own ``FileInspector`` (and so its own libmagic handles),
/// that take inspections from any number of scans until closed.
///
/// A one-shot scan opens a pool for its one run. A watcher keeps one for as long as it
/// watches: a burst of changes, handled a window at a time, then flows through the same
/// threads and handles, with the MIME types they learned, instead of opening fresh ones
/// (and loading libmagic's database again) for every window and every new folder. Idle
/// threads wait on the queue: an idle pool costs no CPU.
final class InspectorPool: Sendable {
    /// Work for an inspector thread, given that thread's inspector.
    typealias Work = @Sendable (FileInspector) -> Void

    private let queue: BlockingQueue<Work>
    private let threadsEnded: DispatchSemaphore
    private let threadCount: Int

    /// Starts `count` threads and opens an inspector on each.
    /// - Parameter capacity: Inspections waiting at most, beyond which ``submit(_:)`` waits.
    /// - Throws: ``FileSystemError`` with ``FileSystemError/Code/inspection`` when libmagic's database cannot be loaded; no thread is
    ///   left running.
    init(count: Int, capacity: Int = 512) throws(FileSystemError) {
        queue = BlockingQueue(capacity: capacity)
        threadsEnded = DispatchSemaphore(value: 0)
        threadCount = count
        // Each thread says whether its inspector opened: `nil` for yes.
        let opened = BlockingQueue<FileSystemError?>(capacity: count)
        let learned = LearnedContentTypes()
        for number in 0..<count {
            let thread = Thread { [queue, threadsEnded] in
                defer { threadsEnded.signal() }
                let inspector: FileInspector
                do throws(FileSystemError) {
                    inspector = try FileInspector(learning: learned)
                } catch {
                    opened.put(error)
                    return
                }
                opened.put(nil)
                while let work = queue.take().element { work(inspector) }
            }
            thread.name = "searchlight-inspector-\(number)"
            thread.start()
        }
        var failure: FileSystemError?
        for _ in 0..<count {
            if let error = opened.take().element ?? nil { failure = failure ?? error }
        }
        if let failure {
            close()
            throw failure
        }
    }

    /// Queues an inspection, waiting while the queue is full. Returns `false` once the pool
    /// is closed: then `work` never runs.
    @discardableResult
    func submit(_ work: @escaping Work) -> Bool { queue.put(work) }

    /// Lets the threads finish what is queued, then waits until they have ended. Call once.
    func close() {
        queue.close()
        for _ in 0..<threadCount { threadsEnded.wait() }
    }
}
