import Foundation

/// The SQL of a test on a number or a date, which SQLite and PostgreSQL (SearchlightPostgres)
/// write alike: one definition, so that the two index implementations answer a query alike.
///
/// A value stands for an interval: a number for itself, a `$time…` date for its period
/// (`$time.today` is the whole day). `==` means inside the period, `<` before its start, `>`
/// after its start, as Spotlight compares dates. An item without the attribute never matches.
public enum NumericCondition {
    /// The interval `value` stands for, given the time and calendar of the query.
    public static func interval(of value: QueryValue, now: Date, calendar: Calendar) -> (start: Double, end: Double) {
        switch value {
        case .number(let number): (number, number)
        case .date(let date): date.interval(now: now, calendar: calendar)
        case .string, .exactString: (0, 0)
        }
    }

    /// `column op bounds`, where `bind` turns a number into a placeholder of the statement.
    ///
    /// ```swift
    /// let today = NumericCondition.interval(of: .date(.today(offset: 0)), now: Date(), calendar: .current)
    /// NumericCondition.sql("item.contentModificationDate", .equal, today) { _ in "?" }
    /// // (item.contentModificationDate IS NOT NULL AND item.contentModificationDate >= ? AND item.contentModificationDate < ?)
    /// ```
    ///
    /// - Parameters:
    ///   - column: The column's SQL expression.
    ///   - op: The query's operator.
    ///   - bounds: The interval the value stands for (``interval(of:now:calendar:)``).
    ///   - bind: Makes the statement's placeholder for a number (`?`, `$3`) and keeps the number.
    public static func sql(_ column: String, _ op: QueryPredicate.Operator, _ bounds: (start: Double, end: Double),
                           bind: (Double) -> String) -> String {
        let isInstant = bounds.start == bounds.end
        let test: String
        switch op {
        case .equal where isInstant: test = "\(column) = \(bind(bounds.start))"
        case .equal: test = "\(column) >= \(bind(bounds.start)) AND \(column) < \(bind(bounds.end))"
        case .notEqual where isInstant: test = "\(column) != \(bind(bounds.start))"
        case .notEqual: test = "(\(column) < \(bind(bounds.start)) OR \(column) >= \(bind(bounds.end)))"
        case .less: test = "\(column) < \(bind(bounds.start))"
        case .lessOrEqual: test = "\(column) <= \(bind(bounds.start))"
        case .greater: test = "\(column) > \(bind(bounds.start))"
        case .greaterOrEqual: test = "\(column) >= \(bind(bounds.start))"
        }
        return "(\(column) IS NOT NULL AND \(test))"
    }

    /// `InRange(column, low, high)`: from the start of `low` to the end of `high` (its value,
    /// when a number).
    ///
    /// - Parameters:
    ///   - column: The column's SQL expression.
    ///   - low: The interval of the range's low value.
    ///   - high: The interval of its high value.
    ///   - bind: Makes the statement's placeholder for a number and keeps the number.
    public static func rangeSQL(_ column: String, low: (start: Double, end: Double), high: (start: Double, end: Double),
                                bind: (Double) -> String) -> String {
        let upper = high.start == high.end ? "\(column) <= \(bind(high.start))" : "\(column) < \(bind(high.end))"
        return "(\(column) IS NOT NULL AND \(column) >= \(bind(low.start)) AND \(upper))"
    }
}
