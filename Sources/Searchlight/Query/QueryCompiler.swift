import Foundation
import GRDB

/// Compiles a ``QueryExpression`` into an SQL condition over the index's `item` table (joined
/// with `domain`), with every value of the query bound as a parameter.
///
/// The compiler prefers conditions SQLite can answer from an index:
/// - exact strings (single-quoted, or double-quoted without wildcard or modifier) compare the
///   column directly: `item.contentType = :p1` uses `item_by_content_type`;
/// - `"prefix*"` without modifiers adds a range on the column;
/// - `w` and `t` on `displayName`, `title` and `keywords` preselect candidates through the
///   `item_words` full-text index before the exact check;
/// - `contentTypeTree == "image"` becomes a range over `contentType`;
/// - numbers and dates compare the typed columns.
/// Everything else is checked by the `searchlight_test` SQL function (``QueryTextMatcher``).
/// Conditions never evaluate to SQL `NULL`, so `NOT` is plain Boolean negation.
struct QueryCompiler {
    /// The clock and calendar that resolve `$time` values.
    let now: Date
    let calendar: Calendar
    /// The bound parameters, in order of appearance: `:p1`, `:p2`…
    private(set) var parameters: [(name: String, value: DatabaseValue)] = []

    init(now: Date, calendar: Calendar) {
        self.now = now
        self.calendar = calendar
    }

    /// The SQL condition for `expression`.
    mutating func condition(for expression: QueryExpression) -> String {
        switch expression {
        case .predicate(let predicate): condition(for: predicate)
        case .and(let operands): Self.balanced(operands.map { condition(for: $0) }, "AND")
        case .or(let operands): Self.balanced(operands.map { condition(for: $0) }, "OR")
        case .not(let operand): "(NOT " + condition(for: operand) + ")"
        }
    }

    /// `(a OP b OP …)`, nested in halves when long: SQLite parses `a OR b OR c…` as a chain
    /// whose depth would exceed its limit of 1000 for long queries.
    private static func balanced(_ parts: [String], _ op: String) -> String {
        guard parts.count > 16 else { return "(" + parts.joined(separator: " \(op) ") + ")" }
        let middle = parts.count / 2
        return "(" + balanced(Array(parts[..<middle]), op) + " \(op) " + balanced(Array(parts[middle...]), op) + ")"
    }

    private mutating func bind(_ value: some DatabaseValueConvertible) -> String {
        let name = "p\(parameters.count + 1)"
        parameters.append((name, value.databaseValue))
        return ":" + name
    }

    // MARK: - Predicates

    private mutating func condition(for predicate: QueryPredicate) -> String {
        let attribute = predicate.attribute
        switch (attribute.kind, predicate.test) {
        case (.number, .comparison(let op, let value)), (.date, .comparison(let op, let value)):
            return numericCondition(Self.column(attribute), op, interval(value))
        case (.number, .inRange(let low, let high)), (.date, .inRange(let low, let high)):
            let column = Self.column(attribute)
            let lowBound = interval(low), highBound = interval(high)
            let upper = highBound.start == highBound.end
                ? "\(column) <= \(bind(highBound.start))" : "\(column) < \(bind(highBound.end))"
            return "(\(column) IS NOT NULL AND \(column) >= \(bind(lowBound.start)) AND \(upper))"
        case (_, .comparison(let op, let value)):
            guard let (pattern, modifiers) = value.stringPattern else { return "0" }
            if attribute == .anyText {
                let any = "(" + QueryAttribute.textAttributes
                    .map { stringCondition($0, .equal, pattern, modifiers) }.joined(separator: " OR ") + ")"
                return op == .notEqual ? "(NOT \(any))" : any
            }
            return stringCondition(attribute, op, pattern, modifiers)
        case (_, .inRange(let low, let high)):
            guard let (lowPattern, lowModifiers) = low.stringPattern,
                  let (highPattern, highModifiers) = high.stringPattern else { return "0" }
            return "(" + stringCondition(attribute, .greaterOrEqual, lowPattern, lowModifiers) + " AND "
                + stringCondition(attribute, .lessOrEqual, highPattern, highModifiers) + ")"
        }
    }

    /// The column (or SQL expression) holding an attribute.
    static func column(_ attribute: QueryAttribute) -> String {
        switch attribute {
        case .displayName: "item.displayName"
        case .title: "item.title"
        case .contentType: "item.contentType"
        case .contentTypeTree: "searchlight_type_tree(item.contentType)"
        case .contentDescription: "item.contentDescription"
        case .keywords: "item.keywords"
        case .textContent: "item.textContent"
        case .size: "item.size"
        case .contentModificationDate: "item.modificationDate"
        case .contentCreationDate: "item.creationDate"
        case .pixelWidth: "item.pixelWidth"
        case .pixelHeight: "item.pixelHeight"
        case .path: "item.identifier"
        case .domain: "domain.name"
        case .anyText: "NULL"
        }
    }

    /// The FTS5 column of `item_words` that holds an attribute's words, if any.
    private static func wordsColumn(_ attribute: QueryAttribute) -> String? {
        switch attribute {
        case .displayName: "name"
        case .title: "title"
        case .keywords: "keywords"
        default: nil
        }
    }

    private func interval(_ value: QueryValue) -> (start: Double, end: Double) {
        switch value {
        case .number(let number): (number, number)
        case .date(let date): date.interval(now: now, calendar: calendar)
        case .string, .exactString: (0, 0)
        }
    }

