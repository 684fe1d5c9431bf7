import Foundation
import Glibc

/// Runs the built `searchlight` binary and captures what it prints.
struct CommandResult {
    var status: Int32
    var stdout: [UInt8]
    var stderr: String
    var output: String { String(decoding: stdout, as: UTF8.self) }
    var lines: [String] { output.split(separator: "\n").map(String.init) }
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

    /// Starts the binary with `arguments` (raw bytes allowed through `rawArguments`).
    static func start(_ arguments: [String], index: String? = nil, prefix: [String] = [],
                      stdout: FileHandle? = nil, stderr: FileHandle? = nil) throws -> Process {
        let process = Process()
        let command = prefix + [binary] + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        var environment = ProcessInfo.processInfo.environment
        environment["SEARCHLIGHT_INDEX"] = index ?? "/nonexistent/searchlight/index.sqlite"
        process.environment = environment
        process.standardOutput = stdout ?? FileHandle.nullDevice
        process.standardError = stderr ?? FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs the binary to completion.
    static func run(_ arguments: [String], index: String? = nil, prefix: [String] = []) throws -> CommandResult {
        let out = Pipe(), err = Pipe()
        let process = try start(arguments, index: index, prefix: prefix, stdout: out.fileHandleForWriting,
                                stderr: err.fileHandleForWriting)
        try out.fileHandleForWriting.close()
        try err.fileHandleForWriting.close()
        // Read both pipes fully before waiting, so a chatty child never blocks on a full pipe.
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        DispatchQueue.global().async(group: group) { errorData = err.fileHandleForReading.readDataToEndOfFile() }
        let outputData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return CommandResult(status: process.terminationStatus, stdout: Array(outputData),
                             stderr: String(decoding: errorData, as: UTF8.self))
    }
}

/// Polls `condition` until it holds or `timeout` passes; never a bare sleep.
func waitUntil(timeout: TimeInterval = 30, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(20_000)
    }
    return try condition()
}
