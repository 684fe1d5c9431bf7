import ArgumentParser
import Logging
import SearchlightFiles

/// `--no-thumbnails` and the decoders' limits, for `scan` and `watch`.
struct ThumbnailOptions: ParsableArguments {
    @Flag(help: "Do not make thumbnails.")
    var noThumbnails = false

    @Option(help: ArgumentHelp("Seconds a decoder may spend on one file before it is killed.", valueName: "seconds"))
    var decoderDeadline: Int = 10

    func validate() throws {
        if decoderDeadline < 1 { throw ValidationError("--decoder-deadline must be at least 1 second.") }
    }

    /// Starts the extraction workers, unless thumbnails are off.
    func makeThumbnailer(workers: Int, logger: Logger) throws -> Thumbnailer? {
        if noThumbnails { return nil }
        var configuration = ExtractorPool.Configuration()
        configuration.workerCount = workers
        configuration.deadline = .seconds(decoderDeadline)
        do {
            return try Thumbnailer(configuration: configuration, logger: logger)
        } catch {
            throw CommandFailure.fail("cannot start the thumbnail workers (\(error)); use --no-thumbnails to scan without")
        }
    }
}
