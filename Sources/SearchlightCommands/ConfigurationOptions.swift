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
        if let config { return (config, true) }
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["SEARCHLIGHT_CONFIG"], !path.isEmpty { return (path, true) }
        return (Configuration.defaultPath(environment: environment), false)
    }

    /// The configuration in effect: the file's, then these options. A file that cannot be
    /// used prints one line (`FILE:LINE: KEY: message`) and exits 64.
    func load() throws -> Configuration {
        let (path, required) = configurationFile
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
        var configuration = try CommandFailure.wrap { try Configuration.load(path: path, required: required, home: home) }
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
