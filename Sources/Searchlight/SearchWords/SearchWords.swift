import Foundation

/// What people type in a search box, with Spotlight's search words: plain words, and words
/// such as `kind:pdf`, `date:week`, `modified:>2024-01-01`, `author:müller`, `tag:work` and
/// `name:report` that narrow the results. Each search word compiles to a query-language
/// predicate (Docs/Contract.md#query-language); the plain words are searched as ``SearchableIndex/searchResults(words:domain:limit:scope:)``
/// searches them.
///
/// ```swift
/// let search = try SearchWords(parsing: #"kind:pdf budget tag:work author:"Zoë Müller""#)
/// search.words        // ["budget"]
/// search.queryString  // ((contentType == "application/pdf"c)) && (userTags == "work*"cd) && (authors == "Zoë Müller*"cdw)
/// ```
///
/// A word whose key is not one of ``Key`` is a plain word, as in Spotlight (`http:`, `note:`).
/// A known key with an empty value (`tag:`) is a plain word too, so that typing one letter
/// at a time never fails. A known key with a value it cannot take (`kind:sofa`,
/// `modified:>notadate`) is an error: ``SearchWordsError``.
///
/// Parsing reads no index and no clock (`date:today` stays `$time.today`, resolved when the
/// query runs); only a date such as `modified:2024-06` asks the calendar, when it is parsed.
/// The value is `Sendable` and cheap to copy.
///
/// ## Topics
///
/// ### Parsing
///
/// - ``init(parsing:calendar:)``
/// - ``init(arguments:calendar:)``
/// - ``SearchWordsError``
///
/// ### What was typed
///
/// - ``words``
/// - ``filters``
/// - ``queryString``
/// - ``isEmpty``
/// - ``Key``
/// - ``Filter``
public struct SearchWords: Hashable, Sendable {
    /// The keys of the search words.
    public enum Key: String, CaseIterable, Sendable {
        /// `kind:`, `date:`, `created:`, `modified:`, `author:`, `tag:` and `name:`, as typed.
        case kind, date, created, modified, author, tag, name

        /// Whether a value may hold spaces (a name, a tag), where a kind or a date cannot.
        ///
        /// A command-line argument with such a key is one search word even when it holds spaces.
        var takesSpaces: Bool { self == .author || self == .tag || self == .name }
    }

    /// One search word and what it compiled to.
    public struct Filter: Hashable, Sendable {
        /// The key.
        public var key: Key
        /// The value as typed, without quotes.
        public var value: String
        /// The query-language predicate it stands for.
        ///
        /// Always a valid query: values are quoted with `quoted(_:prefix:suffix:)`.
        public var queryString: String
    }

    /// The plain words.
    public var words: [String]
    /// The search words, in the order typed.
    public var filters: [Filter]

    /// The filters as one query string (their conjunction), or `nil` when there is none.
    ///
    /// Each filter is parenthesized when there are several, so the result parses as their
    /// conjunction whatever each holds.
    public var queryString: String? {
        switch filters.count {
        case 0: nil
        case 1: filters[0].queryString
        default: filters.map { "(" + $0.queryString + ")" }.joined(separator: " && ")
        }
    }

    /// Whether nothing was typed but spaces.
    public var isEmpty: Bool { words.isEmpty && filters.isEmpty }

    /// Parses typed text: words separated by spaces; a value may be double-quoted
    /// (`author:"Zoë Müller"`).
    ///
    /// - Parameter calendar: The calendar whose days, months and years bound `modified:2024-06`
    ///   (`date:today` and its kin compile to `$time` values, resolved when the query runs);
    ///   evaluated only for such a date: `Calendar.current` loads the time zone and locale,
    ///   a cost every search would pay at start-up.
    /// - Throws: ``SearchWordsError`` for a search word with a value it cannot take.
    public init(parsing text: String, calendar: @autoclosure () -> Calendar = .current) throws(SearchWordsError) {
        try self.init(tokens: Self.tokens(of: text), calendar: calendar)
    }

