import ArgumentParser
import Foundation

/// `--config PATH` and the options that override the configuration file, shared by `scan`,
/// `watch` and `config`.
struct ConfigurationOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The configuration file (default: $SEARCHLIGHT_CONFIG, else $XDG_CONFIG_HOME/searchlight/config.toml).",
        valueName: "path"))
    var config: String?

    @Option(help: ArgumentHelp("CPU and I/O priority: idle (nice 19, idle I/O class) or normal.", valueName: "idle|normal"))
    var priority: Configuration.Priority?

    @Flag(help: "Index hidden files and folders too (secrets such as .ssh and *.pem stay out).")
    var hidden = false

    @Flag(help: "Do not skip node_modules, caches and build output folders.")
    var noDefaultExclusions = false

    @Option(name: .customLong("exclude"), help: ArgumentHelp(
        "A gitignore pattern to leave out, added to the configuration's (repeatable).", valueName: "pattern"))
    var exclusions: [String] = []

    /// The configuration file's path and whether it must exist (it was named explicitly).
    var configurationFile: (path: String, required: Bool) {
        Configuration.file(explicit: config, environment: ProcessInfo.processInfo.environment)
    }

    /// The configuration file as read, with its mistakes (``Configuration/problems``), before
    /// these options: for a command that reports what it finds and checks nothing.
    func loadFile() -> Configuration {
        Configuration.load(explicit: config, environment: ProcessInfo.processInfo.environment)
    }

    /// The configuration in effect for `command` (with `watching`: `serve --watch`), which opens
    /// the index `index` chooses: the file's, then these options. A mistake in a section the
    /// command reads (``Configuration/Section/read(by:watching:indexGiven:)``) prints one line
    /// (`FILE:LINE: what is wrong`) and exits 64; a mistake elsewhere is a warning.
    func load(for command: any ParsableCommand.Type, watching: Bool = false, index: IndexChoice?) throws -> Configuration {
        let sections = Configuration.Section.read(by: command, watching: watching, indexGiven: index?.givenLocation != nil)
        var configuration = try CommandFailure.wrap { try loadFile().usable(reading: sections) }
        configuration.priority.override(priority, option: "--priority")
        configuration.includeHidden.override(hidden ? true : nil, option: "--hidden")
        configuration.defaultExclusions.override(noDefaultExclusions ? false : nil, option: "--no-default-exclusions")
        if !exclusions.isEmpty {
            configuration.exclusions = .init(configuration.exclusions.value + exclusions, origin: .option("--exclude"))
        }
        return configuration
    }
}

extension Configuration.Priority: ExpressibleByArgument {}
