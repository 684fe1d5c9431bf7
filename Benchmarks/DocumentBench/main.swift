// document-bench: reads the text of every file of a folder and prints one summary line.
// Used by Benchmarks/documents.sh next to `pdftotext` run with `xargs -P N`.
//
// Usage: document-bench DIR [--workers N] [--in-process] [--type MIME] [--out DIR]
//   Default: through ExtractorPool with N searchlight-extractor workers fed by N threads,
//   as a scan does. --in-process: RichDocumentExtractor on N threads in this process, no
//   workers (the extraction's own cost). --out writes each file's text as NAME.txt.

import BenchmarkSupport
import DocumentExtraction
import ExtractionProtocol
import Foundation
import Logging
import SearchlightFiles

let arguments = FolderRunArguments(usage: "document-bench DIR [--workers N] [--in-process] [--type MIME] [--out DIR]",
                                   flags: ["--in-process"])
let workers = arguments.workers
let inProcess = arguments.options["--in-process"] != nil
let type = arguments.options["--type"] ?? "application/pdf"

let files = try FolderRun(folder: arguments.folder)
// Timed from here: starting the workers (or libvips) counts.
let start = ContinuousClock.now
// Photos' EXIF goes through libvips, which the worker starts; in process, start it here.
if inProcess { try PhotoMetadataExtractor.startLibvips() }
let pool = inProcess ? nil : ExtractorPool(configuration: .init(workerCount: workers), logger: Logger(label: "bench"))

/// One file's text, through the pool or in process.
@Sendable func read(_ index: Int) -> Result<ExtractedDocument, any Error> {
    if let pool {
        return pool.document(ofFileAtPathBytes: Array(files.paths[index].utf8), contentType: type).mapError { $0 }
    }
    let descriptor = open(files.paths[index], O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return .failure(POSIXError(.ENOENT)) }
    defer { close(descriptor) }
    guard let format = DocumentFormat(contentType: type, fileName: Array(files.names[index].utf8)) else {
        return .failure(POSIXError(.EINVAL))
    }
    return Result { try RichDocumentExtractor().extract(descriptor: descriptor, format: format) }
}

let summary = files.run(threads: workers, output: arguments.output, outputExtension: ".txt", timedFrom: start) { index in
    read(index).map { Array($0.text.utf8) }.mapError { FailureText("\($0)") }
}
pool?.shutdown()
summary.print("text_bytes=\(summary.bytes)")
