import SearchlightCommands
import SearchlightFiles
import SearchlightDesktop
import SearchlightPostgres
import SearchlightServer
import ServiceLifecycle

/// `searchlight serve` hands its arguments over to this executable, which links the web server
/// that `searchlight` leaves out (see ``ServeLauncher``). It runs the same commands, given the
/// server and the PostgreSQL client as ``Launchers``. Started as `searchlight-desktop` (a link to it), it
/// is the desktop's search service instead (``DesktopCommand``).
@main
enum SearchlightServe {
    static func main() async {
        if CommandLine.arguments.first?.split(separator: "/").last == "searchlight-desktop" {
            DesktopCommand.main(settings: DesktopSettings(indexLocation: { try IndexLocation.resolve(explicit: $0) },
                                                          questionEncoder: { MeaningModel.configured()?.questionEncoder }))
            return
        }
        let launchers = Launchers(makeServer: makeServer, openRemote: PostgresStore.open)
        // A search run by this executable's name, in its common forms: parsed without
        // swift-argument-parser's reflection, as `searchlight` parses it (start-up).
        if let search = SearchlightCommand.parseCommonSearch(Array(CommandLine.arguments.dropFirst()), launchers: launchers) {
            do {
                try search.run()
            } catch {
                SearchlightCommand.exit(withError: error)
            }
            return
        }
        await SearchlightCommand.main(launchers: launchers)
    }
}

/// `serve`'s server: on the SQLite file, or on the PostgreSQL index read through its own
/// async calls (one handle whose connections serve every request; the database stops a
/// statement at the query timeout, as the SQLite reads are interrupted).
@Sendable
func makeServer(_ settings: ServeSettings) async throws -> any Service {
    var configuration = SearchServer.Configuration()
    configuration.host = settings.host
    configuration.port = settings.port
    configuration.token = settings.token
    configuration.queryTimeout = settings.queryTimeout
    // Found, not loaded: the first question a search asks loads the model.
    configuration.questionEncoder = MeaningModel.configured()?.questionEncoder
    if let elasticsearch = settings.elasticsearch {
        configuration.elasticsearchHost = elasticsearch.host
        configuration.elasticsearchPort = elasticsearch.port
    }
    // A shared index's page has each person sign in, unless told otherwise on loopback: one
    // token would show everyone what the server's role sees.
    let isShared = IndexLauncher.isRemote(settings.indexPath)
    let signIn = settings.signIn ?? isShared
    if signIn {
        guard isShared else {
            throw CommandError.usage("--sign-in is for a shared (postgres://) index: a local index is one person's own")
        }
        configuration.signInURL = settings.indexPath
    } else if isShared && !configuration.isLoopback {
        throw CommandError.usage("--no-sign-in on a shared index listens on loopback only: off this machine, each "
                                 + "person signs in (--sign-in, behind a TLS proxy)")
    }
    if !configuration.isLoopback && (configuration.token ?? "").isEmpty && !signIn {
        throw CommandError.usage("--host \(configuration.host) is not a loopback address: give --token TOKEN "
                                    + "(or $SEARCHLIGHT_TOKEN) that every request must carry")
    }
    let token = configuration.token
    let announce: @Sendable (String, Int) async -> Void = { host, port in settings.announce(host, port, token) }
    let announceElasticsearch: @Sendable (String, Int) async -> Void = { host, port in settings.announceElasticsearch(host, port) }
    do {
        guard IndexLauncher.isRemote(settings.indexPath) else {
            return try SearchServer(indexPath: settings.indexPath, configuration: configuration, logger: settings.logger,
                                    onListening: announce, onElasticsearchListening: announceElasticsearch)
        }
        let index = try await PostgresStore(url: settings.indexPath, queryTimeout: settings.queryTimeout,
                                            logger: settings.logger)
        return try SearchServer(index: index, configuration: configuration, logger: settings.logger, onListening: announce,
                                onElasticsearchListening: announceElasticsearch)
    } catch let error as APIError {
        // The settings the server refuses (SearchServer.check): a usage error, exit status 64.
        throw CommandError.usage(error.message)
    }
}
