import ArgumentParser
import Foundation
import Logging
import SearchlightJSON
import SystemCalls

/// `searchlight-desktop`: GNOME Shell's search provider and KRunner's runner, on the session
/// bus as `org.searchlight.Desktop`. D-Bus starts it on the first search (its `.service` files)
/// and it exits after a few idle minutes.
/// Run by `searchlight-serve` when it is started as `searchlight-desktop` (see Package.swift),
/// through ``main(settings:)``.
///
/// The service is single-threaded: ``run()`` serves the bus's calls one after the other on
/// the calling thread, each search reading the index read-only, until the bus connection
/// closes or the idle timeout passes. Thumbnails of results are made by the extraction
/// worker, as PNG, and cached.
///
/// ```
/// searchlight-desktop --verbose --idle-timeout 0    # serve until killed, logging each call
/// searchlight-desktop --open-page                   # what the search provider's "more results" does
/// ```
///
/// ## Topics
///
/// ### Running the service
///
/// - ``main(settings:)``
/// - ``DesktopSettings``
/// - ``configuration``
/// - ``validate()``
/// - ``run()``
public struct DesktopCommand: ParsableCommand {
    /// The well-known name the service owns on the session bus; its D-Bus `.service` files name
    /// it, so that the first search starts the service.
    static let busName = "org.searchlight.Desktop"

    /// The command before parsing, as swift-argument-parser makes it.
    public init() {}

    /// What the executable running the service gives it (``main(settings:)``); not an option.
    var settings: DesktopSettings?

    private enum CodingKeys: String, CodingKey {
        case index, idleTimeout, port, openPage, verbose
    }

    /// Parses the arguments and runs the service with `settings`, exiting as ``main()`` does.
    ///
    /// Never returns normally after an error: a failure exits the process with its status, as
    /// swift-argument-parser's `exit(withError:)` does.
    ///
    /// - Parameter settings: How to find the index and the model, from the executable.
    public static func main(settings: DesktopSettings) {
        do {
            var parsed = try parseAsRoot()
            guard var command = parsed as? DesktopCommand else {
                // `--help` comes back as the parser's help command, which prints it.
                return try parsed.run()
            }
            command.settings = settings
            try command.run()
        } catch {
            exit(withError: error)
        }
    }

    /// The name, and the help text: what the service answers, and when it exits.
    public static let configuration = CommandConfiguration(
        commandName: "searchlight-desktop",
        abstract: "Answer GNOME Shell's and KRunner's searches from the index, on the session bus.",
        discussion: """
            Started by D-Bus (org.searchlight.Desktop) when the desktop first asks; serves \
            org.gnome.Shell.SearchProvider2 at \(SearchProvider.objectPath) and org.kde.krunner1 \
            at \(KRunnerRunner.objectPath), reading the index read-only, and exits after \
            --idle-timeout seconds without a call. With --open-page it opens the search page \
            instead (starting `searchlight serve` when none answers) and exits.
            """
    )

    @Option(help: ArgumentHelp("The index file, or a postgres://USER@HOST:PORT/DATABASE URL (default: as searchlight's).",
                               valueName: "path-or-url"))
    /// `--index`: the index to read, else the one `searchlight` would use.
    var index: String?

    @Option(help: ArgumentHelp("Seconds without a call before exiting; 0: never (default: $SEARCHLIGHT_DESKTOP_IDLE_TIMEOUT, else 300).",
                               valueName: "seconds"))
    /// `--idle-timeout`, in seconds; `nil` leaves it to the environment or the default.
    var idleTimeout: UInt32?

    @Option(help: ArgumentHelp("The port of the search page (`searchlight serve --port`; default: $SEARCHLIGHT_DESKTOP_PORT, else \(ServerDefaults.port)).",
                               valueName: "port"))
    /// `--port`: where the search page listens, for "open the page".
    var port: Int?

    /// `--open-page`: open the search page and exit.
    @Flag(help: "Open the search page in the browser and exit.")
    var openPage = false

