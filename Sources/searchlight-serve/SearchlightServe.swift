import SearchlightCommands
import SearchlightPostgres
import SearchlightServer
import ServiceLifecycle

/// `searchlight serve`, and every command on a `postgres://` index, hand their arguments over
/// to this executable, which links the web server and the PostgreSQL client that
/// `searchlight` leaves out (see ``ServeLauncher`` and ``IndexLauncher``). It runs the same commands.
@main
enum SearchlightServe {
    static func main() async {
        ServeLauncher.serverFactory = makeServer
        IndexLauncher.remoteOpener = { url, readOnly, logger in
            try PostgresStore(url: url, readOnly: readOnly, logger: logger)
        }
        await SearchlightCommand.main()
    }
}

@Sendable
func makeServer(_ settings: ServeSettings) throws -> any Service {
    var configuration = SearchServer.Configuration()
    configuration.host = settings.host
    configuration.port = settings.port
    configuration.token = settings.token
    configuration.queryTimeout = settings.queryTimeout
    if !configuration.isLoopback && (configuration.token ?? "").isEmpty {
        throw CommandError.usage("--host \(configuration.host) is not a loopback address: give --token TOKEN "
                                    + "(or $SEARCHLIGHT_TOKEN) that every request must carry")
    }
    let token = configuration.token
    let announce: @Sendable (String, Int) async -> Void = { host, port in settings.announce(host, port, token) }
    do {
        guard IndexLauncher.isRemote(settings.indexPath) else {
            return try SearchServer(indexPath: settings.indexPath, configuration: configuration, logger: settings.logger,
                                    onListening: announce)
        }
        // One handle with connections of its own serves every request; the server stops a
        // statement at the query timeout, as the SQLite readers are interrupted.
        let store = try PostgresStore(url: settings.indexPath, readOnly: true, statementTimeout: settings.queryTimeout,
                                      logger: settings.logger)
        return try SearchServer(configuration: configuration, logger: settings.logger, onListening: announce) { store }
    } catch let error as SearchServer.ConfigurationError {
        throw CommandError.usage(error.description)
    }
}