    /// Parses command-line arguments: each is parsed as typed text, except that an argument
    /// that starts with `author:`, `tag:` or `name:` and has no quotes is one search word (the
    /// shell removed its quotes: `author:"Zoë Müller"` arrives as `author:Zoë Müller`).
    ///
    /// ```swift
    /// // searchlight search kind:pdf "author:Zoë Müller" budget
    /// let search = try SearchWords(arguments: ["kind:pdf", "author:Zoë Müller", "budget"])
    /// ```
    ///
    /// - Throws: ``SearchWordsError`` for a search word with a value it cannot take.
    public init(arguments: [String], calendar: @autoclosure () -> Calendar = .current) throws(SearchWordsError) {
        var tokens: [String] = []
        for argument in arguments {
            if let colon = argument.firstIndex(of: ":"), Key(rawValue: argument[..<colon].lowercased())?.takesSpaces == true,
               !argument.contains("\"") {
                tokens.append(argument.trimmingCharacters(in: .whitespaces))
            } else {
                tokens += Self.tokens(of: argument)
            }
        }
        try self.init(tokens: tokens, calendar: calendar)
    }

    /// Reads tokens as ``init(parsing:calendar:)`` splits them.
    ///
    /// Keys are matched without regard to case (`Kind:PDF`); a value's surrounding quotes and
    /// spaces are removed.
    ///
    /// - Parameters:
    ///   - tokens: The words as split, quotes kept.
    ///   - calendar: The calendar of dates, asked only for one.
    /// - Throws: ``SearchWordsError`` for a search word with a value it cannot take.
    init(tokens: [String], calendar: () -> Calendar) throws(SearchWordsError) {
        words = []
        filters = []
        for token in tokens {
            guard let colon = token.firstIndex(of: ":"), let key = Key(rawValue: token[..<colon].lowercased()) else {
                words.append(token)
                continue
            }
            var value = String(token[token.index(after: colon)...])
            if value.count >= 2, value.first == "\"", value.last == "\"" { value = String(value.dropFirst().dropLast()) }
            value = value.trimmingCharacters(in: .whitespaces)
            guard !value.isEmpty else {
                words.append(token)
                continue
            }
            filters.append(Filter(key: key, value: value, queryString: try Self.query(key, value, token: token, calendar: calendar)))
        }
    }

