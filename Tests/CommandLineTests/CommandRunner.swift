import Foundation
import Testing
import Glibc
import SearchlightTestSupport

/// Runs the built `searchlight` binary and captures what it prints.
struct CommandResult {
    var status: Int32
    var stdout: [UInt8]
    var stderr: String
    var output: String { String(decoding: stdout, as: UTF8.self) }
    var lines: [String] { output.split(separator: "\n").map(String.init) }

    /// The lines, each path below `root` as its path relative to `root` (the identifier):
    /// what tests of which items a command printed compare, as commands print absolute paths.
    func paths(under root: String) -> [String] {
        let prefix = (root.hasSuffix("/") ? root : root + "/")
        return lines.map { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : $0 }
    }
}

enum Searchlight {
    /// The `searchlight` executable next to the test bundle, or `$SEARCHLIGHT_BINARY`.
    static let binary: String = {
        if let path = ProcessInfo.processInfo.environment["SEARCHLIGHT_BINARY"] { return path }
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: exe).deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("searchlight").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return "searchlight"
    }()

    /// `searchlight-desktop`: the link to `searchlight-serve` by whose name it runs the desktop's
    /// search, made beside the built executables as `make install` makes it among the installed.
    static let desktopBinary: String = {
        let link = URL(fileURLWithPath: binary).deletingLastPathComponent().appendingPathComponent("searchlight-desktop").path
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) != "searchlight-serve" {
            // Made under a name of its own, then renamed over whatever is there: test processes
            // running at once never see a half-made link.
            let made = link + ".\(getpid())"
            try? FileManager.default.removeItem(atPath: made)
            try? FileManager.default.createSymbolicLink(atPath: made, withDestinationPath: "searchlight-serve")
            rename(made, link)
        }
        return link
    }()

    /// Options for a `watch` a test waits for: normal priority. At idle priority (the default,
    /// tested in WatchSeveralRootsTests) a watch on a machine crowded with other tests'
    /// processes got less than 1 % of a core and took minutes to say "watching".
    static let busyMachine = ["--priority", "normal"]

    /// Starts the binary with `arguments`; output to `stdout` and `stderr` (descriptors of
    /// this process, duplicated: close yours after the start) or `/dev/null`.
    static func start(_ arguments: [String], index: String? = nil, prefix: [String] = [],
                      environment extra: [String: String] = [:],
                      stdout: FileHandle? = nil, stderr: FileHandle? = nil) throws -> ChildProcess {
        try ChildProcess(prefix + [binary] + arguments, environment: environment(index: index, extra: extra),
                         stdout: stdout.map { .descriptor($0.fileDescriptor) } ?? .null,
                         stderr: stderr.map { .descriptor($0.fileDescriptor) } ?? .null)
    }

    /// Where the runs of this test process keep their state (the items opened).
    static let stateHome = TestScratch.folder + "/state"

    /// The environment of a run: the index named, the user's own configuration file kept away
    /// (a test names one with --config).
    static func environment(index: String?, extra: [String: String]) -> [String: String?] {
        var environment: [String: String?] = [
            "SEARCHLIGHT_INDEX": index ?? "/nonexistent/searchlight/index.sqlite",
            "XDG_CONFIG_HOME": "/nonexistent/searchlight-config",
            "SEARCHLIGHT_CONFIG": nil,
            // The items opened (OpenHistory) kept apart from the person's, in this run's own folder.
            "XDG_STATE_HOME": stateHome,
        ]
        for (key, value) in extra { environment[key] = value }
        return environment
    }

    /// Runs the binary to completion.
    static func run(_ arguments: [String], index: String? = nil, prefix: [String] = [],
                    environment: [String: String] = [:], currentFolder: String? = nil) throws -> CommandResult {
        let result = try ChildProcess.run(prefix + [binary] + arguments,
                                          environment: Self.environment(index: index, extra: environment),
                                          currentFolder: currentFolder)
        return CommandResult(status: result.status, stdout: result.stdout,
                             stderr: String(decoding: result.stderr, as: UTF8.self))
    }
}

