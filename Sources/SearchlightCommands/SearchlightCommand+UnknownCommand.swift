import ArgumentParser

extension SearchlightCommand {
    /// ``parseAsRoot(_:)``, with a hint for a mistyped command: `searchlight serach foo` prints
    /// `searchlight: unknown command "serach" — did you mean "search"?` (or the list of
    /// commands, when none is close) and exits 64, where swift-argument-parser would say
    /// "2 unexpected arguments". Every other mistake keeps swift-argument-parser's message.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the executable's name; `nil` for the process's own.
    ///   - launchers: What the executable adds (``Launchers``), given to a command that opens an index.
    public static func parseCommand(_ arguments: [String]? = nil, launchers: Launchers = Launchers()) throws -> any ParsableCommand {
        do {
            let command = try parseAsRoot(arguments)
            guard var indexCommand = command as? any IndexCommand else { return command }
            indexCommand.indexOptions.launchers = launchers
            return indexCommand
        } catch {
            guard let mistake = unknownCommand(arguments ?? Array(CommandLine.arguments.dropFirst())) else { throw error }
            throw CommandFailure.fail(mistake.description, code: mistake.exitStatus)
        }
    }

    /// The mistake of a first argument that names no command, with the command it most likely
    /// meant (``ClosestName``), else the list of commands; `nil` when the first argument is an
    /// option or a command. `searchlight` alone runs no command by default, so any other
    /// first word is a mistake.
    static func unknownCommand(_ arguments: [String]) -> CommandError? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let commands = configuration.subcommands
        let names = commands.map { $0._commandName }
        // `help` is swift-argument-parser's own (`searchlight help scan`).
        guard !(names + ["help"]).contains(first), !commands.contains(where: { $0.configuration.aliases.contains(first) }) else {
            return nil
        }
        if let meant = ClosestName.suggestion(for: first, among: names) {
            return .usage("unknown command \(first.debugDescription) — did you mean \(meant.debugDescription)?")
        }
        return .usage("unknown command \(first.debugDescription); the commands are \(names.joined(separator: ", ")) "
                      + "(searchlight help COMMAND tells more)")
    }
}
