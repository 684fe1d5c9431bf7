import ArgumentParser
import Foundation
import Logging
import Searchlight
import SearchlightFiles
import SearchlightServer
import ServiceLifecycle

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the search page and the JSON API (http://127.0.0.1:8765 by default).",
        discussion: """
            Alone it only reads the index. With --watch it also follows the folders given (by \
            default every folder the index holds) in the same process. Any --host other than a \
            loopback address needs a token, which every request must then carry: open the page \
            as http://HOST:PORT/?token=TOKEN. The API is described at /api/openapi.json.
            """
    )

    @Argument(help: "With --watch, the folders to watch (default: every folder already in the index).")
    var roots: [String] = []

    @Option(help: ArgumentHelp("The address to listen on (default: the configuration's, else 127.0.0.1).",
                               valueName: "address"))
    var host: String?

    @Option(help: ArgumentHelp("The port to listen on (0: any free port; default: the configuration's, else 8765).",
                               valueName: "port"))
    var port: Int?

    @Option(help: ArgumentHelp("A token every request must carry (default: $SEARCHLIGHT_TOKEN); required off loopback.",
                               valueName: "token"))
    var token: String?

    @Option(help: ArgumentHelp("Seconds a search or query may run before it is stopped.", valueName: "seconds"))
    var queryTimeout: Double = 5

    @Flag(help: "Also watch the folders and keep the index up to date.")
    var watch = false

    @Option(help: ArgumentHelp("With --watch and one folder: the domain of its items.", valueName: "name"))
    var domain: String?

    @OptionGroup var thumbnails: ThumbnailOptions
    @OptionGroup var configurationOptions: ConfigurationOptions
    @OptionGroup var indexOptions: IndexOptions

    func validate() throws {
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be between 0 and 65535.") }
        if !(queryTimeout > 0) { throw ValidationError("--query-timeout must be more than 0 seconds.") }
        if !roots.isEmpty && !watch { throw ValidationError("Folders are watched only with --watch.") }
        if domain != nil && roots.count != 1 { throw ValidationError("--domain needs exactly one folder.") }
    }

    /// `--token`, else `$SEARCHLIGHT_TOKEN`, else the configuration's.
    func effectiveToken(_ configuration: Configuration) -> String? {
        token ?? ProcessInfo.processInfo.environment["SEARCHLIGHT_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
            ?? configuration.server.token.value.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The server's settings: the options, else the configuration file's `[server]`.
    func serverConfiguration(_ file: Configuration) throws -> SearchServer.Configuration {
        var configuration = SearchServer.Configuration()
        configuration.host = host ?? file.server.host.value
        configuration.port = port ?? file.server.port.value
        configuration.token = effectiveToken(file)
        if !ServerAddress.isLoopback(configuration.host) && (configuration.token ?? "").isEmpty {
            throw CommandFailure.fail("--host \(configuration.host) is not a loopback address: give --token TOKEN "
                                      + "(or $SEARCHLIGHT_TOKEN) that every request must carry", code: 64)
        }
        configuration.queryTimeout = .milliseconds(Int64(queryTimeout * 1000))
        return configuration
    }

    func run() async throws {
        var logger = indexOptions.logger
        if !indexOptions.verbose { logger.logLevel = .notice }
        var file = try configurationOptions.load()
        thumbnails.apply(to: &file)
        let configuration = try serverConfiguration(file)
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        if watch {
            // The watcher creates the index when there is none yet: open it for writing first.
            let index = try indexOptions.openForWriting()
            let folders = try watchedFolders(index: index)
            let extraction = try ThumbnailOptions.makeExtraction(
                file, workers: FolderScanner.Options(domain: "").inspectorCount, index: index, logger: logger)
            // A group shuts its services down last to first: the watchers finish their windows,
            // then the extraction workers they use are shut down.
            if let extraction { services.append(.init(service: ShutdownService { extraction.shutdown() })) }
            for (root, domain) in folders {
                var options = FolderWatcher.Options(scan: FolderScanner.Options(domain: domain))
                do {
                    let watcher = try FolderWatcher(index: index, root: root, options: options, logger: logger,
                                                    enricher: extraction?.enricher,
                                                    notifier: SystemdNotifier(environment: ProcessInfo.processInfo.environment))
                    services.append(.init(service: watcher))
                } catch {
                    throw CommandFailure.fail("cannot start watching \(root.path): \(error)")
                }
            }
        }
        let server: SearchServer
        do {
            server = try SearchServer(indexPath: indexOptions.indexPath, configuration: configuration, logger: logger) { host, port in
                let shown = host.contains(":") ? "[\(host)]" : host
                let suffix = configuration.token.map { "?token=" + $0 } ?? ""
                let output = StandardOutput()
                output.write("searchlight: serving http://\(shown):\(port)/\(suffix)\n")
                output.flush()
            }
        } catch let error as SearchServer.ConfigurationError {
            throw CommandFailure.fail("\(error)", code: 64)
        } catch {
            _ = try CommandFailure.wrap { throw error }
            throw error
        }
        services.append(.init(service: server))
        var quiet = logger
        quiet.logLevel = .warning
        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: quiet))
        do {
            try await group.run()
        } catch let error as ExitCode {
            throw error
        } catch {
            throw CommandFailure.fail("\(error)")
        }
    }

    /// The folders to watch with their domains: those given, else every root the index holds.
    func watchedFolders(index: SearchableIndex) throws -> [(RootFolder, String)] {
        if !roots.isEmpty {
            return try roots.map { path in
                let root = try CommandFailure.wrap { try RootFolder(path: path) }
                return (root, domain ?? root.path)
            }
        }
        let states = try CommandFailure.wrap { try index.domainStates() }
        let known = states.compactMap { domain, json in DomainState(json: json).map { (domain, $0.root) } }
        if known.isEmpty { throw CommandFailure.fail("nothing to watch: give a folder (searchlight serve --watch FOLDER)", code: 64) }
        return try known.sorted { $0.0 < $1.0 }.map { domain, path in
            (try CommandFailure.wrap { try RootFolder(path: path) }, domain)
        }
    }
}
