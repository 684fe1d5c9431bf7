import Dispatch
import ExtractionProtocol
import Foundation
import Logging
import Searchlight
import SearchlightFiles
import SystemPackage
import Synchronization
import SearchlightTestSupport
import Testing

@Suite("Thumbnails through supervised extractor workers", .ownThread)
struct ExtractorPoolTests {
    static let fixtures = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Fixtures")

    static func fixture(_ name: String) -> FilePath {
        FilePath(fixtures.appending(path: name).path)
    }

    static func makePool(
        workers: Int = 1,
        deadline: Duration = .seconds(10),
        memoryLimit: Int? = 2 << 30,
        testMode: String? = nil
    ) throws -> ExtractorPool {
        var configuration = ExtractorPool.Configuration(workerCount: workers, deadline: deadline, memoryLimit: memoryLimit)
        if let testMode { configuration.environment["SEARCHLIGHT_EXTRACTOR_TEST_MODE"] = testMode }
        // The default location is the folder of the running executable: the test
        // bundle sits next to `searchlight-extractor` in .build/debug.
        return ExtractorPool(configuration: configuration, logger: Logger(label: "test"))
    }

    /// Expects a thumbnail whose WebP header agrees with its stated size and with `original`.
    static func expectThumbnail(
        _ result: Result<ExtractedThumbnail, ExtractionFailure>,
        original: (width: Int, height: Int),
        knowsPixelSize: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard case .success(let extracted) = result else {
            Issue.record("expected a thumbnail, got \(result)", sourceLocation: sourceLocation)
            return
        }
        let thumbnail = extracted.thumbnail
        #expect(thumbnail.format == "webp", sourceLocation: sourceLocation)
        let header = WebPHeader(thumbnail.bytes)
        #expect(header == WebPHeader(width: thumbnail.width, height: thumbnail.height), sourceLocation: sourceLocation)
        #expect(max(thumbnail.width, thumbnail.height) == min(256, max(original.width, original.height)), sourceLocation: sourceLocation)
        // Aspect preserved to within a pixel of rounding.
        let expectedHeight = Double(original.height) * Double(thumbnail.width) / Double(original.width)
        #expect(abs(Double(thumbnail.height) - expectedHeight) <= 1, sourceLocation: sourceLocation)
        if knowsPixelSize {
            #expect(extracted.pixelWidth == original.width, sourceLocation: sourceLocation)
            #expect(extracted.pixelHeight == original.height, sourceLocation: sourceLocation)
        } else {
            #expect(extracted.pixelWidth == nil && extracted.pixelHeight == nil, sourceLocation: sourceLocation)
        }
    }

    static func expectFailure(
        _ result: Result<ExtractedThumbnail, ExtractionFailure>,
        _ reason: ExtractionFailure.Reason,
        containing text: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard case .failure(let failure) = result else {
            Issue.record("expected a failure (\(reason)), got a thumbnail", sourceLocation: sourceLocation)
            return
        }
        #expect(failure.reason == reason, "\(failure.message)", sourceLocation: sourceLocation)
        #expect(text.isEmpty || failure.message.contains(text), "\(failure.message)", sourceLocation: sourceLocation)
        #expect(!failure.message.contains("\n"), sourceLocation: sourceLocation)
    }

    @Test("Raster formats give a WebP of at most 256 px with the aspect kept",
          arguments: ["photo.jpg", "photo.png", "photo.gif", "photo.webp", "photo.heic", "photo.avif", "photo.jxl"])
    func rasterFormats(name: String) throws {
        let pool = try Self.makePool()
        defer { pool.shutdown() }
        Self.expectThumbnail(pool.thumbnail(ofFileAt: Self.fixture(name)), original: (400, 300))
    }

    @Test("A portrait TIFF keeps its orientation")
    func portraitTIFF() throws {
        let pool = try Self.makePool()
        defer { pool.shutdown() }
        Self.expectThumbnail(pool.thumbnail(ofFileAt: Self.fixture("portrait.tif")), original: (300, 400))
    }

