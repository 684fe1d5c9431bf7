import ArgumentParser

/// `searchlight`: Spotlight for Linux. The executables run it with `SearchlightCommand.main()`.
///
/// The root command of the command-line tool: it parses the arguments with
/// swift-argument-parser and runs the subcommand chosen. Each subcommand opens the index it
/// needs, prints its results on standard output and its errors as one line on standard error,
/// and exits 0, 1 or 64 as the discussion says.
///
/// ```swift
/// // An executable that embeds the tool; `serve` and `postgres://` indexes are then handed
/// // over to `searchlight-serve`, unless launchers are given (``main(launchers:)``).
/// await SearchlightCommand.main()
/// ```
///
/// The subcommands are internal to this module: a program reaches them through arguments
/// (`SearchlightCommand.main(["search", "budget"])`), as a person does.
///
/// ## Topics
///
/// ### Running the tool
///
/// - ``configuration``
/// - ``init()``
/// - ``run()``
/// - ``main(launchers:)``
public struct SearchlightCommand: AsyncParsableCommand {
    /// The name, the help text on the index's location, and every subcommand.
    public static let configuration = CommandConfiguration(
        commandName: "searchlight",
        abstract: "Index folders of documents and find files by the words in their names.",
        discussion: """
            The index lives in --index PATH, else $SEARCHLIGHT_INDEX, else \
            $XDG_DATA_HOME/searchlight/index.sqlite (~/.local/share/searchlight/index.sqlite); \
            a postgres://USER@HOST:PORT/DATABASE URL there names a shared PostgreSQL index \
            (the password from the URL, ~/.pgpass or $PGPASSWORD).
            Exit status: 0 on success (no results is success), 64 for a usage error or a \
            malformed query, 1 for any other failure.
            """,
        version: Version.current,
        subcommands: [
            ScanCommand.self, SearchCommand.self, ListCommand.self, ShowCommand.self,
            StatusCommand.self, RemoveCommand.self, WatchCommand.self, ThumbnailCommand.self, QueryCommand.self,
            ServeCommand.self,
            ConfigCommand.self, OpenCommand.self, PauseCommand.self, ResumeCommand.self,
            TagCommand.self,
        ]
    )

    /// The command with no subcommand chosen yet, as swift-argument-parser makes it.
    public init() {}

    /// Without a subcommand there is nothing to do: that is a usage error.
    ///
    /// - Throws: `ExitCode(64)` after printing the help on standard error.
    public func run() async throws {
        StandardError.write(Self.helpMessage() + "\n")
        throw ExitCode(64)
    }
}
