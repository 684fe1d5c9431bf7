// thumbnail-bench: thumbnails every file of a folder through ExtractorPool with N
// workers, fed by N threads, and prints one summary line. Used by
// Benchmarks/thumbnails.sh next to `vipsthumbnail` run with `xargs -P N`.
//
// Usage: thumbnail-bench DIR [--workers N] [--out DIR]

import Dispatch
import Foundation
import Logging
import SearchlightFiles
import Synchronization
import SystemPackage

var arguments = Array(CommandLine.arguments.dropFirst())
var workers = 2
var outputFolder: String?
var folder: String?
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--workers": workers = Int(arguments.removeFirst()) ?? 2
    case "--out": outputFolder = arguments.removeFirst()
    default: folder = argument
    }
}
let output = outputFolder
guard let folder else {
    FileHandle.standardError.write(Data("usage: thumbnail-bench DIR [--workers N] [--out DIR]\n".utf8))
    exit(64)
}

let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
let paths = names.map { FilePath(folder).appending($0) }
let pool = try ExtractorPool(configuration: .init(workerCount: workers), logger: Logger(label: "bench"))

struct Totals {
    var succeeded = 0
    var failed: [String] = []
    var bytes = 0
}
let totals = Mutex(Totals())
let next = Atomic(0)
let clock = ContinuousClock()
let start = clock.now
// N feeding threads, like the scan's inspector threads.
DispatchQueue.concurrentPerform(iterations: workers) { _ in
    while true {
        let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
        guard index < paths.count else { return }
        switch pool.thumbnail(ofFileAt: paths[index]) {
        case .success(let extracted):
            if let output {
                try? Data(extracted.thumbnail.bytes).write(to: URL(filePath: output).appending(path: names[index] + ".webp"))
            }
            totals.withLock {
                $0.succeeded += 1
                $0.bytes += extracted.thumbnail.bytes.count
            }
        case .failure(let failure):
            totals.withLock { $0.failed.append("\(names[index]): \(failure.message)") }
        }
    }
}
let elapsed = clock.now - start
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
pool.shutdown()
let result = totals.withLock { $0 }
for failure in result.failed { print("failed: \(failure)") }
print(String(format: "files=%d ok=%d failed=%d seconds=%.3f per_second=%.2f average_bytes=%d",
             paths.count, result.succeeded, result.failed.count, seconds,
             Double(paths.count) / seconds, result.succeeded > 0 ? result.bytes / result.succeeded : 0))
