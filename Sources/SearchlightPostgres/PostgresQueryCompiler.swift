import Foundation
import Searchlight

/// Compiles a ``Searchlight/QueryExpression`` into a PostgreSQL condition over `item` (joined
/// with `domain`), every value of the query a bound parameter.
///
/// The rules are those of the SQLite index (`QueryTextMatcher`), in SQL:
/// - `==` matches the whole value against the pattern with `LIKE` (`*` becomes `%`; `%`, `_`
///   and `\` are escaped); `c` folds case (`lower`), `d` removes nonspacing marks (NFD,
///   left decomposed, as in Swift), `cd` is the index's fold (`searchlight_fold`), on both
///   sides. Exact strings without modifiers compare with `=`. `displayName` patterns are
///   served by `pg_trgm` indexes.
/// - `<`, `>`, `<=`, `>=` compare bytes (`COLLATE "C"`) after the same folding.
/// - `w` and `t` match the value's words against the attribute's words, as regular
///   expressions over the words joined by spaces: stored words (split in Swift like names)
///   for `displayName`, `title`, `authors` and `keywords`, preselected through the `words`
///   GIN index; `searchlight_words()` for the other attributes, `textContent` preselected
///   through its `tsvector` (one plain word under `cdw` is answered by the `tsvector` alone).
/// - Lists (`keywords`, `authors`, `contentTypeTree`) hold when some element does, `!=` when
///   none equals the value; exact elements use the arrays' GIN index (`@>`).
/// - `path` compares the identifier's bytes (`bytea`), as text only with modifiers.
/// - Numbers and dates compare the typed columns; a `$time` period is a range.
/// Every condition is `true` or `false`, never `NULL`, so `!` is plain negation.
///
/// ```swift
/// let statement = try PostgresQueryCompiler.statement(
///     QueryExpression(parsing: #"title == "report*"cd"#), select: "count(*)", now: Date(), calendar: .current)
/// print(statement) // SQL, then "-- $1 = …" lines
/// ```
///
/// A compiler is a value used for one statement: ``statement(_:select:domain:limit:ordered:now:calendar:)``
/// makes one, walks the expression once, and returns the SQL with its parameters. It holds no
/// connection and reads nothing, so compiling costs microseconds and may run on any thread; the
/// cost is the statement's, on the server. Patterns with a leading `*` cannot use a B-tree,
/// but `displayName` has trigram indexes, and word matches are preselected by GIN indexes as
/// described above; other attributes without an index of their own are compared row by row.
public struct PostgresQueryCompiler {
    /// The clock and calendar that resolve `$time` values.
    ///
    /// Read when a `$time` value is resolved (`$time.today` is the day of `now` in `calendar`'s
    /// time zone), so the same expression compiled at two moments may select different rows.
    let now: Date
    /// The calendar whose days, weeks, months and years `$time` periods are, in its time zone.
    let calendar: Calendar
    /// The SQL built so far and its parameters.
    var statement = SQLStatement()
    /// The placeholder of ``nonspacingMarkClass`` once bound.
    private var nonspacingMarks: String?

    /// Makes a compiler with an empty statement; only ``statement(_:select:domain:limit:ordered:now:calendar:)``
    /// and tests make one.
    init(now: Date, calendar: Calendar) {
        self.now = now
        self.calendar = calendar
    }

