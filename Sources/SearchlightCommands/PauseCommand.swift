import ArgumentParser
import Foundation
import Searchlight
import SearchlightFiles
import SystemCalls

/// `searchlight pause` and `searchlight resume`: signal the running `watch` of the index.
///
/// The watch's pid is in its health record in the index (`status` shows it); a signal goes
/// only to a live process whose command line is a `searchlight watch`, never to whatever
/// process reused a stale pid. SIGUSR1 pauses, SIGUSR2 resumes.
struct PauseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pause",
        abstract: "Pause the running watch of the index: it keeps its watches and queues changes.",
        discussion: "Sends SIGUSR1 to the watching process; `searchlight resume` (SIGUSR2) catches up."
    )

    @OptionGroup var indexOptions: IndexOptions

    func run() throws {
        try WatchSignal.send(SIGUSR1, verb: "paused", indexOptions: indexOptions)
    }
}

struct ResumeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resume",
        abstract: "Resume a paused watch: it processes the changes that queued up.",
        discussion: "Sends SIGUSR2 to the watching process."
    )

    @OptionGroup var indexOptions: IndexOptions

    func run() throws {
        try WatchSignal.send(SIGUSR2, verb: "resumed", indexOptions: indexOptions)
    }
}

enum WatchSignal {
    /// Sends `signal` to every running watch of the index; none is a failure (exit 1).
    static func send(_ signal: Int32, verb: String, indexOptions: IndexOptions) throws {
        let index = try indexOptions.openForReading()
        let states = try CommandFailure.wrap { try index.domainStates() }
        var roots: [Int32: [String]] = [:]
        for (domain, state) in states {
            guard let watch = state.watch, watch.running,
                  isWatch(pid: watch.pid) else { continue }
            roots[watch.pid, default: []].append(state.root == domain ? domain : "\(domain) (\(state.root))")
        }
        guard !roots.isEmpty else { throw CommandFailure.fail("no watch is running on \(index.path)") }
        let output = StandardOutput()
        for (pid, watched) in roots.sorted(by: { $0.key < $1.key }) {
            do {
                try SystemCall.send(signal, to: pid)
            } catch {
                throw CommandFailure.fail("cannot signal the watch (pid \(pid)): \(error)")
            }
            output.write("\(verb) the watch of \(watched.sorted().joined(separator: ", ")) (pid \(pid))\n")
        }
        output.flush()
    }

    /// Whether `pid` is a live `searchlight … watch` process.
    static func isWatch(pid: Int32) -> Bool {
        guard SystemCall.processExists(pid),
              let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
        let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        guard let executable = arguments.first, executable.hasSuffix("searchlight") else { return false }
        return arguments.dropFirst().contains("watch")
    }
}
