import Foundation
import SearchlightFiles

/// A one-line progress display on standard error, redrawn in place; only on a terminal.
struct ProgressBar {
    /// Items the domain held before: an estimate of the files to walk.
    let estimatedTotal: Int
    let started = Date()
    private(set) var drawn = false

    init(estimatedTotal: Int) { self.estimatedTotal = estimatedTotal }

    static var isTerminal: Bool { isatty(2) == 1 }

    mutating func draw(_ summary: ScanSummary) {
        let seconds = max(Date().timeIntervalSince(started), 0.001)
        let rate = Int(Double(summary.walked) / seconds)
        var line = "\r"
        if estimatedTotal > 0 {
            let fraction = min(1, Double(summary.walked) / Double(estimatedTotal))
            let width = 24
            let filled = Int(fraction * Double(width))
            line += "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            line += String(format: "%3d%% ", Int(fraction * 100))
        }
        line += "\(summary.walked) files: \(summary.added) new, \(summary.updated) changed, "
        line += "\(summary.removed) removed, \(summary.failed) failed, \(rate)/s"
        StandardError.write(line + "\u{1B}[K")
        drawn = true
    }

    func clear() { if drawn { StandardError.write("\r\u{1B}[K") } }
}