    /// A whole statement: `SELECT select FROM item … WHERE condition`, not expired, in
    /// `domain` when given, most recently modified first (then by identifier and domain).
    ///
    /// The expiration is compared with the real clock, not `now`: an item expired now is left out
    /// whatever instant `$time` values are resolved against.
    ///
    /// - Throws: ``PostgresIndexError`` `.invalidQuery` for an attribute this index cannot query.
    /// - Parameters:
    ///   - expression: The parsed query.
    ///   - select: The SQL select list, spliced as is (`count(*)`, ``PostgresIndex``'s item
    ///     columns): never a value from outside.
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many rows; a negative limit is taken as zero.
    ///   - ordered: Whether to order the rows as query results are ordered (newest first, undated
    ///     last, then by identifier and domain); a count needs no order.
    ///   - now: The instant `$time` values are resolved against.
    ///   - calendar: The calendar of `$time` periods.
    /// - Returns: The SQL and its bound parameters.
    public static func statement(_ expression: QueryExpression, select: String, domain: String? = nil,
                                 limit: Int? = nil, ordered: Bool = true, now: Date,
                                 calendar: Calendar) throws -> SQLStatement {
        var compiler = PostgresQueryCompiler(now: now, calendar: calendar)
        let condition = try compiler.condition(for: expression)
        var statement = compiler.statement
        var sql = "SELECT \(select) FROM item \(PostgresIndex.itemJoins) WHERE \(condition)"
        sql += " AND (item.expiration_date IS NULL OR item.expiration_date > \(statement.bind(.double(Date().timeIntervalSince1970))))"
        if let domain { sql += " AND domain.name = \(statement.bind(domain))" }
        if ordered {
            sql += " ORDER BY item.modification_date DESC NULLS LAST, item.identifier, domain.name COLLATE \"C\""
        }
        if let limit { sql += " LIMIT \(statement.bind(.integer(max(0, limit))))" }
        statement.sql = sql
        return statement
    }

    /// The SQL condition for `expression`.
    ///
    /// Appends the parameters it needs to ``statement`` and returns SQL that refers to them by
    /// number; the result is always a parenthesized boolean that is never `NULL`.
    ///
    /// - Throws: ``PostgresIndexError`` with ``PostgresIndexError/Code/invalidQuery`` for an
    ///   attribute that has no column here.
    mutating func condition(for expression: QueryExpression) throws -> String {
        switch expression {
        case .predicate(let predicate): try condition(for: predicate)
        case .and(let operands): Self.balanced(try operands.map { try condition(for: $0) }, "AND")
        case .or(let operands): Self.balanced(try operands.map { try condition(for: $0) }, "OR")
        case .not(let operand): "(NOT " + (try condition(for: operand)) + ")"
        }
    }

    /// `(a OP b OP …)`, nested in halves when long, so that no parse tree gets deep.
    ///
    /// Groups of at most sixteen operands, split in halves above that: the depth of the SQL
    /// grows with the logarithm of the number of operands, not with the number.
    private static func balanced(_ parts: [String], _ op: String) -> String {
        guard parts.count > 16 else { return "(" + parts.joined(separator: " \(op) ") + ")" }
        let middle = parts.count / 2
        return "(" + balanced(Array(parts[..<middle]), op) + " \(op) " + balanced(Array(parts[middle...]), op) + ")"
    }

    // MARK: - Attributes

    /// Where an attribute is stored: its column, and the column of its words when they are stored.
    struct Column {
        var sql: String
        var words: String?
    }

    /// The columns, by attribute name: an attribute the query language gains is found here
    /// by its name (those of Docs/Contract.md#what-is-indexed are all present).
    static let columns: [String: Column] = [
        "displayName": Column(sql: "item.display_name", words: "item.name_words"),
        "title": Column(sql: "item.title", words: "item.title_words"),
        "authors": Column(sql: "item.authors", words: "item.author_words"),
        "keywords": Column(sql: "item.keywords", words: "item.keyword_words"),
        "contentType": Column(sql: "item.content_type"),
        "contentTypeTree": Column(sql: "item.content_type_tree"),
        "contentDescription": Column(sql: "item.content_description"),
        "textContent": Column(sql: "item.text_content"),
        "size": Column(sql: "item.size"),
        "contentModificationDate": Column(sql: "item.modification_date"),
        "contentCreationDate": Column(sql: "item.creation_date"),
        "pixelWidth": Column(sql: "item.pixel_width"),
        "pixelHeight": Column(sql: "item.pixel_height"),
        "pageCount": Column(sql: "item.page_count"),
        "acquisitionMake": Column(sql: "item.acquisition_make"),
        "acquisitionModel": Column(sql: "item.acquisition_model"),
        "latitude": Column(sql: "item.latitude"),
        "longitude": Column(sql: "item.longitude"),
        "userTags": Column(sql: "item.user_tags"),
        "comment": Column(sql: "item.comment"),
        "starRating": Column(sql: "item.star_rating"),
        "whereFroms": Column(sql: "item.where_froms"),
        "path": Column(sql: "item.identifier"),
        "domain": Column(sql: "domain.name"),
    ]

