import Foundation
import Searchlight

// The kinds the page filters by are the library's ItemKind (the rule of `kind:` too).

/// How recently an item was modified, for the page's date filter.
///
/// The raw values are the API's `date` parameter (`/api/search?q=…&date=week`). Unlike the
/// `date:` search word, a period here has no end: an item dated after now (a clock set
/// wrong) passes too.
public enum ModificationPeriod: String, CaseIterable, Sendable {
    /// Today, this week, this month or this year: from the start of the period that holds now.
    case today, week, month, year

    /// The start of the period that contains `now`, in `calendar`.
    ///
    /// The week starts on the calendar's first weekday, in its time zone.
    func start(now: Date, calendar: Calendar) -> Date {
        let component: Calendar.Component = switch self {
        case .today: .day
        case .week: .weekOfYear
        case .month: .month
        case .year: .year
        }
        return calendar.dateInterval(of: component, for: now)?.start ?? calendar.startOfDay(for: now)
    }
}

/// The filters of a search: kind and modification period (the domain is the library's own filter).
///
/// Applied in memory to the ranked results (``SearchServer/filterWindow`` of them at most).
struct ResultFilter: Sendable {
    /// The kinds kept; empty keeps every kind.
    var kinds: Set<ItemKind> = []
    /// The period an item must have been modified in; `nil` keeps every date.
    var period: ModificationPeriod?

    /// Whether nothing is filtered: the index is then asked for the page alone.
    var isEmpty: Bool { kinds.isEmpty && period == nil }

    /// Reads `kind=image,pdf` and `date=week`.
    /// - Throws: ``APIError`` 400 for an unknown kind or period.
    init(kind: String?, date: String?) throws(APIError) {
        for name in (kind ?? "").split(separator: ",") {
            guard let kind = ItemKind(rawValue: String(name)) else {
                throw APIError(.badRequest, "unknown kind \(String(name).debugDescription); expected one of "
                               + ItemKind.allCases.map(\.rawValue).joined(separator: ", "))
            }
            kinds.insert(kind)
        }
        if let date, !date.isEmpty {
            guard let period = ModificationPeriod(rawValue: date) else {
                throw APIError(.badRequest, "unknown date \(date.debugDescription); expected one of "
                               + ModificationPeriod.allCases.map(\.rawValue).joined(separator: ", "))
            }
            self.period = period
        }
    }

    /// A test for items, with the period's start computed once.
    ///
    /// An item without a modification date fails a period.
    func predicate(now: Date = Date(), calendar: Calendar = .current) -> @Sendable (IndexedItem) -> Bool {
        let kinds = kinds
        let start = period?.start(now: now, calendar: calendar)
        return { indexed in
            if !kinds.isEmpty && !kinds.contains(ItemKind(indexed.item)) { return false }
            if let start {
                guard let date = indexed.item.attributeSet.contentModificationDate, date >= start else { return false }
            }
            return true
        }
    }
}