    @Test("A PDF's first page and an SVG are rendered at thumbnail size")
    func vectorFormats() throws {
        let pool = try Self.makePool()
        defer { pool.shutdown() }
        // A Letter page is 612×792 points; the SVG is 600×300.
        Self.expectThumbnail(pool.thumbnail(ofFileAt: Self.fixture("document.pdf")), original: (612, 792), knowsPixelSize: false)
        Self.expectThumbnail(pool.thumbnail(ofFileAt: Self.fixture("drawing.svg")), original: (600, 300), knowsPixelSize: false)
    }

    @Test("The stored bytes decode again as an image of the stated size")
    func thumbnailsDecode() throws {
        let pool = try Self.makePool()
        defer { pool.shutdown() }
        let folder = try TemporaryFolder()
        for name in ["photo.jpg", "document.pdf", "drawing.svg"] {
            guard case .success(let extracted) = pool.thumbnail(ofFileAt: Self.fixture(name)) else {
                Issue.record("no thumbnail for \(name)")
                continue
            }
            let copy = folder.url.appending(path: name + ".webp")
            try Data(extracted.thumbnail.bytes).write(to: copy)
            // libvips decodes our WebP; its header size must be the thumbnail's size.
            guard case .success(let again) = pool.thumbnail(ofFileAt: FilePath(copy.path)) else {
                Issue.record("the thumbnail of \(name) does not decode")
                continue
            }
            #expect(again.pixelWidth == extracted.thumbnail.width)
            #expect(again.pixelHeight == extracted.thumbnail.height)
        }
    }

    @Test("Bad files fail with a reason and the same worker carries on")
    func badFiles() throws {
        let pool = try Self.makePool(workers: 1)
        defer { pool.shutdown() }
        Self.expectFailure(pool.thumbnail(ofFileAt: Self.fixture("corrupt.png")), .decodeFailed, containing: "cannot decode")
        Self.expectFailure(pool.thumbnail(ofFileAt: Self.fixture("truncated.png")), .decodeFailed)
        Self.expectFailure(pool.thumbnail(ofFileAt: Self.fixture("truncated.pdf")), .decodeFailed)
        Self.expectFailure(pool.thumbnail(ofFileAt: Self.fixture("not-an-image.jpg")), .notAnImage, containing: "not an image")
        Self.expectFailure(pool.thumbnail(ofFileAt: Self.fixture("untrusted.ppm")), .notAnImage, containing: "not allowed")
        Self.expectFailure(pool.thumbnail(ofFileAt: Self.fixture("missing.jpg")), .unreadable, containing: "No such file")
        Self.expectFailure(pool.thumbnail(ofFileAt: Self.fixture("")), .unreadable)
        Self.expectThumbnail(pool.thumbnail(ofFileAt: Self.fixture("photo.jpg")), original: (400, 300))
    }

