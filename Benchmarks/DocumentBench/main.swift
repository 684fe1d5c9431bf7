// document-bench: reads the text of every file of a folder and prints one summary line.
// Used by Benchmarks/documents.sh next to `pdftotext` run with `xargs -P N`.
//
// Usage: document-bench DIR [--workers N] [--in-process] [--type MIME] [--out DIR]
//   Default: through ExtractorPool with N searchlight-extractor workers fed by N threads,
//   as a scan does. --in-process: RichDocumentExtractor on N threads in this process, no
//   workers (the extraction's own cost). --out writes each file's text as NAME.txt.

import DocumentExtraction
import Dispatch
import ExtractionProtocol
import Foundation
import Logging
import SearchlightFiles
import Synchronization

var arguments = Array(CommandLine.arguments.dropFirst())
var workers = 2
var inProcess = false
var contentType = "application/pdf"
var outputFolder: String?
var folder: String?
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--workers": workers = Int(arguments.removeFirst()) ?? 2
    case "--in-process": inProcess = true
    case "--type": contentType = arguments.removeFirst()
    case "--out": outputFolder = arguments.removeFirst()
    default: folder = argument
    }
}
guard let folder else {
    FileHandle.standardError.write(Data("usage: document-bench DIR [--workers N] [--in-process] [--type MIME] [--out DIR]\n".utf8))
    exit(64)
}
let output = outputFolder
let type = contentType

let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
let paths = names.map { folder + "/" + $0 }

struct Totals {
    var succeeded = 0
    var failed: [String] = []
    var textBytes = 0
}
let totals = Mutex(Totals())
let next = Atomic(0)
let clock = ContinuousClock()
let start = clock.now
// Photos' EXIF goes through libvips, which the worker starts; in process, start it here.
if inProcess { try PhotoMetadataExtractor.startLibvips() }
let pool = inProcess ? nil : try ExtractorPool(configuration: .init(workerCount: workers), logger: Logger(label: "bench"))

/// One file's text, through the pool or in process.
@Sendable func read(_ index: Int) -> Result<ExtractedDocument, any Error> {
    if let pool {
        return pool.document(ofFileAtPathBytes: Array(paths[index].utf8), contentType: type).mapError { $0 }
    }
    let descriptor = open(paths[index], O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return .failure(POSIXError(.ENOENT)) }
    defer { close(descriptor) }
    guard let format = DocumentFormat(contentType: type, fileName: Array(names[index].utf8)) else {
        return .failure(POSIXError(.EINVAL))
    }
    return Result { try RichDocumentExtractor().extract(descriptor: descriptor, format: format) }
}

// N feeding threads, like the scan's inspector threads.
DispatchQueue.concurrentPerform(iterations: workers) { _ in
    while true {
        let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
        guard index < paths.count else { return }
        switch read(index) {
        case .success(let document):
            if let output {
                try? Data(document.text.utf8).write(to: URL(filePath: output).appending(path: names[index] + ".txt"))
            }
            totals.withLock {
                $0.succeeded += 1
                $0.textBytes += document.text.utf8.count
            }
        case .failure(let failure):
            totals.withLock { $0.failed.append("\(names[index]): \(failure)") }
        }
    }
}
let elapsed = clock.now - start
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
pool?.shutdown()
let result = totals.withLock { $0 }
for failure in result.failed { print("failed: \(failure)") }
print(String(format: "files=%d ok=%d failed=%d seconds=%.3f per_second=%.2f text_bytes=%d",
             paths.count, result.succeeded, result.failed.count, seconds, Double(paths.count) / seconds, result.textBytes))
