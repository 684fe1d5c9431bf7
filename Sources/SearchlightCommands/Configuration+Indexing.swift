import Foundation
import SearchlightFiles
import SystemCalls

extension Configuration {
    /// The roots to index: the folders given on the command line (with `--domain` for a single
    /// one), else the configured roots. No root at all is a usage error. (`scan` and `watch`
    /// add the folders already in the index: ``IndexOptions/rootsToIndex(_:arguments:domain:command:)``.)
    func roots(arguments: [String], domain: String?) throws -> [Root] {
        if arguments.isEmpty {
            if domain != nil { throw CommandFailure.fail("--domain needs the folder it names as an argument", code: 64) }
            if roots.isEmpty {
                let file = self.file ?? Self.defaultPath(environment: ProcessInfo.processInfo.environment)
                throw CommandFailure.fail("""
                    no folder to index: give one (`searchlight scan ~/Documents`), or list folders as [[roots]] in \(file)
                    """, code: 64)
            }
            return roots
        }
        if domain != nil && arguments.count > 1 {
            throw CommandFailure.fail("--domain names the domain of one folder; give one folder with it", code: 64)
        }
        var seen: Set<String> = []
        return try arguments.map { argument in
            let configured = roots.first { $0.path == argument || Self.canonical($0.path) == Self.canonical(argument) }
            if !seen.insert(Self.canonical(argument) ?? argument).inserted {
                throw CommandFailure.fail("\(argument) is given twice", code: 64)
            }
            // A configured root given by name keeps its domain and exclusions.
            return Root(path: argument, domain: domain ?? configured?.domain, exclusions: configured?.exclusions ?? [],
                        origin: .option("argument"))
        }
    }

    /// What the walk of `root` leaves out.
    func exclusionRules(for root: Root) -> ExclusionRules {
        ExclusionRules(includeHidden: includeHidden.value, usesDefaults: defaultExclusions.value,
                       configured: IgnoreRules(lines: exclusions.value + root.exclusions))
    }

    /// Lowers the process to idle CPU and I/O priority, unless the configuration says normal.
    /// A failure is reported and ignored: a polite indexer that cannot be polite still indexes.
    func applyPriority() {
        guard priority.value == .idle else { return }
        do {
            try ProcessPriority.lowerToIdle()
        } catch {
            StandardError.write("searchlight: warning: cannot lower the priority: \(error)\n")
        }
    }

    private static func canonical(_ path: String) -> String? {
        try? SystemCall.resolvedPath(path)
    }
}
