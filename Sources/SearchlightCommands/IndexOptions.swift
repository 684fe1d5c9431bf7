import ArgumentParser
import Foundation
import Logging
import Searchlight
import SearchlightFiles
import Synchronization

/// `--index PATH|URL`, shared by every subcommand.
struct IndexOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The index file, or a postgres://USER@HOST:PORT/DATABASE URL.",
                                            valueName: "path-or-url"))
    var index: String?

    @Flag(name: .shortAndLong, help: "Log what is done, file by file.")
    var verbose = false

    /// What the executable running the command adds (``Launchers``); not an option.
    var launchers = Launchers()

    private enum CodingKeys: String, CodingKey {
        case index, verbose
    }

    /// The index these options choose, as a plain value (``IndexChoice``).
    var choice: IndexChoice { IndexChoice(index: index, verbose: verbose, launchers: launchers) }

    /// See ``IndexChoice/location(configuration:)``.
    func location(configuration: Configuration? = nil) throws -> String {
        try choice.location(configuration: configuration)
    }

    var logger: Logger { choice.logger }

    /// Opens the index for reading; a missing index is a failure with a hint.
    func openForReading(configuration: Configuration? = nil) throws -> any FileIndexWriter {
        try choice.openForReading(configuration: configuration)
    }

    /// Opens (or creates) the index for writing.
    func openForWriting(configuration: Configuration? = nil) throws -> any FileIndexWriter {
        try choice.openForWriting(configuration: configuration)
    }
}

/// How a command opens an index that is not a file: the PostgreSQL index of Docs/Contract.md#shared-index, which
/// needs SwiftNIO and postgres-nio, linked by the executables (not by this module) and given
/// as ``Launchers/openRemote``. A command given no opener runs `searchlight-serve` with the
/// same arguments (as for `serve`, see ``ServeLauncher``).
public enum IndexLauncher {
    /// Opens `location` (read-only or not), logging to the logger given.
    public typealias Opener = @Sendable (_ location: String, _ readOnly: Bool, _ logger: Logger) throws -> any FileIndexWriter

    /// Whether `location` names a PostgreSQL database (`postgres://` or `postgresql://`), not a file.
    public static func isRemote(_ location: String) -> Bool {
        location.hasPrefix("postgres://") || location.hasPrefix("postgresql://")
    }
}
