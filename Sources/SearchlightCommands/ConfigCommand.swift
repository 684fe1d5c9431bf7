import ArgumentParser
import Foundation

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Print the configuration in effect and where each value came from.",
        discussion: """
            The output is itself a configuration file: each value is followed by a comment \
            naming its origin (default, FILE:LINE, or the option that set it).
            """
    )

    @OptionGroup var options: ConfigurationOptions

    func run() throws {
        let configuration = try options.load(for: Self.self, index: nil)
        let output = StandardOutput()
        output.write(Self.describe(configuration, file: options.configurationFile.path))
        output.flush()
    }

    /// The configuration as TOML, with origins as comments.
    static func describe(_ configuration: Configuration, file: String) -> String {
        var text = "# The configuration in effect.\n"
        text += "# file: \(file)\(configuration.file == nil ? " (absent: defaults)" : "")\n"
        func line(_ key: String, _ value: String, _ origin: Configuration.Origin) {
            text += "\(key) = \(value)".padding(toLength: max(40, key.count + value.count + 4), withPad: " ", startingAt: 0)
            text += "# \(origin)\n"
        }
        func quoted(_ string: String) -> String { string.debugDescription }
        func list(_ strings: [String]) -> String { "[" + strings.map(quoted).joined(separator: ", ") + "]" }

        if let index = configuration.index.value { line("index", quoted(withoutPassword(index)), configuration.index.origin) }
        line("priority", quoted(configuration.priority.value.rawValue), configuration.priority.origin)
        if configuration.roots.isEmpty { text += "# no [[roots]]: scan and watch take folders as arguments, else those already in the index\n" }
        for root in configuration.roots {
            text += "\n[[roots]]\n"
            line("path", quoted(root.path), root.origin)
            if let domain = root.domain { line("domain", quoted(domain), root.origin) }
            if !root.exclusions.isEmpty { line("exclusions", list(root.exclusions), root.origin) }
        }
        text += "\n[exclusions]\n"
        line("patterns", list(configuration.exclusions.value), configuration.exclusions.origin)
        line("hidden", "\(configuration.includeHidden.value)", configuration.includeHidden.origin)
        line("defaults", "\(configuration.defaultExclusions.value)", configuration.defaultExclusions.origin)
        text += "\n[extraction]\n"
        line("thumbnails", "\(configuration.thumbnails.value)", configuration.thumbnails.origin)
        line("content", "\(configuration.content.value)", configuration.content.origin)
        line("text-limit", "\(configuration.textLimit.value)", configuration.textLimit.origin)
        line("decoder-deadline", "\(configuration.decoderDeadline.value)", configuration.decoderDeadline.origin)
        line("ocr", "\(configuration.ocr.value)", configuration.ocr.origin)
        line("ocr-languages", list(configuration.ocrLanguageList), configuration.ocrLanguages.origin)
        line("ocr-page-limit", "\(configuration.ocrPageLimit.value)", configuration.ocrPageLimit.origin)
        line("ocr-page-deadline", "\(configuration.ocrPageDeadline.value)", configuration.ocrPageDeadline.origin)
        text += "\n[meaning]\n"
        line("enabled", "\(configuration.meaning.value)", configuration.meaning.origin)
        if let model = configuration.meaningModel.value {
            line("model", quoted(model), configuration.meaningModel.origin)
        } else {
            text += "# model: the first folder of the standard places that holds one (status says which)\n"
        }
        line("chunks-per-document", "\(configuration.meaningChunks.value)", configuration.meaningChunks.origin)
        text += "\n[watch]\n"
        line("self-check-interval", "\(configuration.selfCheckInterval.value)", configuration.selfCheckInterval.origin)
        line("rescan-interval", "\(configuration.rescanInterval.value)", configuration.rescanInterval.origin)
        line("backoff", "\(configuration.backoff.value)", configuration.backoff.origin)
        text += "\n[removable]\n"
        line("index", "\(configuration.removable.value)", configuration.removable.origin)
        line("places", list(configuration.removablePlacesInEffect), configuration.removablePlaces.origin)
        line("keep-offline-days", "\(configuration.keepOfflineDays.value)", configuration.keepOfflineDays.origin)
        text += "\n[server]\n"
        let server = configuration.server
        line("host", quoted(server.host.value), server.host.origin)
        line("port", "\(server.port.value)", server.port.origin)
        // The token is a secret: say whether there is one, never print it.
        if server.token.value != nil {
            text += "# token = (set)".padding(toLength: 40, withPad: " ", startingAt: 0) + "# \(server.token.origin)\n"
        } else {
            text += "# token: none\n"
        }
        return text
    }

    /// A URL's password as `***` (`postgres://ann:***@db/index`): never printed.
    static func withoutPassword(_ location: String) -> String {
        guard let scheme = location.range(of: "://"), let at = location[scheme.upperBound...].lastIndex(of: "@"),
              let colon = location[scheme.upperBound..<at].firstIndex(of: ":") else { return location }
        return String(location[..<location.index(after: colon)]) + "***" + String(location[at...])
    }
}
