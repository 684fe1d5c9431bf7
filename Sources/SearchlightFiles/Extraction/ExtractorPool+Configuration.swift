import SystemPackage

import SystemCalls

extension ExtractorPool {
    /// How many workers to run and how they are bounded.
    public struct Configuration: Sendable {
        /// Worker processes, hence files decoded at once. Default 2.
        public var workerCount: Int
        /// How long one file may take before its worker is killed. Default 10 s.
        public var deadline: Duration
        /// Each worker's address-space limit (`RLIMIT_AS`), in bytes; nil for none. Default 2 GiB.
        ///
        /// It is virtual memory, not resident memory: libvips, GLib and the C library
        /// reserve address space they never touch, so this is a ceiling against runaway
        /// decoders, not a budget.
        public var memoryLimit: Int?
        /// Raster images with more pixels than this are refused before decoding. Default 256 M.
        public var maxPixels: Int
        /// Longest edge of thumbnails in pixels. Default 256.
        public var thumbnailSize: Int
        /// WebP quality of thumbnails. Default 75.
        public var thumbnailQuality: Int
        /// The `searchlight-extractor` executable; nil to locate it (see ``resolvedExtractorPath()``).
        public var extractorPath: FilePath?
        /// How long a worker may take to exit after its input is closed, before it is killed.
        public var shutdownGracePeriod: Duration
        /// Variables added to the workers' environment, which otherwise holds only
        /// ``minimalEnvironment`` (the indexer's own environment is not passed on).
        public var environment: [String: String]
        /// The most bytes of UTF-8 text a document gives. Default 1 MiB.
        public var textLimit: Int
        /// Keep the workers' standard error (libvips warnings) instead of discarding it.
        public var inheritsStandardError: Bool
        /// How the workers read text in pictures (Docs/Contract.md#text-in-pictures).
        public var ocr = OCRSettings()
        /// The embedding model the workers load, on their first embedding request
        /// (Sources/Embedding; ``embed(_:role:format:)``).
        public var embedding = EmbeddingSettings()
        /// A file each worker appends a line of timings to for every file it decodes (kind,
        /// format, CPU and wall milliseconds, bytes of text, outcome, path); nil for none.
        public var timingsPath: String?

        /// A configuration; the defaults are the indexer's: two workers, 10 s and 2 GiB each,
        /// 256-pixel WebP thumbnails at quality 75, 1 MiB of text a document, the worker found as
        /// ``resolvedExtractorPath()`` says.
        public init(
            workerCount: Int = 2,
            deadline: Duration = .seconds(10),
            memoryLimit: Int? = 2 << 30,
            maxPixels: Int = 256_000_000,
            thumbnailSize: Int = 256,
            thumbnailQuality: Int = 75,
            extractorPath: FilePath? = nil,
            shutdownGracePeriod: Duration = .seconds(2),
            environment: [String: String] = [:],
            inheritsStandardError: Bool = false,
            textLimit: Int = 1 << 20
        ) {
            self.workerCount = max(1, workerCount)
            self.deadline = deadline
            self.memoryLimit = memoryLimit
            self.maxPixels = maxPixels
            self.thumbnailSize = thumbnailSize
            self.thumbnailQuality = thumbnailQuality
            self.extractorPath = extractorPath
            self.shutdownGracePeriod = shutdownGracePeriod
            self.environment = environment
            self.inheritsStandardError = inheritsStandardError
            self.textLimit = max(0, textLimit)
        }

        /// What every worker's environment holds: a fixed `PATH` (for the helper programs a
        /// worker may run) and a UTF-8 locale; nothing of the indexer's own environment, so
        /// that a user's variables cannot change how untrusted files are decoded.
        /// `OMP_THREAD_LIMIT=1` keeps Tesseract (OCR) to one thread in each worker: with its
    /// default OpenMP threads a page costs several times more on a shared machine.
    /// `SWIFT_BACKTRACE=enable=no`: the Swift runtime's backtracer cannot work in the
    /// worker's sandbox (it runs `swift-backtrace` to read the crashed process), and a crash
    /// must end as its own signal (`SIGABRT`), not as the sandbox's `SIGSYS`.
    public static let minimalEnvironment = [
        "PATH": "/usr/local/bin:/usr/bin:/bin", "LC_ALL": "C.UTF-8", "OMP_THREAD_LIMIT": "1",
        "SWIFT_BACKTRACE": "enable=no",
    ]

        /// The workers' environment: ``minimalEnvironment``, then ``environment``. In debug
        /// builds (those the tests run) `SEARCHLIGHT_EXTRACTOR_TEST_MODE` is passed on from the
        /// indexer's environment too; release builds neither pass it on nor obey it.
        var workerEnvironment: [String: String] {
            var result = Self.minimalEnvironment
            #if SEARCHLIGHT_TEST_HOOKS
            if let testMode = SystemCall.environmentValue("SEARCHLIGHT_EXTRACTOR_TEST_MODE") {
                result["SEARCHLIGHT_EXTRACTOR_TEST_MODE"] = testMode
            }
            #endif
            result.merge(environment) { _, added in added }
            return result
        }

        /// The extractor to run: ``extractorPath`` if set, else `$SEARCHLIGHT_EXTRACTOR`,
        /// else `searchlight-extractor` in the folder of the running executable
        /// (`/proc/self/exe`).
        public func resolvedExtractorPath() -> FilePath {
            if let extractorPath { return extractorPath }
            if let variable = SystemCall.environmentValue("SEARCHLIGHT_EXTRACTOR"), !variable.isEmpty {
                return FilePath(variable)
            }
            return FilePath(SystemCall.siblingExecutable("searchlight-extractor"))
        }

        /// The worker's command line after the executable.
        var workerArguments: [String] {
            var arguments = [
                "--max-pixels", String(max(0, maxPixels)),
                "--quality", String(min(max(thumbnailQuality, 0), 100)),
            ]
            if let memoryLimit, memoryLimit > 0 {
                arguments += ["--memory-limit", String(memoryLimit)]
            }
            if let timingsPath { arguments += ["--timings", timingsPath] }
            return arguments + ocr.workerArguments + embedding.workerArguments
        }
    }
}

extension Duration {
    /// "10 s", "1.5 s", "250 ms": for failure messages.
    var shortDescription: String {
        let milliseconds = components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        return "\(Double(milliseconds) / 1000) s"
    }

    var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
