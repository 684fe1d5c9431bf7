import Foundation
import Logging
import Searchlight
import SearchlightFiles
import SystemCalls

/// Which index a command opens, and how it logs: what ``IndexOptions`` parses, as a plain
/// value. `search`'s fast path (``SearchCommand/parseCommon(_:)``) makes one without making
/// swift-argument-parser's property wrappers, whose names are sets: the first use of each
/// such generic type scans every conformance record of the executable (start-up).
struct IndexChoice {
    /// `--index`.
    var index: String?
    /// `--verbose`.
    var verbose = false
    /// What the executable running the command adds (``Launchers``).
    var launchers = Launchers()

    /// `--index`, else `$SEARCHLIGHT_INDEX`: the index named for this command, when one is;
    /// then the configuration file's `index` is not read.
    var givenLocation: String? {
        index ?? ProcessInfo.processInfo.environment["SEARCHLIGHT_INDEX"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// ``givenLocation``, else the configuration file's `index`, else
    /// `$XDG_DATA_HOME/searchlight/index.sqlite`. `configuration` is the one a command loaded
    /// (`--config`); without it, the file at `$SEARCHLIGHT_CONFIG` or the default place is read
    /// when it exists, for its `index` alone (a mistake elsewhere in it is a warning).
    /// - Throws: an `ExitCode` (64) when that file's `index` cannot be read, its reason
    ///   already printed on standard error.
    func location(configuration: Configuration? = nil) throws -> String {
        if let givenLocation { return givenLocation }
        let environment = ProcessInfo.processInfo.environment
        let file = try configuration ?? CommandFailure.wrap {
            try Configuration.load(explicit: nil, environment: environment).usable(reading: [.index])
        }
        if let configured = file.index.value { return configured }
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
    func openForReading(configuration: Configuration? = nil) throws -> any FileIndexWriter {
        try open(readOnly: true, configuration: configuration)
    }

    /// Opens (or creates) the index for writing.
    func openForWriting(configuration: Configuration? = nil) throws -> any FileIndexWriter {
        try open(readOnly: false, configuration: configuration)
    }

    /// The SQLite file, or, for a `postgres://` URL, the shared index the executable's opener
    /// opens (``Launchers/openRemote``); without one, the command is handed over to `searchlight-serve`.
    private func open(readOnly: Bool, configuration: Configuration?) throws -> any FileIndexWriter {
        let location = try self.location(configuration: configuration)
        guard IndexLauncher.isRemote(location) else {
            return try CommandFailure.wrap {
                do {
                    return try SearchableIndex(path: location, readOnly: readOnly, logger: logger)
                } catch {
                    // Checked only after a failure: a search's start pays no look at the path.
                    if SystemCall.isFolder(location) {
                        throw CommandFailure.fail("\(location) is a folder: the index is a file, such as \(location)/index.sqlite",
                                                  code: 64)
                    }
                    throw error
                }
            }
        }
        guard let open = launchers.openRemote else { throw ServeLauncher.handOver() }
        return try CommandFailure.wrap { try open(location, readOnly, logger) }
    }
}
