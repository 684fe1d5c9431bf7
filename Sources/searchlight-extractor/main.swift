// searchlight-extractor: the worker process that decodes untrusted files for the
// indexer. It reads ExtractionRequest frames on standard input, answers each with
// one ExtractionResponse frame on standard output, and exits at end of input.
// The indexer (ExtractorPool in SearchlightFiles) enforces deadlines and
// restarts it when it hangs or crashes; this process only bounds its own memory.
//
// Usage: searchlight-extractor [--memory-limit BYTES] [--max-pixels N] [--quality Q] [--timings FILE]
//                              [--temporary-folder FOLDER]

import DocumentExtraction
import SystemCalls

let options: ExtractorOptions
do throws(WorkerError) {
    options = try ExtractorOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    printError("searchlight-extractor: \(error)\n")
    SystemCall.exit(error.exitStatus)
}

if let limit = options.memoryLimit {
    do throws(WorkerError) {
        try setAddressSpaceLimit(limit)
    } catch {
        printError("searchlight-extractor: \(error)\n")
        SystemCall.exit(error.exitStatus)
    }
}

// No core files from hostile inputs, and a crash ends the process at once.
disableCoreDumps()

let timings: ExtractorTimings?
do throws(WorkerError) {
    timings = try options.timingsPath.map { path throws(WorkerError) in try ExtractorTimings(path: path) }
} catch {
    printError("searchlight-extractor: \(error)\n")
    SystemCall.exit(error.exitStatus)
}

// The file system's confinement before any thread starts (Landlock binds the threads that
// start after it), the system calls' once libvips has started: from here on the worker
// reads only what comes over its socket.
if options.unconfined {
    printError("searchlight-extractor: warning: --unconfined: no sandbox (for measuring its cost only)\n")
    if let folder = options.temporaryFolder { SystemCall.setEnvironmentValue("TMPDIR", to: folder) }
} else {
    ExtractorSandbox.confineFiles(temporaryFolder: options.temporaryFolder,
                                  readable: options.embeddingModelFolder.map { [$0] } ?? [])
}
exitWhenOrphaned()

if let reason = ImageThumbnail.startLibVips(programName: CommandLine.unsafeArgv[0]!) {
    printError("searchlight-extractor: cannot start libvips: \(reason)\n")
    SystemCall.exit(1)
}
if !options.unconfined { ExtractorSandbox.confineSystemCalls() }

let worker = ExtractorWorker(options: options, testMode: ExtractorTestMode(environment: SystemCall.environmentValue("SEARCHLIGHT_EXTRACTOR_TEST_MODE")),
                             timings: timings, embedder: TextEmbedder(folder: options.embeddingModelFolder))
SystemCall.exit(worker.run(input: 0, output: 1))