    /// The column of `attribute`.
    ///
    /// - Throws: ``PostgresIndexError`` with ``PostgresIndexError/Code/invalidQuery`` when the
    ///   attribute has no column in ``columns``.
    private static func column(_ attribute: QueryAttribute) throws -> Column {
        guard let column = columns[attribute.name] else {
            throw PostgresIndexError(.invalidQuery, "the PostgreSQL index cannot query \(attribute.name) yet")
        }
        return column
    }

    // MARK: - Predicates

    /// The SQL condition for one predicate: numbers and dates as intervals (``NumericCondition``),
    /// strings by kind (``stringCondition(_:_:_:_:)``), `*` as the `OR` of every text attribute.
    /// A value of the wrong kind (a string for a number) matches nothing: `false`.
    private mutating func condition(for predicate: QueryPredicate) throws -> String {
        let attribute = predicate.attribute
        switch (attribute.kind, predicate.test) {
        case (.number, .comparison(let op, let value)), (.date, .comparison(let op, let value)):
            return NumericCondition.sql(try Self.column(attribute).sql, op, interval(value)) { statement.bind(.double($0)) }
        case (.number, .inRange(let low, let high)), (.date, .inRange(let low, let high)):
            return NumericCondition.rangeSQL(try Self.column(attribute).sql, low: interval(low), high: interval(high)) {
                statement.bind(.double($0))
            }
        case (_, .comparison(let op, let value)):
            guard let (pattern, modifiers) = value.patternAndModifiers else { return "false" }
            if attribute == .anyText {
                let any = "(" + (try QueryAttribute.textAttributes
                    .map { try stringCondition($0, .equal, pattern, modifiers) }).joined(separator: " OR ") + ")"
                return op == .notEqual ? "(NOT \(any))" : any
            }
            return try stringCondition(attribute, op, pattern, modifiers)
        case (_, .inRange(let low, let high)):
            guard let (lowPattern, lowModifiers) = low.patternAndModifiers,
                  let (highPattern, highModifiers) = high.patternAndModifiers else { return "false" }
            return "(" + (try stringCondition(attribute, .greaterOrEqual, lowPattern, lowModifiers)) + " AND "
                + (try stringCondition(attribute, .lessOrEqual, highPattern, highModifiers)) + ")"
        }
    }

    /// The interval of numbers a value stands for: a number is a point; a `$time` date is
    /// resolved against ``now`` and ``calendar``, a day or longer period a half-open range.
    private func interval(_ value: QueryValue) -> (start: Double, end: Double) {
        NumericCondition.interval(of: value, now: now, calendar: calendar)
    }