    @Test("A FIFO, a folder and a symbolic link are refused without blocking")
    func specialFiles() throws {
        let pool = try Self.makePool(workers: 1, deadline: .seconds(5))
        defer { pool.shutdown() }
        let folder = try TemporaryFolder()
        let fifo = folder.url.appending(path: "fifo.jpg").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let link = folder.url.appending(path: "link.jpg").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: Self.fixture("photo.jpg").string)
        Self.expectFailure(pool.thumbnail(ofFileAt: FilePath(fifo)), .unreadable, containing: "not a regular file")
        Self.expectFailure(pool.thumbnail(ofFileAt: FilePath(folder.url.path)), .unreadable)
        Self.expectFailure(pool.thumbnail(ofFileAt: FilePath(link)), .unreadable)
        Self.expectThumbnail(pool.thumbnail(ofFileAt: Self.fixture("photo.jpg")), original: (400, 300))
    }

    @Test("A decompression bomb is refused before decoding")
    func decompressionBomb() throws {
        let pool = try Self.makePool()
        defer { pool.shutdown() }
        Self.expectFailure(pool.thumbnail(ofFileAt: Self.fixture("bomb.png")), .tooLarge, containing: "50000x50000")
        Self.expectThumbnail(pool.thumbnail(ofFileAt: Self.fixture("photo.png")), original: (400, 300))
    }

    @Test("A file name that is not UTF-8 is passed through as bytes")
    func nonUTF8Name() throws {
        let pool = try Self.makePool()
        defer { pool.shutdown() }
        let folder = try TemporaryFolder()
        let name: [UInt8] = Array("caf".utf8) + [0xe9, 0xff] + Array("[1].jpg".utf8)
        let path = Array(folder.url.path.utf8) + [UInt8(ascii: "/")] + name
        let contents = try Data(contentsOf: Self.fixtures.appending(path: "photo.jpg"))
        let descriptor = (path + [0]).withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o600) }
        }
        try #require(descriptor >= 0)
        _ = contents.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        Self.expectThumbnail(pool.thumbnail(ofFileAtPathBytes: path), original: (400, 300))
    }

    @Test("A worker that hangs is killed at the deadline and the next files get thumbnails")
    func hangingWorker() throws {
        // A deadline that a debug worker decoding a photo meets even while the rest of the
        // suite loads both cores (1 s was missed so).
        let pool = try Self.makePool(workers: 1, deadline: .seconds(5), testMode: "hang-on:hang-here")
        defer { pool.shutdown() }
        let folder = try TemporaryFolder()
        let hanging = try folder.copy(Self.fixtures.appending(path: "photo.jpg"), as: "hang-here.jpg")
        Self.expectThumbnail(pool.thumbnail(ofFileAt: Self.fixture("photo.jpg")), original: (400, 300))
        Self.expectFailure(pool.thumbnail(ofFileAt: hanging), .timedOut, containing: "timed out after 5 s")
        Self.expectThumbnail(pool.thumbnail(ofFileAt: Self.fixture("photo.png")), original: (400, 300))
        Self.expectFailure(pool.thumbnail(ofFileAt: hanging), .timedOut)
        Self.expectThumbnail(pool.thumbnail(ofFileAt: Self.fixture("document.pdf")), original: (612, 792), knowsPixelSize: false)
    }

    @Test("A worker that crashes is restarted and the next files get thumbnails")
    func crashingWorker() throws {
        let pool = try Self.makePool(workers: 1, testMode: "crash-on:crash-here")
        defer { pool.shutdown() }
        let folder = try TemporaryFolder()
        let crashing = try folder.copy(Self.fixtures.appending(path: "photo.jpg"), as: "crash-here.jpg")
        Self.expectFailure(pool.thumbnail(ofFileAt: crashing), .crashed, containing: "extractor crashed (signal 6)")
        Self.expectThumbnail(pool.thumbnail(ofFileAt: Self.fixture("photo.jpg")), original: (400, 300))
        Self.expectFailure(pool.thumbnail(ofFileAt: crashing), .crashed)
        Self.expectFailure(pool.thumbnail(ofFileAt: crashing), .crashed)
        Self.expectThumbnail(pool.thumbnail(ofFileAt: Self.fixture("photo.webp")), original: (400, 300))
    }

    @Test("Many threads at once, with hangs and crashes among the files, all get an answer")
    func concurrentCallers() throws {
        let pool = try Self.makePool(workers: 2, deadline: .seconds(6), testMode: "hang-on:hang-here;crash-on:crash-here")
        defer { pool.shutdown() }
        let folder = try TemporaryFolder()
        let source = Self.fixtures.appending(path: "photo.jpg")
        let hanging = try folder.copy(source, as: "hang-here.jpg")
        let crashing = try folder.copy(source, as: "crash-here.jpg")
        let jobs: [FilePath] = (0..<24).map { index in
            switch index % 8 {
            case 3: hanging
            case 6: crashing
            default: Self.fixture(["photo.jpg", "photo.png", "photo.gif", "document.pdf"][index % 4])
            }
        }
        let results = Mutex<[Int: Result<ExtractedThumbnail, ExtractionFailure>]>([:])
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            let result = pool.thumbnail(ofFileAt: jobs[index])
            results.withLock { $0[index] = result }
        }
        let answers = results.withLock { $0 }
        #expect(answers.count == jobs.count)
        for (index, path) in jobs.enumerated() {
            let answer = try #require(answers[index])
            if path == hanging {
                Self.expectFailure(answer, .timedOut)
            } else if path == crashing {
                Self.expectFailure(answer, .crashed)
            } else if path.lastComponent?.string == "document.pdf" {
                Self.expectThumbnail(answer, original: (612, 792), knowsPixelSize: false)
            } else {
                Self.expectThumbnail(answer, original: (400, 300))
            }
        }
    }

    @Test("A worker that cannot live within its memory limit fails its jobs instead of hanging")
    func tinyMemoryLimit() throws {
        let pool = try Self.makePool(workers: 1, memoryLimit: 16 << 20)
        defer { pool.shutdown() }
        let result = pool.thumbnail(ofFileAt: Self.fixture("photo.jpg"))
        // It dies on the probe's small text file too: the workers are out, not the photo bad.
        Self.expectFailure(result, .unavailable, containing: "extractor crashed")
        #expect(pool.outageReason != nil)
    }

    @Test("After shutdown, calls fail at once as unavailable; shutdown twice is harmless")
    func shutdown() throws {
        let pool = try Self.makePool(workers: 2)
        Self.expectThumbnail(pool.thumbnail(ofFileAt: Self.fixture("photo.jpg")), original: (400, 300))
        pool.shutdown()
        pool.shutdown()
        let result = pool.thumbnail(ofFileAt: Self.fixture("photo.jpg"))
        Self.expectFailure(result, .unavailable)
        if case .failure(let failure) = result { #expect(failure.isTransient) }
    }

    @Test("A missing extractor is an outage: jobs fail as transient at once, and work once it is there")
    func missingExtractor() throws {
        let folder = TemporaryTree("missing-extractor")
        let path = folder.path + "/searchlight-extractor"
        let configuration = ExtractorPool.Configuration(workerCount: 1, extractorPath: FilePath(path))
        let pool = ExtractorPool(configuration: configuration, logger: Logger(label: "test"))
        defer { pool.shutdown() }
        let first = pool.thumbnail(ofFileAt: Self.fixture("photo.jpg"))
        Self.expectFailure(first, .unavailable, containing: "No such file")
        if case .failure(let failure) = first { #expect(failure.isTransient) }
        #expect(pool.outageReason?.contains(path) == true)
        // The executable arrives (an upgrade finishes): after the back-off, jobs work again.
        let real = ExtractorPool.Configuration().resolvedExtractorPath().string
        // Copied by another process: a writable descriptor of ours could leak into a child that a
        // concurrent test spawns, and the copy would stay "text file busy".
        shell("cp", real, path)
        var result = pool.thumbnail(ofFileAt: Self.fixture("photo.jpg"))
        waitUntil(timeout: 30, every: .milliseconds(100)) {
            if case .success = result { return true }
            result = pool.thumbnail(ofFileAt: Self.fixture("photo.jpg"))
            if case .success = result { return true }
            return false
        }
        Self.expectThumbnail(result, original: (400, 300))
        #expect(pool.outageReason == nil)
    }

    @Test("An extractor that crashes on every file is an outage, not the files' failure")
    func brokenExtractor() throws {
        // Every path holds a "/": this worker dies on every job, the probe's included.
        let pool = try Self.makePool(workers: 1, testMode: "crash-on:/")
        defer { pool.shutdown() }
        let result = pool.thumbnail(ofFileAt: Self.fixture("photo.jpg"))
        Self.expectFailure(result, .unavailable, containing: "fails on every file")
        // Later jobs fail at once, during the back-off, without a worker.
        Self.expectFailure(pool.thumbnail(ofFileAt: Self.fixture("photo.jpg")), .unavailable)
    }

    @Test("A worker that stops for want of its ICU data is an outage that says so")
    func workerWithoutICUData() throws {
        // What a release worker does before `main` when Foundation's ICU data is missing or
        // truncated (Sources/CShimFoundationICUData; .ci/check-install runs the real one so).
        let folder = TemporaryTree("worker-without-icu-data")
        folder.write("searchlight-extractor", "#!/bin/sh\necho 'cannot load Foundation ICU data' >&2\nexit 72\n")
        #expect(chmod(folder.path + "/searchlight-extractor", 0o755) == 0)
        let configuration = ExtractorPool.Configuration(workerCount: 1, extractorPath: FilePath(folder.path + "/searchlight-extractor"))
        let pool = ExtractorPool(configuration: configuration, logger: Logger(label: "test"))
        defer { pool.shutdown() }
        let result = pool.thumbnail(ofFileAt: Self.fixture("photo.jpg"))
        Self.expectFailure(result, .unavailable, containing: "exit status 72: its ICU data (lib/searchlight/icudt76l.dat) is missing or damaged; reinstall Searchlight")
        #expect(pool.outageReason?.contains("reinstall Searchlight") == true)
    }

    @Test("A file that crashes a working extractor is still that file's failure")
    func crashingFileIsBlamed() throws {
        let pool = try Self.makePool(workers: 1, testMode: "crash-on:photo.jpg")
        defer { pool.shutdown() }
        Self.expectFailure(pool.thumbnail(ofFileAt: Self.fixture("photo.jpg")), .crashed)
        #expect(pool.outageReason == nil)
    }

    @Test("The extractor is found next to the running executable by default")
    func defaultLocation() throws {
        let path = ExtractorPool.Configuration().resolvedExtractorPath()
        if ProcessInfo.processInfo.environment["SEARCHLIGHT_EXTRACTOR"] == nil {
            #expect(path.lastComponent == "searchlight-extractor")
            #expect(access(path.string, X_OK) == 0)
        }
        let explicit = ExtractorPool.Configuration(extractorPath: "/opt/x/searchlight-extractor")
        #expect(explicit.resolvedExtractorPath() == "/opt/x/searchlight-extractor")
    }
}

/// A temporary folder removed when the value is deinitialized.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appending(path: "searchlight-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func copy(_ source: URL, as name: String) throws -> FilePath {
        let destination = url.appending(path: name)
        try FileManager.default.copyItem(at: source, to: destination)
        return FilePath(destination.path)
    }
}