    private mutating func numericCondition(_ column: String, _ op: QueryPredicate.Operator,
                                           _ bounds: (start: Double, end: Double)) -> String {
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

    private mutating func stringCondition(_ attribute: QueryAttribute, _ op: QueryPredicate.Operator,
                                          _ pattern: QueryPattern, _ modifiers: QueryStringModifiers) -> String {
        let column = Self.column(attribute)
        let isList = attribute.kind == .textList
        let isOrdering = op != .equal && op != .notEqual
        let caseAndDiacritics = modifiers.intersection([.caseInsensitive, .diacriticInsensitive])

        // Exact comparisons straight on the column, so that SQLite can use its indexes.
        if attribute == .contentTypeTree, !isOrdering, modifiers.isEmpty, !pattern.hasWildcard,
           let tree = contentTypeTreeCondition(pattern.text) {
            return op == .equal ? tree : "(NOT \(tree))"
        }
        if !isList, (isOrdering && caseAndDiacritics.isEmpty) || (modifiers.isEmpty && !pattern.hasWildcard) {
            let value = attribute == .path ? bind(Data(pattern.text.utf8)) : bind(pattern.text)
            return "(\(column) IS NOT NULL AND \(column) \(op.rawValue == "==" ? "=" : op.rawValue) \(value))"
        }

        var tests: [String] = attribute == .contentTypeTree ? [] : ["\(column) IS NOT NULL"]
        if op == .equal, let wordsColumn = Self.wordsColumn(attribute) {
            // Words that must start a word of the column: those of a `w`/`t` value, or of an
            // exact keyword (same case, so the same word boundaries).
            var prefixes: [String] = []
            if modifiers.isWordMatch {
                prefixes = QueryTextMatcher.wordPrefixes(of: pattern)
            } else if attribute == .keywords, !pattern.hasWildcard, !modifiers.contains(.caseInsensitive) {
                prefixes = NameTokenizer.words(in: pattern.text)
            }
            if !prefixes.isEmpty {
                let match = prefixes.map { "\(wordsColumn) : \"\($0.replacingOccurrences(of: "\"", with: "\"\""))\"*" }
                    .joined(separator: " AND ")
                tests.append("item.id IN (SELECT rowid FROM item_words WHERE item_words MATCH \(bind(match)))")
                if Self.fullTextIndexDecides(pattern, modifiers) { return "(" + tests.joined(separator: " AND ") + ")" }
            }
        }
        if op == .equal, modifiers.isEmpty, pattern.isPrefixPattern, !isList, attribute != .path {
            let prefix = pattern.literalPrefix
            tests.append("\(column) >= \(bind(prefix)) AND \(column) < \(bind(prefix + "\u{10FFFF}"))")
        }
        if op == .equal, modifiers.isEmpty, attribute != .path, attribute != .contentTypeTree,
           let longest = pattern.components.compactMap({ if case .literal(let text) = $0 { text } else { nil } })
               .max(by: { $0.utf8.count < $1.utf8.count }) {
            // Matching compares bytes, so each literal is a substring of a matching value (of
            // the joined list, for keywords): SQLite's instr() rejects most rows cheaply.
            tests.append("instr(\(column), \(bind(longest))) > 0")
        }
        let flags = modifiers.rawValue | (isList ? QueryFunctions.listFlag : 0)
        tests.append("searchlight_test(\(column), \(bind(QueryFunctions.code(of: op))), "
                     + "\(bind(pattern.encoded)), \(bind(flags)))")
        return "(" + tests.joined(separator: " AND ") + ")"
    }

    /// Whether the full-text index alone answers a `w`/`t` match, with no need to check rows:
    /// case- and diacritic-insensitive, and every word of the value a plain ASCII word (so
    /// FTS5's tokens and ``NameTokenizer``'s words start at the same places), and either
    /// tokenized or a single word.
    static func fullTextIndexDecides(_ pattern: QueryPattern, _ modifiers: QueryStringModifiers) -> Bool {
        guard modifiers.isSuperset(of: [.caseInsensitive, .diacriticInsensitive]), modifiers.isWordMatch else { return false }
        let words = QueryTextMatcher.words(of: pattern)
        guard !words.isEmpty, modifiers.contains(.wordBased) ? words.count == 1 : true else { return false }
        return words.allSatisfy { word in
            !word.hasWildcard && word.text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
        }
    }

    /// `contentTypeTree == value` as conditions on `contentType`, when the value is a type
    /// (`image/png`) or a top-level type (`image`); `nil` for the `public.…` parents.
    ///
    /// ``ContentTypeTree`` lists a type, then its top-level type, then `public.…` names, all
    /// lowercase; so the tree holds `image` exactly when the type is `image` or starts with
    /// `image/`, which is a range over the `item_by_content_type` index.
    private mutating func contentTypeTreeCondition(_ value: String) -> String? {
        guard !value.isEmpty, value == value.lowercased(), !value.hasPrefix("public.") else { return nil }
        if value.contains("/") {
            return "(item.contentType IS NOT NULL AND item.contentType = \(bind(value)))"
        }
        return "(item.contentType IS NOT NULL AND (item.contentType = \(bind(value)) OR "
            + "(item.contentType >= \(bind(value + "/")) AND item.contentType < \(bind(value + "0")))))"
    }
}
