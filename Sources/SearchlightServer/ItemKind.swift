import Foundation
import Searchlight

/// The kinds the page filters by and draws icons for, from an item's content type.
public enum ItemKind: String, CaseIterable, Sendable {
    case document, pdf, image, presentation, spreadsheet, text, other

    /// The kind of an item whose content type is `contentType` (with its tree).
    public init(contentType: String?, tree: [String]) {
        let type = contentType?.lowercased() ?? ""
        if type == "application/pdf" {
            self = .pdf
        } else if tree.contains("image") {
            self = .image
        } else if type.contains("presentation") || type.contains("powerpoint") || type.contains("keynote") {
            self = .presentation
        } else if type.contains("spreadsheet") || type.contains("excel") || type == "text/csv"
                    || type == "text/tab-separated-values" {
            self = .spreadsheet
        } else if type.contains("wordprocessing") || type == "application/msword" || type.contains("opendocument.text")
                    || type == "application/rtf" || type == "text/rtf" || type == "application/epub+zip"
                    || type == "text/html" || type == "text/markdown" || type == "message/rfc822" {
            self = .document
        } else if tree.contains("text") {
            self = .text
        } else {
            self = .other
        }
    }

    public init(_ item: SearchableItem) {
        self.init(contentType: item.attributeSet.contentType, tree: item.attributeSet.contentTypeTree)
    }
}

/// How recently an item was modified, for the page's date filter.
public enum ModificationPeriod: String, CaseIterable, Sendable {
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
