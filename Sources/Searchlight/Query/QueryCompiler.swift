import Foundation
import GRDB

/// Compiles a ``QueryExpression`` into an SQL condition over the index's `item` table (joined
/// with `domain`), with every value of the query bound as a parameter.
///
/// The compiler prefers conditions SQLite can answer from an index:
/// - exact strings (single-quoted, or double-quoted without wildcard or modifier) compare the
///   column directly: `content_kind.contentType = :p1` uses `content_kind_by_type`, then
///   `item_by_kind` finds the items of the matching kinds;
/// - `"prefix*"` without modifiers adds a range on the column;
/// - `w` and `t` on `displayName`, `title` and `keywords` preselect candidates through the
///   `item_words` full-text index before the exact check (the index alone decides for
///   `displayName`: a title or keywords derived from the name have their words there); on
///   `textContent` and `authors` through `item_content`, then the stored text is checked
///   (`"net present value"cdw` reads the text of the items that have all three words only;
///   one word, `"invoice"cdw`, is answered by the index alone);
/// - `contentTypeTree == "image"` becomes a range over `content_kind.contentType`;
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
            return NumericCondition.sql(Self.column(attribute), op, interval(value)) { bind($0) }
        case (.number, .inRange(let low, let high)), (.date, .inRange(let low, let high)):
            return NumericCondition.rangeSQL(Self.column(attribute), low: interval(low), high: interval(high)) { bind($0) }
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
        case .title: "searchlight_title(item.title, item.displayName, item.derived)"
        case .contentType: "content_kind.contentType"
        case .contentTypeTree: "searchlight_type_tree(content_kind.contentType)"
        case .contentDescription: "content_kind.contentDescription"
        case .keywords: "searchlight_keywords(content_kind.keywords, item.displayName, item.derived)"
        case .textContent: "searchlight_text((SELECT text FROM item_text WHERE item_text.itemId = item.id))"
        case .authors: "(SELECT authors FROM item_text WHERE item_text.itemId = item.id)"
        case .size: "item.size"
        case .pageCount: "item.pageCount"
        case .acquisitionMake: "item.acquisitionMake"
        case .acquisitionModel: "item.acquisitionModel"
        case .latitude: "item.latitude"
        case .longitude: "item.longitude"
        case .contentModificationDate: "item.modificationDate"
        case .contentCreationDate: "item.creationDate"
        case .pixelWidth: "item.pixelWidth"
        case .pixelHeight: "item.pixelHeight"
        case .userTags: "item.userTags"
        case .comment: "item.comment"
        case .starRating: "item.starRating"
        case .whereFroms: "item.whereFroms"
        case .path: "item.identifier"
        case .domain: "domain.name"
        case .anyText: "NULL"
        }
    }

    /// A cheap stand-in for a column rebuilt by a function (``StoredText``), for the
    /// conditions that only reject rows early: a derived title is the start of the display
    /// name, so what starts or contains a title also starts or contains that stand-in.
    /// `nil` when there is none (keywords' words are folded).
    private static func prefilterColumn(_ attribute: QueryAttribute) -> String? {
        switch attribute {
        case .title: "coalesce(item.title, item.displayName)"
        case .keywords: nil
        default: column(attribute)
        }
    }

    /// The FTS5 table and columns that hold an attribute's words, if any: `item_words` for
    /// names (a title or keywords derived from the name, ``StoredText``, have their words in
    /// `name` only), `item_content` for authors and text.
    private static func wordsColumns(_ attribute: QueryAttribute) -> (table: String, columns: String)? {
        switch attribute {
        case .displayName: ("item_words", "name")
        case .title: ("item_words", "{name title}")
        case .keywords: ("item_words", "{name keywords}")
        case .authors: ("item_content", "authors")
        case .textContent: ("item_content", "text")
        default: nil
        }
    }

    /// The attributes held by the `content_kind` row an item references.
    private static let contentKindAttributes: Set<QueryAttribute> = [.contentType, .contentTypeTree, .contentDescription]

    private func interval(_ value: QueryValue) -> (start: Double, end: Double) {
        NumericCondition.interval(of: value, now: now, calendar: calendar)
    }

    /// A string comparison; on the content kind of the item for the attributes it holds, so
    /// that `content_kind_by_type` then `item_by_kind` answer exact and prefix types.
    private mutating func stringCondition(_ attribute: QueryAttribute, _ op: QueryPredicate.Operator,
                                          _ pattern: QueryPattern, _ modifiers: QueryStringModifiers) -> String {
        let condition = valueCondition(attribute, op, pattern, modifiers)
        guard Self.contentKindAttributes.contains(attribute) else { return condition }
        // Every item has a kind, so the test is never NULL.
        return "(item.kindId IN (SELECT content_kind.id FROM content_kind WHERE \(condition)))"
    }

    private mutating func valueCondition(_ attribute: QueryAttribute, _ op: QueryPredicate.Operator,
                                         _ pattern: QueryPattern, _ modifiers: QueryStringModifiers) -> String {
        let column = Self.column(attribute)
        let isList = attribute.kind == .textList
        let isOrdering = op != .equal && op != .notEqual
        // A title or keywords rebuilt from the name (``StoredText``) cost a function call at
        // each mention of the column: conditions on them mention it once, after the
        // full-text preselection and the cheap tests on ``prefilterColumn(_:)``.
        let isComputed = attribute == .title || attribute == .keywords
        let prefilter = Self.prefilterColumn(attribute)
        let caseAndDiacritics = modifiers.intersection([.caseInsensitive, .diacriticInsensitive])

        // Exact comparisons straight on the column, so that SQLite can use its indexes.
        if attribute == .contentTypeTree, !isOrdering, modifiers.isEmpty, !pattern.hasWildcard,
           let tree = contentTypeTreeCondition(pattern.text) {
            return op == .equal ? tree : "(NOT \(tree))"
        }
        if !isList, (isOrdering && caseAndDiacritics.isEmpty) || (modifiers.isEmpty && !pattern.hasWildcard) {
            let value = attribute == .path ? bind(Data(pattern.text.utf8)) : bind(pattern.text)
            let comparison = "\(column) \(op.rawValue == "==" ? "=" : op.rawValue) \(value)"
            guard isComputed else { return "(\(column) IS NOT NULL AND \(comparison))" }
            if op == .equal, let prefilter {
                return "(instr(\(prefilter), \(value)) = 1 AND ifnull(\(comparison), 0))"
            }
            return "ifnull(\(comparison), 0)"
        }

        // `searchlight_test` is false for NULL: the NULL test only spares it the call.
        // (Not for the text, which would be read and inflated for every row before the
        // full-text preselection.)
        var tests: [String] = attribute == .contentTypeTree || isComputed || attribute == .textContent
            ? [] : ["\(column) IS NOT NULL"]
        if op == .equal, let (table, wordsColumns) = Self.wordsColumns(attribute) {
            // Terms a matching value must have: those of a `w`/`t` value, or the words of an
            // exact keyword (same case, so the same word boundaries), each a prefix.
            var terms: [String] = []
            if modifiers.isWordMatch {
                // Only the text's column splits unspaced scripts into letters (not `authors`).
                terms = QueryTextMatcher.fullTextTerms(of: pattern, modifiers, forText: attribute == .textContent)
            } else if attribute == .keywords, !pattern.hasWildcard, !modifiers.contains(.caseInsensitive) {
                terms = NameTokenizer.words(in: pattern.text).map { SearchableIndex.quoted($0) + "*" }
            }
            if !terms.isEmpty {
                let match = terms.map { "\(wordsColumns) : \($0)" }.joined(separator: " AND ")
                tests.append("item.id IN (SELECT rowid FROM \(table) WHERE \(table) MATCH \(bind(match)))")
                if attribute == .displayName, Self.fullTextIndexDecides(pattern, modifiers) {
                    return "(" + tests.joined(separator: " AND ") + ")"
                }
                // A word of the text as the index has it: no text is read (``QueryTextMatcher/textWord(of:_:)``).
                if attribute == .textContent, QueryTextMatcher.textWord(of: pattern, modifiers) != nil {
                    return "(" + tests.joined(separator: " AND ") + ")"
                }
            }
        }
        if op == .equal, modifiers.isEmpty, pattern.isPrefixPattern, !isList, attribute != .path, let prefilter {
            let prefix = pattern.literalPrefix
            tests.append("\(prefilter) >= \(bind(prefix)) AND \(prefilter) < \(bind(prefix + "\u{10FFFF}"))")
        }
        if op == .equal, modifiers.isEmpty, attribute != .path, attribute != .contentTypeTree, let prefilter,
           let longest = pattern.components.compactMap({ if case .literal(let text) = $0 { text } else { nil } })
               .max(by: { $0.utf8.count < $1.utf8.count }) {
            // Matching compares bytes, so each literal is a substring of a matching value (of
            // the joined list, for keywords): SQLite's instr() rejects most rows cheaply.
            tests.append("instr(\(prefilter), \(bind(longest))) > 0")
        }
        let flags = modifiers.rawValue | (isList ? QueryFunctions.listFlag : 0)
            | (attribute == .textContent ? QueryFunctions.textFlag : 0)
        let arguments = "\(bind(QueryFunctions.code(of: op))), \(bind(pattern.encoded)), \(bind(flags))"
        if attribute == .keywords, op != .notEqual {
            // Some keyword matches: one of the kind's, or one of the name's. Rebuilding the
            // name's costs more than the test: only for names that could hold a match.
            var nameTests = ["item.derived & \(StoredText.derivedKeywords) != 0"]
            if let literal = Self.asciiLiteral(pattern, modifiers, op) {
                nameTests.append("(length(item.displayName) != length(CAST(item.displayName AS BLOB)) "
                                 + "OR instr(lower(item.displayName), \(bind(literal.lowercased()))) > 0)")
            }
            nameTests.append("searchlight_test(searchlight_name_keywords(item.displayName), \(arguments))")
            let kindKeywords = SearchableIndex.kindKeywordsSQL("item", keywords: "content_kind.keywords")
            var kindTests = ["searchlight_test(\(kindKeywords), \(arguments))"]
            if modifiers.isEmpty, let literal = Self.asciiLiteral(pattern, modifiers, op) {
                kindTests.insert("instr(\(kindKeywords), \(bind(literal))) > 0", at: 0)
            }
            tests.append("((" + kindTests.joined(separator: " AND ") + ") OR ("
                         + nameTests.joined(separator: " AND ") + "))")
        } else {
            tests.append("searchlight_test(\(column), \(arguments))")
        }
        return "(" + tests.joined(separator: " AND ") + ")"
    }

    /// The longest literal of a `==` pattern that any match holds as is (but for case), when it
    /// is ASCII and the modifiers at most `c` and `d`: an ASCII name's keywords are lowercase
    /// pieces of it, so a name whose lowercase lacks the literal has no matching keyword.
    private static func asciiLiteral(_ pattern: QueryPattern, _ modifiers: QueryStringModifiers,
                                     _ op: QueryPredicate.Operator) -> String? {
        guard op == .equal, modifiers.isSubset(of: [.caseInsensitive, .diacriticInsensitive]) else { return nil }
        let literals = pattern.components.compactMap { if case .literal(let text) = $0 { text } else { nil } }
        guard let longest = literals.max(by: { $0.utf8.count < $1.utf8.count }),
              !longest.isEmpty, longest.unicodeScalars.allSatisfy(\.isASCII) else { return nil }
        return longest
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
            // A plain word, or one followed by a wildcard: a whole or a prefix term.
            let literal = word.isPrefixPattern ? word.literalPrefix : word.text
            return (!word.hasWildcard || word.isPrefixPattern) && !literal.isEmpty
                && literal.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
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
            return "(content_kind.contentType IS NOT NULL AND content_kind.contentType = \(bind(value)))"
        }
        return "(content_kind.contentType IS NOT NULL AND (content_kind.contentType = \(bind(value)) OR "
            + "(content_kind.contentType >= \(bind(value + "/")) AND content_kind.contentType < \(bind(value + "0")))))"
    }
}