    /// A string comparison on a text, a list or the identifier.
    ///
    /// A list goes to ``listCondition(_:_:_:_:)``; the identifier without modifiers compares
    /// its bytes; `w` or `t` on the text goes to ``textWordsCondition(_:_:_:_:)``; every other
    /// text to ``scalarCondition(_:words:_:_:_:preselect:)``.
    ///
    /// - Throws: ``PostgresIndexError`` with ``PostgresIndexError/Code/invalidQuery`` when the
    ///   attribute has no column.
    private mutating func stringCondition(_ attribute: QueryAttribute, _ op: QueryPredicate.Operator,
                                          _ pattern: QueryPattern, _ modifiers: QueryStringModifiers) throws -> String {
        let column = try Self.column(attribute)
        switch attribute.kind {
        case .textList:
            return listCondition(column, op, pattern, modifiers)
        case .identifier where modifiers.isEmpty:
            let bytes = Array(pattern.text.utf8)
            switch op {
            case .equal, .notEqual:
                let test = pattern.hasWildcard
                    ? "\(column.sql) LIKE \(statement.bind(.bytes(Array(Self.likePattern(pattern).utf8))))"
                    : "\(column.sql) = \(statement.bind(.bytes(bytes)))"
                return op == .equal ? "(\(test))" : "(NOT (\(test)))"
            default:
                return "(\(column.sql) \(op.rawValue) \(statement.bind(.bytes(bytes))))"
            }
        case .identifier:
            let text = "searchlight_identifier_text(\(column.sql))"
            return scalarCondition(text, words: "searchlight_words(\(text))", op, pattern, modifiers)
        default:
            if attribute == .textContent, Self.isWordMatch(modifiers), op == .equal || op == .notEqual {
                return textWordsCondition(column.sql, op, pattern, modifiers)
            }
            return scalarCondition(column.sql, words: column.words ?? "searchlight_words(\(column.sql))",
                                   op, pattern, modifiers, preselect: column.words != nil)
        }
    }

    /// A comparison on one text; `words` is the SQL of its words joined by spaces, and
    /// `preselect` says whether those words are in the `words` index.
    private mutating func scalarCondition(_ value: String, words: String, _ op: QueryPredicate.Operator,
                                          _ pattern: QueryPattern, _ modifiers: QueryStringModifiers,
                                          preselect: Bool = false) -> String {
        let isEquality = op == .equal || op == .notEqual
        let test: String
        if !isEquality {
            test = orderingTest(value, op, pattern, modifiers)
        } else if Self.isWordMatch(modifiers) {
            guard let words = wordTest(value, words: words, pattern, modifiers) else {
                return op == .equal ? "false" : "(\(value) IS NOT NULL)"
            }
            if op == .equal, preselect, let vector = wordsVectorTest(pattern) {
                return "(\(vector) AND \(value) IS NOT NULL AND \(words))"
            }
            test = words
        } else {
            test = equalityTest(value, pattern, modifiers)
        }
        // The tests are never NULL on a value that is not: no `coalesce`, which would hide
        // the condition from the indexes.
        return op == .notEqual ? "(\(value) IS NOT NULL AND NOT \(test))" : "(\(value) IS NOT NULL AND \(test))"
    }

    /// A comparison on a list: some element holds (for `!=`: the list is not empty and no
    /// element equals the value).
    private mutating func listCondition(_ column: Column, _ op: QueryPredicate.Operator, _ pattern: QueryPattern,
                                        _ modifiers: QueryStringModifiers) -> String {
        if op == .equal || op == .notEqual, modifiers.isEmpty, !pattern.hasWildcard {
            let contains = "\(column.sql) @> ARRAY[\(statement.bind(pattern.text))]"
            return op == .equal ? "(\(contains))" : "(cardinality(\(column.sql)) > 0 AND NOT (\(contains)))"
        }
        let elements = column.words.map { "unnest(\(column.sql), \($0)) AS element(value, words)" }
            ?? "unnest(\(column.sql)) AS element(value)"
        let words = column.words == nil ? "searchlight_words(element.value)" : "element.words"
        let test: String
        if op != .equal && op != .notEqual {
            test = orderingTest("element.value", op, pattern, modifiers)
        } else if Self.isWordMatch(modifiers) {
            // A value without words equals no element: `!=` holds for every list that has one.
            guard let wordTest = wordTest("element.value", words: words, pattern, modifiers) else {
                return op == .notEqual ? "(cardinality(\(column.sql)) > 0)" : "false"
            }
            test = wordTest
        } else {
            test = equalityTest("element.value", pattern, modifiers)
        }
        // `keyword_words` has one entry more than `keywords` (the words of the tags, comment
        // and addresses), paired with no value: it is not a keyword.
        let some = "EXISTS (SELECT 1 FROM \(elements) WHERE element.value IS NOT NULL AND coalesce(\(test), false))"
        guard op == .notEqual else {
            if op == .equal, Self.isWordMatch(modifiers), column.words != nil, let vector = wordsVectorTest(pattern) {
                return "(\(vector) AND \(some))"
            }
            return "(\(some))"
        }
        return "(cardinality(\(column.sql)) > 0 AND NOT \(some))"
    }

