import ArgumentParser

/// What an executable adds to the commands it runs: the web server behind `serve` and the
/// PostgreSQL index behind `--index postgres://…`. `searchlight` passes the PostgreSQL index
/// and leaves the server out (start-up time); `searchlight-serve` passes both. A command
/// without what it needs hands itself over to `searchlight-serve` (``ServeLauncher``).
///
/// ```swift
/// await SearchlightCommand.main(launchers: Launchers(makeServer: makeServer, openRemote: PostgresStore.open))
/// ```
public struct Launchers: Sendable {
    /// Makes `serve`'s server; `nil`: `serve` is handed over.
    public var makeServer: ServeLauncher.ServerFactory?
    /// Opens a `postgres://` index; `nil`: a command on one is handed over.
    public var openRemote: IndexLauncher.Opener?

    /// What an executable links: `searchlight-serve` gives both, `searchlight` the opener alone
    /// (it hands `serve` over to `searchlight-serve`).
    public init(makeServer: ServeLauncher.ServerFactory? = nil, openRemote: IndexLauncher.Opener? = nil) {
        self.makeServer = makeServer
        self.openRemote = openRemote
    }
}

/// A command that opens the index (`--index`): it is given the ``Launchers`` of the executable.
protocol IndexCommand: ParsableCommand {
    var indexOptions: IndexOptions { get set }
}

extension ScanCommand: IndexCommand {}
extension SearchCommand: IndexCommand {}
extension ListCommand: IndexCommand {}
extension ShowCommand: IndexCommand {}
extension StatusCommand: IndexCommand {}
extension RemoveCommand: IndexCommand {}
extension WatchCommand: IndexCommand {}
extension ThumbnailCommand: IndexCommand {}
extension QueryCommand: IndexCommand {}
extension ServeCommand: IndexCommand {}
extension OpenCommand: IndexCommand {}
extension PauseCommand: IndexCommand {}
extension ResumeCommand: IndexCommand {}

extension SearchlightCommand {
    /// Parses the arguments and runs the command with `launchers`, exiting as ``main()`` does.
    public static func main(launchers: Launchers) async {
        do {
            var command = try parseCommand(launchers: launchers)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
