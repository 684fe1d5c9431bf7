import Foundation
import Searchlight
import SearchlightFiles

// What `status` says of the faults of Docs/Contract.md#when-things-break: the index's last reset (it was damaged, moved
// aside and rebuilt) and a fault a running watch waits out (a full disk, a read-only folder).
extension StatusCommand {
    /// `reset:  …` when the index was reset, the last time; empty otherwise.
    static func resetLine(_ index: any IndexReader) -> String {
        guard let sqlite = index as? SearchableIndex, let reset = try? sqlite.resetHistory().last else { return "" }
        let kept = reset.movedAside.first.map { "moved aside to \($0)" } ?? "no copy kept"
        return "reset: \(reset.date.formatted(.iso8601)): the index was damaged and rebuilt (\(kept)); \(reset.reason)\n"
    }

    /// `  health:      disk full since 20:01:02, retrying …` for a running watch that waits out
    /// a fault; empty otherwise.
    static func faultLine(index: String, domain: String) -> String {
        guard let fault = WatchFault.current(index: index, domain: domain) else { return "" }
        let wait = max(0, Int(fault.nextAttempt.timeIntervalSinceNow.rounded(.up)))
        return "  health:      \(fault.summary) since \(Self.clock(fault.since)), retrying (\(fault.attempts) attempts, "
            + "next in \(wait) s); changes are kept and written once it clears: \(fault.detail)\n"
    }

    /// `HH:MM:SS`, local time.
    static func clock(_ date: Date) -> String {
        let parts = Calendar.current.dateComponents([.hour, .minute, .second], from: date)
        return String(format: "%02d:%02d:%02d", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }
}
