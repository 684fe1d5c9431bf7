import Foundation
import Searchlight
import SearchlightFiles
import SystemCalls

/// A one-line progress display on standard error, redrawn in place; only on a terminal.
struct ProgressBar {
    /// Files the root held at its last scan (or items in the index): the estimate of the
    /// files to walk; 0 for none (a first scan shows counts only).
    let estimatedTotal: Int
    /// The root being scanned, to shorten the current folder.
    let root: String
    let started = Date()
    private(set) var drawn = false

    init(estimatedTotal: Int, root: String) {
        self.estimatedTotal = estimatedTotal
        self.root = root
    }

    static var isTerminal: Bool { SystemCall.isTerminal(2) }

    /// The terminal's width, 80 when unknown.
    static var columns: Int { SystemCall.terminalColumns(2) ?? 80 }

    mutating func draw(_ summary: ScanSummary, folder: ItemIdentifier) {
        let seconds = max(Date().timeIntervalSince(started), 0.001)
        let rate = Double(summary.walked) / seconds
        var line = ""
        if estimatedTotal > 0 {
            let fraction = min(1, Double(summary.walked) / Double(estimatedTotal))
            let width = 20
            let filled = Int(fraction * Double(width))
            line += "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            line += String(format: "%3d%% ", Int(fraction * 100))
            if rate > 0, summary.walked < estimatedTotal {
                line += "~\(Self.duration(Double(estimatedTotal - summary.walked) / rate)) left, "
            }
        }
        line += "\(summary.walked) files, \(summary.added) new, \(summary.failed) failed, \(Int(rate))/s"
        let place = folder.bytes.isEmpty ? root : folder.lossyString
        let room = Self.columns - line.count - 3
        if room > 8 {
            line += "  " + (place.count > room ? "…" + place.suffix(room - 1) : place)
        }
        StandardError.write("\r" + line + "\u{1B}[K")
        drawn = true
    }

    /// `45 s`, `3 min`, `2 h`.
    static func duration(_ seconds: Double) -> String {
        if seconds < 90 { return "\(Int(seconds.rounded())) s" }
        if seconds < 5400 { return "\(Int((seconds / 60).rounded())) min" }
        return "\(Int((seconds / 3600).rounded())) h"
    }

    func clear() { if drawn { StandardError.write("\r\u{1B}[K") } }
}