    /// Whether matching is by words (`w` or `t`).
    static func isWordMatch(_ modifiers: QueryStringModifiers) -> Bool {
        !modifiers.isDisjoint(with: [.wordBased, .tokenized])
    }

    /// `value` folded as the modifiers say, as ``Searchlight/QueryStringModifiers`` folds in
    /// Swift: `c` lowercases; `d` alone decomposes (NFD) and removes the nonspacing marks,
    /// leaving the rest decomposed (so that orderings compare the same bytes: a Hangul
    /// syllable is its jamo); `cd` is the index's fold (`searchlight_fold`, ``WordFolding``).
    private mutating func folded(_ value: String, _ modifiers: QueryStringModifiers) -> String {
        switch (modifiers.contains(.caseInsensitive), modifiers.contains(.diacriticInsensitive)) {
        case (true, true): return "searchlight_fold(\(value))"
        case (true, false): return "lower(\(value))"
        case (false, true):
            if nonspacingMarks == nil { nonspacingMarks = statement.bind(Self.nonspacingMarkClass) }
            return "regexp_replace(normalize(\(value), NFD), \(nonspacingMarks!), '', 'g')"
        case (false, false): return value
        }
    }

    /// The marks (general categories Mn, Mc, Me) as a regular expression class: what continues a character.
    static let markClass = PostgreSQLWordFolding.characterClass {
        [.nonspacingMark, .spacingMark, .enclosingMark].contains($0.properties.generalCategory)
    }

    /// The nonspacing marks (general category Mn) as a regular expression class.
    static let nonspacingMarkClass = PostgreSQLWordFolding.characterClass { $0.properties.generalCategory == .nonspacingMark }

    /// `<`, `>`, `<=` or `>=` on the folded value and the folded pattern text, in byte order
    /// (`COLLATE "C"`), as Swift compares folded strings. Wildcards are compared as the
    /// characters `*`: an ordering has no pattern.
    private mutating func orderingTest(_ value: String, _ op: QueryPredicate.Operator, _ pattern: QueryPattern,
                                       _ modifiers: QueryStringModifiers) -> String {
        let modifiers = modifiers.intersection([.caseInsensitive, .diacriticInsensitive])
        return "(\(folded(value, modifiers)) COLLATE \"C\") \(op.rawValue) "
            + folded(statement.bind(pattern.text), modifiers)
    }

    /// `==` on one value: `=` for an exact text, `ILIKE` under `c` alone, else `LIKE` over both
    /// sides folded as the modifiers say. The result may be `NULL` when `value` is: its callers
    /// test `value IS NOT NULL` first.
    private mutating func equalityTest(_ value: String, _ pattern: QueryPattern, _ modifiers: QueryStringModifiers) -> String {
        let modifiers = modifiers.intersection([.caseInsensitive, .diacriticInsensitive])
        if modifiers.isEmpty, !pattern.hasWildcard { return "\(value) = \(statement.bind(pattern.text))" }
        if modifiers == .caseInsensitive {
            // ILIKE folds case as lower() does, and the trigram indexes serve it.
            return "\(value) ILIKE \(statement.bind(Self.likePattern(pattern)))"
        }
        return "\(folded(value, modifiers)) LIKE \(folded(statement.bind(Self.likePattern(pattern)), modifiers))"
    }

