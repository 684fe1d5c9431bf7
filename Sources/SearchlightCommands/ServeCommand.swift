import ArgumentParser
import Foundation
import Logging
import Searchlight
import SearchlightFiles
import SearchlightJSON
import ServiceLifecycle
import SystemCalls

/// `searchlight serve`: the search page and the JSON API, optionally with the watchers of
/// `searchlight watch` in the same process.
///
/// `searchlight` itself links no web server: when its launchers have no server factory
/// (``ServeLauncher``), the command replaces the process with `searchlight-serve`, which runs
/// this same command with one. The server is the last service of the group, so on SIGTERM or
/// SIGINT the watchers finish their windows before it stops answering.
///
/// ```
/// searchlight serve --port 0
/// searchlight serve --watch ~/Documents --host 0.0.0.0 --token "$(openssl rand -hex 16)"
/// ```
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the search page and the JSON API (http://\(ServerDefaults.host):\(ServerDefaults.port) by default).",
        discussion: """
            Alone it only reads the index. With --watch it also follows the folders given (by \
            default every folder the index holds) in the same process. Any --host other than a \
            loopback address needs a token, which every request must then carry: open the page \
            as http://HOST:PORT/?token=TOKEN. The API is described at /api/openapi.json.
            """
    )

    /// The folders to watch with `--watch`.
    @Argument(help: "With --watch, the folders to watch (default: every folder already in the index).")
    var roots: [String] = []

    @Option(help: ArgumentHelp("The address to listen on (default: the configuration's, else \(ServerDefaults.host)).",
                               valueName: "address"))
    /// `--host`: where the page listens.
    var host: String?

    @Option(help: ArgumentHelp("The port to listen on (0: any free port; default: the configuration's, else \(ServerDefaults.port)).",
                               valueName: "port"))
    /// `--port`: 0 asks the system for a free port, printed once the server listens.
    var port: Int?

    @Option(help: ArgumentHelp("A token every request must carry (default: $SEARCHLIGHT_TOKEN); required off loopback.",
                               valueName: "token"))
    /// `--token`: what every request must carry.
    var token: String?

    /// `--query-timeout`, in seconds.
    @Option(help: ArgumentHelp("Seconds a search or query may run before it is stopped.", valueName: "seconds"))
    var queryTimeout: Double = ServerDefaults.queryTimeoutSeconds

    @Option(help: ArgumentHelp("Also answer Elasticsearch's search API for Samba's Spotlight backend (`spotlight backend = elasticsearch`) on this loopback port, or HOST:PORT (0: any free port).",
                               valueName: "[host:]port"))
    /// `--elasticsearch PORT` or `HOST:PORT`: the Samba endpoint.
    var elasticsearch: String?

    @Flag(inversion: .prefixedNo,
          help: ArgumentHelp("On a shared (postgres://) index, the default: each person signs in with their database role's name and password (HTTP Basic; loopback only, behind a TLS proxy for other machines) and sees what they may read. --no-sign-in: everyone who reaches the page sees what the server's own role sees (loopback only)."))
    /// `--sign-in` / `--no-sign-in`; `nil` leaves the default (on for a shared index).
    var signIn: Bool?

    /// `--watch`: run the watchers in this process too.
    @Flag(help: "Also watch the folders and keep the index up to date.")
    var watch = false

    /// `--domain`: the domain of the one folder given.
    @Option(help: ArgumentHelp("With --watch and one folder: the domain of its items.", valueName: "name"))
    var domain: String?

    @OptionGroup var thumbnails: ThumbnailOptions
    @OptionGroup var configurationOptions: ConfigurationOptions
    @OptionGroup var indexOptions: IndexOptions

    /// Checks the options against one another before anything is opened.
    ///
    /// - Throws: `ValidationError` (exit status 64) for a port out of range, a timeout that is
    ///   not positive, folders without `--watch`, `--domain` without exactly one folder, or an
    ///   `--elasticsearch` value that is neither a port nor `HOST:PORT`.
    func validate() throws {
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be between 0 and 65535.") }
        if !(queryTimeout > 0) { throw ValidationError("--query-timeout must be more than 0 seconds.") }
        if !roots.isEmpty && !watch { throw ValidationError("Folders are watched only with --watch.") }
        if domain != nil && roots.count != 1 { throw ValidationError("--domain needs exactly one folder.") }
        if let elasticsearch, Self.hostAndPort(elasticsearch) == nil {
            throw ValidationError("--elasticsearch takes a port or HOST:PORT, such as 9200 or 127.0.0.1:9200.")
        }
    }

    /// `PORT`, `HOST:PORT` or `[V6]:PORT`; the host is ``ServerDefaults/host`` when not given.
    ///
    /// The port is what follows the last `:`, so a bare IPv6 address must be bracketed:
    /// `[::1]:9200`.
    ///
    /// - Returns: The host (brackets removed) and the port, or `nil` when the port is not a
    ///   number from 0 to 65535, the host is empty, or it is an IPv6 address without brackets.
    static func hostAndPort(_ text: String) -> (host: String, port: Int)? {
        var host = ServerDefaults.host
        var portText = Substring(text)
        if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            if host.hasPrefix("["), host.hasSuffix("]") {
                host = String(host.dropFirst().dropLast())
            } else if host.contains(":") {
                // A bare IPv6 address (`::1`): its last group would be taken for the port.
                return nil
            }
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, let port = Int(portText), (0...65535).contains(port) else { return nil }
        return (host, port)
    }

    /// `--token`, else `$SEARCHLIGHT_TOKEN`, else the configuration's.
    ///
    /// An empty environment variable or configured token counts as none; an empty `--token`
    /// is passed on, and the server takes it as none.
    func effectiveToken(_ configuration: Configuration) -> String? {
        token ?? ProcessInfo.processInfo.environment["SEARCHLIGHT_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
            ?? configuration.server.token.value.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The server's settings: the options, else the configuration file's `[server]`.
    ///
    /// The announcements print on standard output and flush at once, so that a script reading
    /// the first line learns the port chosen for `--port 0`.
    ///
    /// - Throws: ``CommandFailure`` when the index's location cannot be worked out.
    func serverSettings(_ file: Configuration, logger: Logger) throws -> ServeSettings {
        ServeSettings(
            indexPath: try indexOptions.location(configuration: file), host: host ?? file.server.host.value, port: port ?? file.server.port.value,
            token: effectiveToken(file), queryTimeout: .milliseconds(Int64(queryTimeout * 1000)), logger: logger,
            elasticsearch: elasticsearch.flatMap(Self.hostAndPort), signIn: signIn,
            announce: { host, port, token in
                let shown = host.contains(":") ? "[\(host)]" : host
                let output = StandardOutput()
                output.write("searchlight: serving http://\(shown):\(port)/\(token.map { "?token=" + $0 } ?? "")\n")
                output.flush()
            },
            announceElasticsearch: { host, port in
                let shown = host.contains(":") ? "[\(host)]" : host
                let output = StandardOutput()
                output.write("searchlight: serving Elasticsearch's search API for Samba at http://\(shown):\(port)/\n")
                output.flush()
            })
    }

    /// Opens the index (for writing, with `--watch`, so that the watchers can create it), makes
    /// the server and the watchers, and runs them in one `ServiceGroup` until SIGTERM or SIGINT.
    ///
    /// Logs at notice level unless `--verbose`; the group itself logs warnings only.
    ///
    /// - Throws: An `ExitCode`: 64 for a server that refuses its settings (a non-loopback host
    ///   without a token), else the index's or the server's failure, as one line.
    func run() async throws {
        // `searchlight` links no web server: it hands the command over, arguments and all.
        guard let makeServer = indexOptions.launchers.makeServer else { throw ServeLauncher.handOver() }
        var logger = indexOptions.logger
        if !indexOptions.verbose { logger.logLevel = .notice }
        var file = try configurationOptions.load(for: Self.self, watching: watch, index: indexOptions.choice)
        thumbnails.apply(to: &file)
        // The watchers create the index when there is none yet: open it for writing first.
        let index = watch ? try indexOptions.openForIndexing(configuration: file) : nil
        let server: any Service
        do {
            server = try await makeServer(try serverSettings(file, logger: logger))
        } catch {
            // A refusal is a usage error (64), an index's error says its own status.
            _ = try CommandFailure.wrap { throw error }
            throw CommandFailure.fail("\(error)")
        }
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        var upkeep: Task<Void, Never>?
        if let index {
            // Removable drives, when the configuration indexes them: watched as they come and go.
            let removable = roots.isEmpty && domain == nil && file.removable.value
                ? try RemovableRoots.prepare(file, index: index) : nil
            let roots = try watchedRoots(index: index, configuration: file)
            // The process keeps its priority: the page must answer as you type.
            var watch = try WatchCommand.makeWatchers(roots, removable: removable, index: index, configuration: file,
                                                      logger: logger)
            watch.idle = false
            services = watch.services
            upkeep = Task { await watch.upkeep() }
        }
        defer { upkeep?.cancel() }
        // Last to stop: the watchers finish their windows first, then the extraction workers.
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

    /// The folders to watch, with their domains and exclusions: those given, else every root
    /// the index holds (with the configuration's exclusions for those it lists).
    ///
    /// On a shared index only the domains of this machine are watched; removable drives, when
    /// the configuration indexes them, have their own watch and are left out here.
    ///
    /// - Throws: ``CommandFailure`` (64) when there is nothing to watch, or the index's error.
    func watchedRoots(index: any FileIndexWriter, configuration: Configuration) throws -> [Configuration.Root] {
        if !roots.isEmpty { return try configuration.roots(arguments: roots, domain: domain) }
        let states = try CommandFailure.wrap { try index.domainStates() }
        // A shared index holds other machines' folders too: only this machine's are watched here.
        let hosts = try CommandFailure.wrap { try index.domainHosts() }
        // Removable drives have a watch of their own when indexed (``RemovableDriveWatch``).
        let removable = configuration.removable.value
        let known = states.compactMap { domain, state in
            index.isLocal(domain: domain, hosts: hosts) && !(removable && RemovableDrives.isRemovable(domain: domain))
                ? (domain, state.root) : nil
        }
        if known.isEmpty && !removable { throw CommandFailure.fail("nothing to watch: give a folder (searchlight serve --watch FOLDER)", code: 64) }
        return try known.sorted { $0.0 < $1.0 }.map { domain, path in
            var root = try configuration.roots(arguments: [path], domain: nil)[0]
            root.domain = domain
            return root
        }
    }
}

/// What `serve` needs of the web server, which only the `searchlight-serve` executable links
/// (Hummingbird and SwiftNIO would slow every start of `searchlight`, as a decoder would):
/// without ``Launchers/makeServer``, the command is handed over to that executable.
///
/// The split keeps `searchlight search` starting fast: the tool's executable carries no
/// Hummingbird, and only `serve` pays for the second executable's start.
public enum ServeLauncher {
    /// Makes the server `serve` runs, from its settings.
    public typealias ServerFactory = @Sendable (ServeSettings) async throws -> any Service

    /// `searchlight-serve` next to this executable (or `$SEARCHLIGHT_SERVE`).
    static var serveExecutable: String {
        if let path = ProcessInfo.processInfo.environment["SEARCHLIGHT_SERVE"], !path.isEmpty { return path }
        return SystemCall.siblingExecutable("searchlight-serve")
    }

    /// Replaces this process with `searchlight-serve`, given the same arguments; returns (the
    /// error to exit with) only when that fails. The corresponding C function is `execv(3)`.
    static func handOver() -> ExitCode {
        let path = serveExecutable
        let error = SystemCall.replaceProcess(with: path, arguments: [Array(path.utf8)] + SystemCall.rawArguments.dropFirst())
        return CommandFailure.fail("cannot run \(path): \(error) (it is installed next to searchlight)")
    }
}

/// The settings of `serve`'s server, from the options and the configuration file.
public struct ServeSettings: Sendable {
    /// The index to serve: a file path or a `postgres://` URL.
    public var indexPath: String
    /// The address listened on (`--host`, `[server] host`).
    public var host: String
    /// The port listened on (`--port`, `[server] port`).
    public var port: Int
    /// Every request must carry it, when set.
    public var token: String?
    /// A query or search running longer is stopped and answered with 503 (`--query-timeout`).
    public var queryTimeout: Duration
    /// The logger the server and its index write to.
    public var logger: Logger
    /// Where to answer Elasticsearch's search API for Samba (`--elasticsearch`), if anywhere.
    public var elasticsearch: (host: String, port: Int)?
    /// Whether each person signs in (`--sign-in`, a shared index only); `nil`: the default,
    /// on for a shared index.
    public var signIn: Bool?
    /// Prints the address once the server accepts connections (the first line of output).
    ///
    /// Called once the listener is bound; the token is given when the page needs it in its
    /// address.
    public var announce: @Sendable (_ host: String, _ port: Int, _ token: String?) -> Void
    /// Prints the Elasticsearch endpoint's address once it accepts connections.
    public var announceElasticsearch: @Sendable (_ host: String, _ port: Int) -> Void
}
