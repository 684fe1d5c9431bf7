import Dispatch
import Foundation
import Synchronization

/// The files of a folder handed to `threads` feeding threads, as the scan's inspector threads
/// feed the extraction workers: what document-bench and thumbnail-bench time.
public struct FolderRun: Sendable {
    /// The folder's files, hidden ones aside, sorted.
    public let names: [String]
    /// Their paths.
    public let paths: [String]

    public init(folder: String) throws {
        names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
        paths = names.map { folder + "/" + $0 }
    }

    /// What a run did.
    public struct Summary: Sendable {
        public var files = 0
        public var succeeded = 0
        public var failed: [String] = []
        /// The bytes the successful files produced.
        public var bytes = 0
        public var seconds = 0.0

        /// Prints each failure, then one line: counts, time, files per second, then `extra`.
        public func print(_ extra: String) {
            for failure in failed { Swift.print("failed: \(failure)") }
            Swift.print(String(format: "files=%d ok=%d failed=%d seconds=%.3f per_second=%.2f ",
                               files, succeeded, failed.count, seconds, Double(files) / seconds) + extra)
        }
    }

    /// Runs `work` on every file (by its index) from `threads` threads. `work` returns the
    /// bytes the file gave, or why it failed; with `output`, the bytes are written there as
    /// the file's name followed by `outputExtension`. Timed from `start` (by default, now).
    public func run(threads: Int, output: String?, outputExtension: String, timedFrom start: ContinuousClock.Instant = .now,
                    _ work: @Sendable (Int) -> Result<[UInt8], FailureText>) -> Summary {
        let totals = Mutex(Summary())
        let next = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < paths.count else { return }
                switch work(index) {
                case .success(let bytes):
                    if let output {
                        try? Data(bytes).write(to: URL(filePath: output).appending(path: names[index] + outputExtension))
                    }
                    totals.withLock {
                        $0.succeeded += 1
                        $0.bytes += bytes.count
                    }
                case .failure(let failure):
                    totals.withLock { $0.failed.append("\(names[index]): \(failure.text)") }
                }
            }
        }
        let elapsed = ContinuousClock.now - start
        var summary = totals.withLock { $0 }
        summary.files = paths.count
        summary.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return summary
    }
}

/// Why a file failed, as a run prints it.
public struct FailureText: Error {
    public var text: String
    public init(_ text: String) { self.text = text }
}

/// The command line of a folder run: `DIR [--workers N] [--out DIR]`, and a benchmark's own
/// options.
public struct FolderRunArguments {
    /// The folder whose files are run.
    public var folder = ""
    /// Feeding threads and workers.
    public var workers = 2
    /// Where each file's output is written, when given.
    public var output: String?
    /// The benchmark's own options by name, with their values (`""` for a flag).
    public var options: [String: String] = [:]

    /// Parses the command line; without a folder prints `usage` and exits 64. `flags` are
    /// options without a value.
    public init(usage: String, flags: Set<String> = [], _ arguments: [String] = Array(CommandLine.arguments.dropFirst())) {
        var arguments = arguments[...]
        while let argument = arguments.popFirst() {
            switch argument {
            case "--workers": workers = Int(arguments.popFirst() ?? "") ?? workers
            case "--out": output = arguments.popFirst()
            case _ where flags.contains(argument): options[argument] = ""
            case _ where argument.hasPrefix("--"): options[argument] = arguments.popFirst() ?? ""
            default: folder = argument
            }
        }
        guard !folder.isEmpty else {
            FileHandle.standardError.write(Data("usage: \(usage)\n".utf8))
            exit(64)
        }
    }
}
