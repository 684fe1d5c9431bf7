import Foundation
import Searchlight

// The kinds the page filters by are the library's ItemKind (the rule of `kind:` too).

/// How recently an item was modified, for the page's date filter.
public enum ModificationPeriod: String, CaseIterable, Sendable {
    /// Today, this week, this month or this year: from the start of the period that holds now.
    case today, week, month, year

    /// The start of the period that contains `now`, in `calendar`.
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
struct ResultFilter: Sendable {
    var kinds: Set<ItemKind> = []
    var period: ModificationPeriod?

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