    /// The pattern for `LIKE`: `*` as `%`, and `%`, `_` and `\` escaped.
    ///
    /// `report*_v%` becomes `report%\_v\%`: a literal `_` or `%` of the query matches only
    /// itself.
    static func likePattern(_ pattern: QueryPattern) -> String {
        pattern.written(wildcard: "%", escaping: ["%", "_", "\\"])
    }

    // MARK: - Words (`w` and `t`)

    /// Whether the words of `value` (`words`: its words joined by spaces) hold the value's
    /// words: whole and consecutive with `w` (a `*` makes a prefix), each starting some word,
    /// anywhere, with `t`; without `c` or `d`, each literal piece of the value also appears in the value with
    /// its case or marks. `nil` when the value has no word (nothing matches).
    private mutating func wordTest(_ value: String, words: String, _ pattern: QueryPattern,
                                   _ modifiers: QueryStringModifiers) -> String? {
        let allWords = pattern.words
        guard !allWords.isEmpty else { return nil }
        let valueWords = allWords.filter { !$0.isCJKWord }
        var tests = cjkTests(value, allWords)
        let spaced = "(' ' || \(words))"
        if modifiers.contains(.wordBased), !valueWords.isEmpty {
            // Whole, consecutive words (`*` makes a prefix): each ends at a space or the end.
            let regex = valueWords.map { " " + Self.regex($0) }.joined() + "( |$)"
            tests.append("\(spaced) ~ \(statement.bind(regex))")
        }
        if modifiers.contains(.tokenized) {
            // Each word starts some word of the value.
            for word in valueWords { tests.append("\(spaced) ~ \(statement.bind(" " + Self.regex(word)))") }
        }
        tests += requiredPieces(value, pattern, modifiers)
        return "(" + tests.joined(separator: " AND ") + ")"
    }

    /// Words of Han or kana are found anywhere in a run of such characters, folded, the
    /// spaces between them left out (as the SQLite index's matcher finds them).
    private mutating func cjkTests(_ value: String, _ words: [QueryPattern]) -> [String] {
        words.filter(\.isCJKWord).map { word in
            "searchlight_fold(searchlight_join_cjk(\(value))) LIKE "
                + "searchlight_fold(\(statement.bind("%" + Self.likePattern(word) + "%")))"
        }
    }

    /// Pieces that must appear with their case or marks when matching words without `c` or `d`.
    ///
    /// Word matching reads the folded words; without `cd`, a piece of the value must also be
    /// found in the value folded only as the modifiers say. Each whitespace-separated piece of
    /// each literal is one regular-expression test, none under `cd`.
    private mutating func requiredPieces(_ value: String, _ pattern: QueryPattern,
                                         _ modifiers: QueryStringModifiers) -> [String] {
        let folding = modifiers.intersection([.caseInsensitive, .diacriticInsensitive])
        guard folding != [.caseInsensitive, .diacriticInsensitive] else { return [] }
        return pattern.components.flatMap { component -> [String] in
            guard case .literal(let text) = component else { return [] }
            // Whole characters, as Swift compares them: the piece is not followed by a mark of
            // the same character (`दस्तावेज` is not in `दस्तावेज़`).
            return text.split(whereSeparator: \.isWhitespace).map { piece in
                let escaped = Self.regex(QueryPattern([.literal(String(piece))]))
                return "\(folded(value, folding)) ~ (\(folded(statement.bind(escaped), folding)) || "
                    + "\(statement.bind("(?!" + Self.markClass + ")")))"
            }
        }
    }