@Suite("Extraction workers' environment", .ownThread)
struct ExtractorEnvironmentTests {
    /// The environment of each child process of ours, as `NAME=value` strings.
    static func childEnvironments() throws -> [[String]] {
        let ourID = getpid()
        var environments: [[String]] = []
        for entry in try FileManager.default.contentsOfDirectory(atPath: "/proc") where entry.allSatisfy(\.isNumber) {
            guard let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // pid (comm) state ppid ...: the comm may hold spaces, so read after its ")".
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, pid_t(fields[1]) == ourID,
                  let environ = FileManager.default.contents(atPath: "/proc/\(entry)/environ") else { continue }
            environments.append(environ.split(separator: 0).map { String(decoding: $0, as: UTF8.self) })
        }
        return environments
    }

    @Test("Workers get a minimal environment, not the indexer's")
    func minimalEnvironment() throws {
        var configuration = ExtractorPool.Configuration(workerCount: 1)
        let probe = "SEARCHLIGHT_PROBE_\(UInt32.random(in: 0...UInt32.max))=1"
        configuration.environment[String(probe.dropLast(2))] = "1"
        let pool = ExtractorPool(configuration: configuration, logger: Logger(label: "test"))
        defer { pool.shutdown() }
        let ours = try #require(try Self.childEnvironments().first { $0.contains(probe) })
        // OMP_THREAD_LIMIT=1: Tesseract (OCR) on one thread in each worker; no Swift backtracer in the sandbox.
        #expect(Set(ours) == Set(["PATH=/usr/local/bin:/usr/bin:/bin", "LC_ALL=C.UTF-8", "OMP_THREAD_LIMIT=1",
                                  "SWIFT_BACKTRACE=enable=no", probe]))
        // The test process has variables of its own (HOME, at least): none reached the worker.
        #expect(ProcessInfo.processInfo.environment["HOME"] != nil)
        #expect(!ours.contains { $0.hasPrefix("HOME=") })
    }
}
