import ArgumentParser
import Dispatch
import SearchlightCommands
import SearchlightPostgres

/// Every command, on an SQLite file or a PostgreSQL index; `serve` hands over to
/// `searchlight-serve` (see ``ServeLauncher``).
///
/// A command that does not await (`search`, `list`, `show`, `status`, `scan`…) runs on the
/// main thread, as `ParsableCommand.main()` runs it: an `async` main would first start
/// Swift's thread pool and hop to it, a cost every search paid at start-up. The commands that
/// await (`watch`, `serve`, `query`, and `searchlight` alone) run in a task while the main
/// thread serves the main queue, as `AsyncParsableCommand.main()` runs them.
@main
enum SearchlightMain {
    static func main() {
        // A shared index is opened here: handed over to `searchlight-serve`, a search paid
        // that executable's start too (12 ms of a keystroke; Docs/PostgreSQL.md).
        let launchers = Launchers(openRemote: PostgresStore.open)
        // `search` in its common forms skips swift-argument-parser's reflection (start-up).
        if let search = SearchlightCommand.parseCommonSearch(Array(CommandLine.arguments.dropFirst()), launchers: launchers) {
            do {
                try search.run()
            } catch {
                SearchlightCommand.exit(withError: error)
            }
            return
        }
        let parsed: any ParsableCommand
        do {
            parsed = try SearchlightCommand.parseCommand(launchers: launchers)
        } catch {
            SearchlightCommand.exit(withError: error)
        }
        if let awaited = parsed as? any AsyncParsableCommand {
            nonisolated(unsafe) var command = awaited
            Task {
                do {
                    try await command.run()
                } catch {
                    SearchlightCommand.exit(withError: error)
                }
                SearchlightCommand.exit()
            }
            dispatchMain()
        }
        var command = parsed
        do {
            try command.run()
        } catch {
            SearchlightCommand.exit(withError: error)
        }
    }
}