    /// The `words` index condition that every match of a `w`/`t` value meets: each word's
    /// literal start is the start of a word of the item.
    ///
    /// `nil` when no word has a literal start (`*`, or only Han and kana): then the `words`
    /// index cannot help, and the condition is checked row by row.
    private mutating func wordsVectorTest(_ pattern: QueryPattern) -> String? {
        // A word of Han or kana may start inside an item's word: it preselects nothing.
        let prefixes = pattern.words.filter { !$0.isCJKWord }.compactMap { word -> String? in
            guard case .literal(let text) = word.components.first, !text.isEmpty else { return nil }
            return Self.tsqueryLexeme(text) + ":*"
        }
        guard !prefixes.isEmpty else { return nil }
        return "item.words @@ \(statement.bind(prefixes.joined(separator: " & ")))::tsquery"
    }

    /// `w`/`t` on the text. One plain word under `cdw` is a word of the text as the index has
    /// it (``Searchlight/QueryPattern/textWord(_:)``): the text's `tsvector` alone answers, no
    /// text is read. Otherwise the `tsvector` preselects (every word of the value, or its literal
    /// start, is a word of the text: Searchlight made them, ``TextWords``, folded here by the same
    /// code) and the text's words are then checked as for any attribute (``wordTest``), so that
    /// wildcards and the order of the words decide as they do in Swift.
    private mutating func textWordsCondition(_ column: String, _ op: QueryPredicate.Operator, _ pattern: QueryPattern,
                                             _ modifiers: QueryStringModifiers) -> String {
        if let word = pattern.textWord(modifiers) {
            let test = "item.text_words @@ \(statement.bind(Self.tsqueryLexeme(word)))::tsquery"
            return op == .equal ? "(\(column) IS NOT NULL AND \(test))" : "(\(column) IS NOT NULL AND NOT \(test))"
        }
        guard let words = wordTest(column, words: "searchlight_words(\(column))", pattern, modifiers) else {
            return op == .equal ? "false" : "(\(column) IS NOT NULL)"
        }
        guard op == .equal else { return "(\(column) IS NOT NULL AND NOT \(words))" }
        // Under `w` a word without wildcard is whole; else its literal start is a prefix.
        let lexemes = pattern.words.filter { !$0.isCJKWord }.compactMap { word -> String? in
            guard case .literal(let literal) = word.components.first, !literal.isEmpty else { return nil }
            let folded = WordFolding.fold(literal)
            let whole = modifiers.contains(.wordBased) && !modifiers.contains(.tokenized) && !word.hasWildcard
            return folded.isEmpty ? nil : Self.tsqueryLexeme(folded) + (whole ? "" : ":*")
        }
        // `text_words` is never NULL: the match needs no `coalesce`, which would hide it from the index.
        let preselect = lexemes.isEmpty ? "" : "item.text_words @@ \(statement.bind(lexemes.joined(separator: " & ")))::tsquery AND "
        return "(\(preselect)\(column) IS NOT NULL AND \(words))"
    }

    /// A word as a quoted `tsquery` lexeme.
    ///
    /// A quote is doubled and a backslash escaped, so that any word, however odd, is one lexeme;
    /// the result is bound as a parameter and cast with `::tsquery`, never spliced into SQL.
    static func tsqueryLexeme(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// A word pattern as a regular expression over words joined by spaces: literal text, and
    /// `[^ ]*` for a wildcard (which never crosses a word).
    ///
    /// Every ASCII character that is neither a letter nor a digit is escaped with a backslash,
    /// so the word's punctuation is literal in PostgreSQL's regular expressions; letters of other
    /// scripts are left as they are.
    static func regex(_ word: QueryPattern) -> String {
        word.components.map { component in
            switch component {
            case .wildcard: return "[^ ]*"
            case .literal(let text):
                return text.unicodeScalars.map { scalar in
                    scalar.isASCII && !scalar.properties.isAlphabetic && !("0"..."9").contains(scalar)
                        ? "\\" + String(scalar) : String(scalar)
                }.joined()
            }
        }.joined()
    }
}