    /// `--verbose`: debug logging on standard error (each call and each failure).
    @Flag(name: .shortAndLong, help: "Log each call on standard error.")
    var verbose = false

    /// Refuses a port outside 1–65535 and an idle timeout in the environment that is not a number
    /// of seconds, before anything starts.
    public func validate() throws {
        if !(1...65535).contains(pagePort) { throw ValidationError("--port or $SEARCHLIGHT_DESKTOP_PORT must be between 1 and 65535.") }
        if idleTimeout == nil, let value = ProcessInfo.processInfo.environment["SEARCHLIGHT_DESKTOP_IDLE_TIMEOUT"],
           !value.isEmpty, UInt32(value) == nil {
            throw ValidationError("$SEARCHLIGHT_DESKTOP_IDLE_TIMEOUT must be a whole number of seconds.")
        }
    }

    /// Serves the search providers on the session bus until idle, or opens the page and exits
    /// (`--open-page`).
    ///
    /// - Throws: `ExitCode.failure` after a line on standard error when the bus cannot be used
    ///   (no session bus, the name taken) or the page cannot be opened; the index's location
    ///   error when it cannot be worked out.
    public func run() throws {
        guard let settings else { preconditionFailure("searchlight-desktop runs through DesktopCommand.main(settings:)") }
        var logger = Logger(label: "searchlight-desktop") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = verbose ? .debug : .warning
        let location = try settings.indexLocation(index)
        let page = PageLauncher(location: location, port: pagePort, serveExecutable: SystemCall.siblingExecutable("searchlight-serve"))
        if openPage {
            do {
                try page.open(terms: [])
            } catch {
                FileHandle.standardError.write(Data("searchlight-desktop: \(error)\n".utf8))
                throw ExitCode.failure
            }
            return
        }
        let thumbnails = ThumbnailCache(make: ExtractorThumbnails(logger: logger).png)
        let search = DesktopSearch(location: location, questionEncoder: settings.questionEncoder(), thumbnails: thumbnails,
                                   logger: logger)
        let provider = SearchProvider(search: search, page: page)
        let runner = KRunnerRunner(search: search)
        do {
            let service = try BusService { call in
                logger.debug("\(call.interface).\(call.method)")
                do throws(DesktopError) {
                    switch call.interface {
                    case SearchProvider.interface: try provider.handle(call)
                    case KRunnerRunner.interface: try runner.handle(call)
                    default: throw DesktopError.invalid("no interface \(call.interface)")
                    }
                } catch {
                    logger.debug("\(call.method) failed: \(error)")
                    call.replyError(error.name, error.description)
                }
            }
            try service.register(xml: SearchProvider.introspection, interface: SearchProvider.interface,
                                 path: SearchProvider.objectPath)
            try service.register(xml: KRunnerRunner.introspection, interface: KRunnerRunner.interface,
                                 path: KRunnerRunner.objectPath)
            try service.run(name: Self.busName, idleSeconds: idleSeconds)
        } catch {
            FileHandle.standardError.write(Data("searchlight-desktop: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }

    /// The search page's port: `--port`, else `$SEARCHLIGHT_DESKTOP_PORT` (when a number), else
    /// ``SearchlightJSON/ServerDefaults/port``.
    var pagePort: Int {
        port ?? ProcessInfo.processInfo.environment["SEARCHLIGHT_DESKTOP_PORT"].flatMap { Int($0) } ?? ServerDefaults.port
    }

    /// Seconds without a call before the service exits: `--idle-timeout`, else
    /// `$SEARCHLIGHT_DESKTOP_IDLE_TIMEOUT`, else 300; 0 never exits.
    var idleSeconds: UInt32 {
        idleTimeout ?? ProcessInfo.processInfo.environment["SEARCHLIGHT_DESKTOP_IDLE_TIMEOUT"].flatMap { UInt32($0) } ?? 300
    }

}
