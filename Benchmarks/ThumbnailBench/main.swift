// thumbnail-bench: thumbnails every file of a folder through ExtractorPool with N
// workers, fed by N threads, and prints one summary line. Used by
// Benchmarks/thumbnails.sh next to `vipsthumbnail` run with `xargs -P N`.
//
// Usage: thumbnail-bench DIR [--workers N] [--out DIR]

import BenchmarkSupport
import Foundation
import Logging
import SearchlightFiles
import SystemPackage

let arguments = FolderRunArguments(usage: "thumbnail-bench DIR [--workers N] [--out DIR]")
let workers = arguments.workers
let files = try FolderRun(folder: arguments.folder)
let pool = ExtractorPool(configuration: .init(workerCount: workers), logger: Logger(label: "bench"))
let summary = files.run(threads: workers, output: arguments.output, outputExtension: ".webp") { index in
    pool.thumbnail(ofFileAt: FilePath(files.paths[index])).map(\.thumbnail.bytes).mapError { FailureText($0.message) }
}
pool.shutdown()
summary.print(String(format: "average_bytes=%d", summary.succeeded > 0 ? summary.bytes / summary.succeeded : 0))
