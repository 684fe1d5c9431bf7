import ArgumentParser
import Foundation
import Logging
import Searchlight

/// `--index PATH`, shared by every subcommand.
struct IndexOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The index file.", valueName: "path"))
    var index: String?

    @Flag(name: .shortAndLong, help: "Log what is done, file by file.")
    var verbose = false

    /// `--index`, else `$SEARCHLIGHT_INDEX`, else `$XDG_DATA_HOME/searchlight/index.sqlite`.
    var indexPath: String {
        if let index { return index }
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["SEARCHLIGHT_INDEX"], !path.isEmpty { return path }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return dataHome + "/searchlight/index.sqlite"
    }

    var logger: Logger {
        var logger = Logger(label: "searchlight") { _ in ConsoleLogHandler() }
        logger.logLevel = verbose ? .debug : .warning
        return logger
    }

    /// Opens the index for reading; a missing index is a failure with a hint.
    func openForReading() throws -> SearchableIndex {
        try CommandFailure.wrap { try SearchableIndex(path: indexPath, readOnly: true, logger: logger) }
    }

    /// Opens (or creates) the index for writing.
    func openForWriting() throws -> SearchableIndex {
        try CommandFailure.wrap { try SearchableIndex(path: indexPath, logger: logger) }
    }
}
