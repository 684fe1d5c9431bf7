import Foundation
import Glibc
import Logging
import Searchlight
import Synchronization
import SearchlightTestSupport
import Testing
@testable import SearchlightFiles

/// Counts inspections per path: proves what was (not) re-extracted.
final class InspectionCounter: Sendable {
    private let counts = Mutex<[ItemIdentifier: Int]>([:])
    /// Runs on the inspector thread for each inspected file (a test's way to act mid-scan).
    let onRecord = Mutex<(@Sendable (ItemIdentifier) -> Void)?>(nil)
    func record(_ path: ItemIdentifier) {
        counts.withLock { $0[path, default: 0] += 1 }
        onRecord.withLock { $0 }?(path)
    }
    func count(_ path: String) -> Int { counts.withLock { $0[ItemIdentifier(path)] ?? 0 } }
    var total: Int { counts.withLock { $0.values.reduce(0, +) } }
    /// The paths inspected more than once, with their counts (what a failure shows).
    var repeated: [String: Int] {
        counts.withLock { counts in
            Dictionary(uniqueKeysWithValues: counts.filter { $0.value > 1 }.map { ($0.key.lossyString, $0.value) })
        }
    }
}

/// Keeps log messages for checks.
final class LogRecorder: Sendable {
    let messages = Mutex<[String]>([])
    var all: [String] { messages.withLock { $0 } }

    struct Handler: LogHandler {
        let recorder: LogRecorder
        var logLevel: Logger.Level = .debug
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { recorder.messages.withLock { $0.append("\(event.level): \(event.message)") } }
    }

    var logger: Logger { Logger(label: "test") { _ in Handler(recorder: self) } }
}

/// A live watcher on a real temporary tree, with a real index.
final class WatchFixture {
    let tree = TemporaryTree("watch")
    let outside = TemporaryTree("outside")
    let indexFolder = TemporaryTree("watch-index")
    let index: SearchableIndex
    let counter = InspectionCounter()
    let log = LogRecorder()
    let watcher: FolderWatcher
    private var task: Task<Void, any Error>?
    let domain = "watched"

    init(indexInsideRoot: Bool = false, inotify: InotifyHub? = nil, _ configure: (inout FolderWatcher.Options) -> Void = { _ in },
         prepare: (TemporaryTree) -> Void = { _ in }) throws {
        prepare(tree)
        index = try SearchableIndex(path: (indexInsideRoot ? tree.path : indexFolder.path) + "/index.sqlite")
        let root = try RootFolder(path: tree.path)
        var options = FolderWatcher.Options(scan: FolderScanner.Options(domain: domain))
        options.settleInterval = .milliseconds(50)
        let counter = self.counter
        options.scan.pipeline.testExtraction = { item, _ in counter.record(item.uniqueIdentifier) }
        configure(&options)
        watcher = try FolderWatcher(index: index, root: root, options: options, logger: log.logger, inotify: inotify)
    }

    /// Starts the watcher and waits until it is ready.
    func start() async throws {
        let watcher = self.watcher
        let ended = self.ended
        task = Task {
            do {
                try await watcher.run()
                ended.result.withLock { $0 = .success(()) }
            } catch {
                ended.result.withLock { $0 = .failure(error) }
                throw error
            }
        }
        // Readiness shows in the health it records, as `status` shows it.
        // A deadline, not a timing: the whole suite runs in parallel on a busy machine.
        let started = await eventually(timeout: 120) { (try? self.index.domainState(self.domain))??.watch?.running == true }
        try #require(started, "the watcher did not become ready")
    }

    /// How the watcher's run ended, once it has.
    final class Ending: Sendable {
        let result = Mutex<Result<Void, any Error>?>(nil)
    }
    private let ended = Ending()

    /// Cancels the watcher and waits (at most `timeout`) for it to end; a watch that does not
    /// end fails the test instead of hanging it.
    func stop(timeout: TimeInterval = 60) async throws {
        task?.cancel()
        guard task != nil else { return }
        guard let outcome = await outcome(timeout: timeout) else { return }
        try outcome.get()
    }

    /// The outcome of the watcher's run, once it ended by itself; `nil` (and a recorded issue)
    /// when it has not ended within `timeout`.
    func outcome(timeout: TimeInterval = 60) async -> Result<Void, any Error>? {
        guard task != nil else { return nil }
        if await eventually(timeout: timeout, { self.ended.result.withLock { $0 != nil } }) {
            return ended.result.withLock { $0 }
        }
        Issue.record("the watch did not end within \(timeout) s")
        return nil
    }

    deinit { task?.cancel() }

    /// Identifiers in the index, as strings.
    func indexed() throws -> [String] {
        var all: [String] = []
        try index.forEachItem(domain: domain) { all.append($0.item.uniqueIdentifier.lossyString); return true }
        return all
    }

    /// Regular, visible files on disk with their sizes: what the index must hold.
    func onDisk() throws -> [String: Int64] {
        var files: [String: Int64] = [:]
        let root = try RootFolder(path: tree.path)
        try DirectoryWalker(root: root, options: .init(excluded: IndexFiles.relativePaths(of: index.path, below: root)))
            .walk { event in
                if case .file(let path, let status) = event { files[path.lossyString] = Int64(status.size) }
            }
        return files
    }

    /// Identifiers and sizes in the index.
    func indexedSizes() throws -> [String: Int64] {
        var items: [String: Int64] = [:]
        try index.forEachItem(domain: domain) { items[$0.item.uniqueIdentifier.lossyString] = $0.item.attributeSet.size; return true }
        return items
    }

    /// Waits until the index holds exactly `expected` (by identifier).
    @discardableResult
    func settles(to expected: Set<String>, timeout: TimeInterval = 60) async -> Bool {
        let settled = await eventually(timeout: timeout) { (try? Set(self.indexed())) == expected }
        if !settled { Issue.record("index \((try? self.indexed()) ?? []) never became \(expected.sorted())") }
        return settled
    }

    /// Waits until the index agrees with a fresh walk of the disk, names and sizes.
    @discardableResult
    func settlesToDisk(timeout: TimeInterval = 60) async -> Bool {
        await eventually(timeout: timeout) { (try? self.onDisk()) == (try? self.indexedSizes()) }
    }
}

