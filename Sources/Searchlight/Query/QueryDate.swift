import Foundation

/// A date in a query: `$time.today(-7)`, `$time.iso(2025-06-18T14:00:00Z)`…
///
/// Relative dates are resolved when the query runs, against a clock and a calendar (by default
/// the current date and the local calendar). `$time.today` and its kin name a period (a day,
/// a week, a month, a year): `==` means "within the period", the ordering operators compare
/// with its start, so `contentModificationDate > $time.today(-7)` means "since the start of
/// the day seven days ago".
public enum QueryDate: Hashable, Sendable, CustomStringConvertible {
    /// Now, plus `offset` seconds.
    case now(offset: Int)
    /// The day `offset` days from today.
    case today(offset: Int)
    /// The day `offset` days from yesterday.
    case yesterday(offset: Int)
    /// The week `offset` weeks from this one.
    case thisWeek(offset: Int)
    /// The month `offset` months from this one.
    case thisMonth(offset: Int)
    /// The year `offset` years from this one.
    case thisYear(offset: Int)
    /// An instant.
    case iso(Date)

    /// The instant or period this date stands for, as seconds since 1970: `start..<end`, or
    /// `start == end` for an instant.
    ///
    /// - Parameters:
    ///   - now: The time relative dates (`$time.today(-1)`) are read against.
    ///   - calendar: The calendar whose days, weeks, months and years make the periods.
    public func interval(now: Date, calendar: Calendar) -> (start: Double, end: Double) {
        func period(_ component: Calendar.Component, _ step: Calendar.Component, _ offset: Int) -> (Double, Double) {
            guard let current = calendar.dateInterval(of: component, for: now),
                  let start = calendar.date(byAdding: step, value: offset, to: current.start),
                  let end = calendar.date(byAdding: step, value: offset + 1, to: current.start)
            else {
                let bound = offset < 0 ? -Double.greatestFiniteMagnitude : Double.greatestFiniteMagnitude
                return (bound, bound)
            }
            return (start.timeIntervalSince1970, end.timeIntervalSince1970)
        }
        switch self {
        case .now(let offset):
            let instant = now.timeIntervalSince1970 + Double(offset)
            return (instant, instant)
        case .today(let offset): return period(.day, .day, offset)
        case .yesterday(let offset): return period(.day, .day, offset - 1)
        case .thisWeek(let offset): return period(.weekOfYear, .weekOfYear, offset)
        case .thisMonth(let offset): return period(.month, .month, offset)
        case .thisYear(let offset): return period(.year, .year, offset)
        case .iso(let date): return (date.timeIntervalSince1970, date.timeIntervalSince1970)
        }
    }

    /// The date as written in a query.
    public var description: String {
        func relative(_ name: String, _ offset: Int) -> String {
            offset == 0 ? "$time.\(name)" : "$time.\(name)(\(offset > 0 ? "+" : "")\(offset))"
        }
        switch self {
        case .now(let offset): return relative("now", offset)
        case .today(let offset): return relative("today", offset)
        case .yesterday(let offset): return relative("yesterday", offset)
        case .thisWeek(let offset): return relative("this_week", offset)
        case .thisMonth(let offset): return relative("this_month", offset)
        case .thisYear(let offset): return relative("this_year", offset)
        case .iso(let date):
            return "$time.iso(\(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))))"
        }
    }
}
