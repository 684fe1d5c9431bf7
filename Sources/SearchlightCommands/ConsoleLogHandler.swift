import Foundation
import Logging

/// Logs one plain line per message on standard error: `searchlight: warning: …`.
struct ConsoleLogHandler: LogHandler {
    var logLevel: Logger.Level = .warning
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var line = "searchlight: "
        if event.level >= .warning { line += "\(event.level): " }
        line += "\(event.message)"
        let extra = metadata.merging(event.metadata ?? [:]) { $1 }
        if !extra.isEmpty {
            line += " " + extra.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        StandardError.write(line + "\n")
    }
}

/// Unbuffered writes to standard error, shared by the log and the progress bar.
enum StandardError {
    static func write(_ text: String) { StandardOutput.writeAll(Array(text.utf8), to: 2) }
}