    /// Splits typed text at spaces, keeping a double-quoted part (with its quotes) whole.
    ///
    /// An unmatched quote runs to the end of the text.
    static func tokens(of text: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        var quoted = false
        for character in text {
            if character == "\"" { quoted.toggle() }
            if character.isWhitespace && !quoted {
                if !current.isEmpty { tokens.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { tokens.append(current) }
        return tokens
    }

    // MARK: Compiling

    /// `value` as a double-quoted query string whose `*`, `"` and `\` are literal; with a
    /// wildcard before and after it when asked.
    ///
    /// ```swift
    /// SearchWords.quoted("50*off", suffix: true)  // "50\*off*"
    /// ```
    static func quoted(_ value: String, prefix: Bool = false, suffix: Bool = false) -> String {
        var result = String.UnicodeScalarView(prefix ? "\"*".unicodeScalars : "\"".unicodeScalars)
        // Scalar by scalar: a quote followed by a combining mark is one Character.
        for scalar in value.unicodeScalars {
            if scalar == "*" || scalar == "\\" || scalar == "\"" { result.append("\\") }
            result.append(scalar)
        }
        var quoted = String(result)
        quoted += suffix ? "*\"" : "\""
        return quoted
    }

    /// The query-language predicate of one search word.
    ///
    /// `author:` and `name:` match words (`cdw`), the last one as a prefix; `tag:` matches a tag
    /// that starts with the value (`cd`); `kind:` is ``ItemKind/queryString``.
    ///
    /// - Throws: ``SearchWordsError`` for an unknown kind or a date it cannot read.
    private static func query(_ key: Key, _ value: String, token: String, calendar: () -> Calendar) throws(SearchWordsError) -> String {
        switch key {
        case .kind:
            guard let kind = ItemKind(searchWord: value) else {
                throw SearchWordsError(token, "expected one of " + ItemKind.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return kind.queryString
        case .date, .modified:
            return try dateQuery("contentModificationDate", value, token: token, calendar: calendar)
        case .created:
            return try dateQuery("contentCreationDate", value, token: token, calendar: calendar)
        case .author:
            // Words of an author, the last one as a prefix: `author:mül` finds Zoë Müller.
            return "authors == \(quoted(value, suffix: true))cdw"
        case .tag:
            // A tag that starts with the value: the results follow each typed letter.
            return "userTags == \(quoted(value, suffix: true))cd"
        case .name:
            return "displayName == \(quoted(value, suffix: true))cdw"
        }
    }

    /// The periods a date word may name, as query dates.
    ///
    /// Matched without regard to case. `week` is the calendar's week, from its first weekday.
    static let periods: [String: QueryDate] = [
        "today": .today(offset: 0), "yesterday": .yesterday(offset: 0), "week": .thisWeek(offset: 0),
        "month": .thisMonth(offset: 0), "year": .thisYear(offset: 0),
    ]

    /// `date:`, `modified:` and `created:` values: a period (`today`, `yesterday`, `week`,
    /// `month`, `year`), or a day, month or year (`2024-01-15`, `2024-01`, `2024`) after an
    /// optional comparison (`>`, `>=`, `<`, `<=`, `=`). A date alone means within it; `>`
    /// after it, `<` before it, `>=` from its start, `<=` to its end.
    ///
    /// A period (`week`) takes only `=`, `>=` and `<`: `modified:>=week` is "since the week
    /// began", `modified:<week` "before it".
    ///
    /// - Throws: ``SearchWordsError`` for a value that is neither a period nor a date, or a
    ///   period after `>` or `<=`.
    private static func dateQuery(_ attribute: String, _ value: String, token: String,
                                  calendar: () -> Calendar) throws(SearchWordsError) -> String {
        var rest = Substring(value)
        var op = ""
        for candidate in [">=", "<=", ">", "<", "="] where rest.hasPrefix(candidate) {
            op = candidate
            rest = rest.dropFirst(candidate.count)
            break
        }
        let expected = "expected today, yesterday, week, month, year, or a date such as 2024-01-15, 2024-01 or 2024 "
            + "after an optional >, >=, <, <= or ="
        if let period = periods[rest.lowercased()] {
            switch op {
            case "", "=": return "\(attribute) == \(period)"
            case ">=": return "\(attribute) >= \(period)"
            case "<": return "\(attribute) < \(period)"
            default: throw SearchWordsError(token, "a period takes =, >= or <; " + expected)
            }
        }
        guard let (start, end) = period(of: rest, calendar: calendar()) else { throw SearchWordsError(token, expected) }
        let from = QueryDate.iso(start).description, to = QueryDate.iso(end).description
        switch op {
        case ">": return "\(attribute) >= \(to)"
        case ">=": return "\(attribute) >= \(from)"
        case "<": return "\(attribute) < \(from)"
        case "<=": return "\(attribute) < \(to)"
        default: return "\(attribute) >= \(from) && \(attribute) < \(to)"
        }
    }

    /// The start and end of a year (`2024`), month (`2024-06`) or day (`2024-06-18`) in `calendar`.
    ///
    /// A day that does not exist (`2024-02-30`) is `nil` rather than rolled into the next month.
    ///
    /// - Returns: The period's start (included) and end (excluded), or `nil` for text that is
    ///   not `YYYY`, `YYYY-MM` or `YYYY-MM-DD`.
    static func period(of text: Substring, calendar: Calendar) -> (Date, Date)? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts[0].count == 4,
              parts.dropFirst().allSatisfy({ $0.count == 2 }),
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else { return nil }
        let numbers = parts.compactMap { Int($0) }
        var components = DateComponents(year: numbers[0], month: 1, day: 1)
        let step: Calendar.Component
        switch numbers.count {
        case 1: step = .year
        case 2:
            guard (1...12).contains(numbers[1]) else { return nil }
            components.month = numbers[1]
            step = .month
        default:
            guard (1...12).contains(numbers[1]), (1...31).contains(numbers[2]) else { return nil }
            components.month = numbers[1]
            components.day = numbers[2]
            step = .day
        }
        guard let start = calendar.date(from: components),
              calendar.component(.day, from: start) == components.day,
              let end = calendar.date(byAdding: step, value: 1, to: start) else { return nil }
        return (start, end)
    }
}

/// A search word with a value it cannot take (`kind:sofa`, `modified:>notadate`): a usage
/// error, which names the word and says what it expected.
public struct SearchWordsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The search word as typed.
    public var word: String
    /// What was expected instead.
    public var expected: String

    init(_ word: String, _ expected: String) {
        self.word = word
        self.expected = expected
    }

    /// One line naming the word and what was expected: `cannot read the search word "kind:sofa": …`.
    public var description: String { "cannot read the search word \(word.debugDescription): \(expected)" }
}
