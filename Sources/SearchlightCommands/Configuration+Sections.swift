import ArgumentParser

extension Configuration {
    /// A part of the configuration file that commands read or leave alone: a mistake in one
    /// stops only the commands that read it (``usable(reading:)``).
    enum Section: String, CaseIterable {
        /// The top-level `index`: where every command finds the index, unless `--index` or
        /// `$SEARCHLIGHT_INDEX` says.
        case index
        /// The top-level `priority`, of `scan` and `watch`.
        case priority
        /// `[[roots]]`: the folders `scan` and `watch` index.
        case roots
        /// `[exclusions]`: what their walks leave out.
        case exclusions
        /// `[extraction]`: thumbnails, content, OCR and the decoders' limits.
        case extraction
        /// `[watch]`: the watcher's self-checks, rescans and back-off.
        case watch
        /// `[server]`: the address and token of `serve`.
        case server
        /// `[meaning]`: search by meaning's switch, model folder and chunks per document.
        case meaning
        /// `[removable]`: removable drives' switch, places and days kept offline.
        case removable
        /// A table or key of no section, and close to none: only `config` stops for it.
        case unknown

        /// The section of a top-level table or key; ``unknown`` for any other name.
        init(topLevel name: String) {
            self = Section(rawValue: name) ?? .unknown
        }

        /// As the file writes it: `index`, `[[roots]]`, `[server]`.
        var written: String {
            switch self {
            case .index, .priority, .unknown: rawValue
            case .roots: "[[roots]]"
            default: "[\(rawValue)]"
            }
        }

        /// The sections a command reads.
        ///
        /// - Parameters:
        ///   - command: `config` reads every section (it prints them all); `scan` the priority,
        ///     roots, exclusions, extraction and removable drives; `watch` those and `[watch]`; `serve` the
        ///     server's and, with `watching`, what its watchers read but the priority (they keep
        ///     the server's); `status`, `search`, `scan`, `watch` and `serve` `[meaning]`. The other
        ///     commands read the index's location alone.
        ///   - watching: `serve --watch`.
        ///   - indexGiven: `--index` or `$SEARCHLIGHT_INDEX` names the index
        ///     (``IndexChoice/givenLocation``): the file's `index` is not read.
        static func read(by command: any ParsableCommand.Type, watching: Bool = false, indexGiven: Bool) -> Set<Section> {
            var sections: Set<Section> = indexGiven ? [] : [.index]
            let indexing: Set<Section> = [.roots, .exclusions, .extraction, .removable]
            switch command {
            case is ConfigCommand.Type: return Set(allCases)
            case is ScanCommand.Type: sections.formUnion(indexing.union([.priority, .meaning]))
            case is WatchCommand.Type: sections.formUnion(indexing.union([.priority, .watch, .meaning]))
            case is ServeCommand.Type: sections.formUnion(watching ? indexing.union([.server, .watch, .meaning]) : [.server, .meaning])
            case is StatusCommand.Type, is SearchCommand.Type: sections.insert(.meaning)
            default: break
            }
            return sections
        }
    }

    /// This configuration for a command that reads `sections` of it: each mistake in one of
    /// them, or in the whole file (when the command reads any), stops the command — all but
    /// the last are printed here, the last is thrown (``CommandFailure/wrap(_:)`` prints it and
    /// exits 64); every other mistake is printed as one warning line, and the command goes on.
    ///
    /// ```
    /// searchlight: warning: config.toml:3: server.port must be a number from 1 to 65535,
    ///     found the string "8080" (ignored: this command does not read [server])
    /// ```
    func usable(reading sections: Set<Section>) throws(ConfigurationError) -> Configuration {
        let stopping = problems.filter { problem in problem.section.map(sections.contains) ?? !sections.isEmpty }
        for problem in problems where !stopping.contains(problem) {
            let unread = switch problem.section {
            case nil: "this command reads nothing from the file"
            case .unknown?: "no command reads it"
            case let section?: "this command does not read \(section.written)"
            }
            StandardError.write("searchlight: warning: \(problem) (ignored: \(unread))\n")
        }
        guard let last = stopping.last else { return self }
        for problem in stopping.dropLast() { StandardError.write("searchlight: \(problem)\n") }
        throw last
    }
}
