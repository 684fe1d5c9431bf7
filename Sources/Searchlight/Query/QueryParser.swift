import Foundation

/// Parses Spotlight query strings into ``QueryExpression``s.
///
/// The grammar, loosest binding first:
///
/// ```
/// query      := and ( "||" and )*
/// and        := unary ( "&&" unary )*
/// unary      := "!" unary | primary
/// primary    := "(" query ")" | "InRange" "(" attribute "," value "," value ")"
///             | attribute op value
/// attribute  := "*" | a name of QueryAttribute or a kMDItem… alias
/// op         := ( "==" | "!=" | "<" | ">" | "<=" | ">=" ) [ "[" modifiers "]" ]
/// value      := '"' text '"' modifiers | "'" text "'" | number | "$time." date
/// ```
///
/// The parser never crashes nor loops: queries longer than ``maximumLength`` characters and
/// nesting deeper than ``maximumDepth`` levels are reported as errors.
///
/// ## Overview
///
/// The language is Spotlight's (`mdfind`'s query expressions), the one home of
/// Docs/Contract.md#query-language: `searchlight query`, the server's `/api/query` and
/// ``SearchQuery`` all parse through ``parse(_:)``. Parsing only builds a ``QueryExpression``;
/// it reads no index. ``SearchableIndex`` compiles the expression to SQL (`QueryCompiler`),
/// the PostgreSQL index to its own SQL, and ``QueryExpression/matches(_:now:calendar:)``
/// checks one item in memory with the same rules.
///
/// Attribute names (``QueryAttribute``) are compared without regard to case, and Apple's
/// `kMDItem…` names are aliases of them. `*` stands for every text attribute but the text
/// content, and takes only `==` and `!=`. Each attribute takes the values of its
/// ``QueryAttribute/Kind``: quoted strings for text, numbers for numbers, `$time` dates or
/// seconds since 1970 for dates; another value is an error at its column.
///
/// Values:
/// - `"text"` is a pattern: `*` matches any run of characters, `\*` a star, `\"` a quote,
///   `\\` a backslash. Letters right after the closing quote are modifiers
///   (``QueryStringModifiers``): `c` ignores case, `d` diacritics, `w` matches whole words,
///   `t` word prefixes in any order. The older form puts them after the operator: `==[cd]`.
/// - `'text'` is compared exactly with the whole value: no wildcard, no modifier.
/// - A number is decimal, with an optional sign and fraction, of at most 40 characters.
/// - `$time.now`, `$time.today`, `$time.yesterday`, `$time.this_week`, `$time.this_month` and
///   `$time.this_year` take an optional integer offset in their unit (`$time.today(-7)`: seven
///   days ago; ``QueryDate``), at most a billion either way; `$time.iso(2025-06-18T14:00Z)` is an
///   ISO 8601 instant, UTC when it names no zone.
///
/// Whitespace between tokens is ignored. The parser reads the query scalar by scalar, so a
/// combining mark cannot hide a quote, and reports a column counted in characters as a terminal
/// shows them.
///
/// ```swift
/// let recent = try QueryParser.parse(#"kMDItemContentType == "image/*" && contentModificationDate >= $time.this_week"#)
/// let sized = try QueryParser.parse("InRange(size, 1000, 2000) || !(pageCount > 10)")
/// do {
///     _ = try QueryParser.parse("title == ")
/// } catch {
///     print(error)   // the column, what was expected, and what was found
/// }
/// ```
///
/// ## Cost and threads
///
/// ``parse(_:)`` is a pure function of its argument: it reads no index, no clock and no
/// locale (`$time` dates stay symbolic until the expression is compiled or evaluated), so it
/// can be called from any thread or task at once. Its work is linear in the length of the
/// query, which is capped at ``maximumLength``, and its recursion is capped at
/// ``maximumDepth``, so the cost of even a hostile query is bounded.
///
/// ## Errors
///
/// Every error is a ``QueryParseError`` that names the 1-based column, what the grammar
/// allowed there and what stood there, in the user's spelling:
///
/// ```
/// title ==       invalid query at column 10: expected a value (a "string", a 'string', a number
///                or a $time date), found end of query
/// size > "big"   invalid query at column 8: expected a number for size, found "big"
/// ```
///
/// The first error ends the parse: no partial expression is returned, and nothing is
/// repaired or guessed.
///
/// ## Topics
///
/// ### Parsing
///
/// - ``parse(_:)``
/// - ``QueryParseError``
///
/// ### Limits
///
/// - ``maximumLength``
/// - ``maximumDepth``
public struct QueryParser {
    /// The longest query accepted, in characters.
    ///
    /// A longer query fails with a ``QueryParseError`` at this column before any of it is
    /// parsed. Only the first `maximumLength + 1` scalars are ever copied, so the cost of rejecting
    /// a huge query does not grow with its size.
    public static let maximumLength = 10_000
    /// The deepest nesting of parentheses and `!` accepted.
    ///
    /// Each `(` and each `!` counts one level while its operand is parsed. The limit bounds the
    /// recursion of the parser and of every later walk over the expression (compilation to SQL,
    /// ``QueryExpression/matches(_:now:calendar:)``), so that no query can exhaust the stack.
    public static let maximumDepth = 200
    /// The largest `$time` offset accepted, in its unit.
    ///
    /// Keeping offsets this small means the digit loop of ``parseDate()`` can never overflow an
    /// `Int`, and the dates they name stay within what `Calendar` can compute.
    static let maximumOffset = 1_000_000_000

    /// Parses `query`.
    ///
    /// The same as ``QueryExpression/init(parsing:)``.
    ///
    /// - Parameter query: A query string (`title == "report*"cd && size > 1000`).
    /// - Returns: The expression; `a && b && c` is one ``QueryExpression/and(_:)`` of three
    ///   operands, and a single operand stands alone.
    /// - Throws: ``QueryParseError`` with the column where the query went wrong, what was
    ///   expected there and what was found.
    public static func parse(_ query: String) throws(QueryParseError) -> QueryExpression {
        var parser = QueryParser(query: query)
        return try parser.parseQuery()
    }

    /// The query as given.
    private let query: String
    /// The query's scalars, each as a `Character`, at most ``maximumLength`` + 1 of them.
    private let characters: [Character]
    /// The index in ``characters`` of the next scalar to read.
    private var position = 0
    /// How many parentheses and `!` enclose ``position`` (see ``maximumDepth``).
    private var depth = 0

    /// Makes a parser positioned at the start of `query`.
    ///
    /// A parser is made by ``parse(_:)`` only, used once and thrown away: its ``position`` and
    /// ``depth`` are the state of one parse.
    ///
    /// - Parameter query: The query string; only its first ``maximumLength`` + 1 scalars are kept.
    private init(query: String) {
        self.query = query
        // Scalar by scalar: a combining mark after a quote (`"́`) would make one Character of
        // both, and hide the quote. Beyond the limit only the prefix is kept, so that no work
        // depends on the input's size.
        self.characters = query.unicodeScalars.prefix(Self.maximumLength + 1).map(Character.init)
    }

    // MARK: - Expressions

    /// `query`: the whole input, which must be one expression and nothing after it.
    ///
    /// - Returns: The expression of the whole query.
    /// - Throws: ``QueryParseError`` when the query is longer than ``maximumLength``, empty or
    ///   blank, not an expression, or followed by anything but white space.
    private mutating func parseQuery() throws(QueryParseError) -> QueryExpression {
        if characters.count > Self.maximumLength {
            throw error(at: Self.maximumLength, expected: "a query of at most \(Self.maximumLength) characters",
                        found: "a longer query")
        }
        skipSpaces()
        if isAtEnd { throw error(expected: "a predicate such as `title == \"report*\"cd`") }
        let expression = try parseOr()
        skipSpaces()
        if !isAtEnd {
            throw error(expected: "`&&`, `||` or the end of the query")
        }
        return expression
    }

    /// `and ( "||" and )*`: one operand alone, else ``QueryExpression/or(_:)`` of them.
    ///
    /// Operands are gathered into one flat list, so `a || b || c` is a single
    /// ``QueryExpression/or(_:)`` of three operands rather than a nested pair.
    ///
    /// - Throws: ``QueryParseError`` when an operand, the first or one after `||`, is not a
    ///   valid expression.
    private mutating func parseOr() throws(QueryParseError) -> QueryExpression {
        var operands = [try parseAnd()]
        while skipSpaces(), consume("||") { operands.append(try parseAnd()) }
        return operands.count == 1 ? operands[0] : .or(operands)
    }

    /// `unary ( "&&" unary )*`: `&&` binds tighter than `||`, as in C.
    ///
    /// As in ``parseOr()``, operands are kept flat: `a && b && c` is one
    /// ``QueryExpression/and(_:)`` of three.
    ///
    /// - Throws: ``QueryParseError`` when an operand, the first or one after `&&`, is not a
    ///   valid expression.
    private mutating func parseAnd() throws(QueryParseError) -> QueryExpression {
        var operands = [try parseUnary()]
        while skipSpaces(), consume("&&") { operands.append(try parseUnary()) }
        return operands.count == 1 ? operands[0] : .and(operands)
    }

    /// `"!" unary | primary`; a `!` that starts `!=` is no negation.
    ///
    /// `!!a` is kept as two nested ``QueryExpression/not(_:)``: the parser does not simplify.
    ///
    /// - Throws: ``QueryParseError`` when the `!`s nest deeper than ``maximumDepth``, or when
    ///   the operand is not a valid expression.
    private mutating func parseUnary() throws(QueryParseError) -> QueryExpression {
        skipSpaces()
        if peek("!") && !peek("!=") {
            try enterNesting()
            position += 1
            let operand = try parseUnary()
            depth -= 1
            return .not(operand)
        }
        return try parsePrimary()
    }

    /// A parenthesized query, `InRange(…)`, or a predicate. `InRange` not followed by `(` is
    /// read again as an attribute name (and so reported as an unknown one).
    ///
    /// Parentheses leave no trace in the result: `(a)` is `a`.
    ///
    /// - Throws: ``QueryParseError`` when a parenthesis is not closed, when the parentheses
    ///   nest deeper than ``maximumDepth``, or when the predicate is not valid.
    private mutating func parsePrimary() throws(QueryParseError) -> QueryExpression {
        skipSpaces()
        if peek("(") {
            try enterNesting()
            position += 1
            let expression = try parseOr()
            skipSpaces()
            guard consume(")") else { throw error(expected: "`)`, `&&` or `||`") }
            depth -= 1
            return expression
        }
        let start = position
        if let word = peekWord(), word.lowercased() == "inrange" {
            position += word.count
            skipSpaces()
            if peek("(") { return .predicate(try parseInRange()) }
            position = start
        }
        return .predicate(try parsePredicate())
    }

    /// Counts one more level of nesting, failing past ``maximumDepth``: the recursion of the
    /// parser (and of everything that walks the expression later) stays bounded.
    ///
    /// The caller decrements ``depth`` itself once the nested operand is parsed.
    ///
    /// - Throws: ``QueryParseError`` at the current position when the new depth is beyond
    ///   ``maximumDepth``.
    private mutating func enterNesting() throws(QueryParseError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw error(expected: "at most \(Self.maximumDepth) nested parentheses or `!`", found: "deeper nesting")
        }
    }

    // MARK: - Predicates

    /// `attribute op value`, the legacy `[cd]` modifiers merged into the string's own.
    ///
    /// - Returns: A comparison predicate of the attribute with the value.
    /// - Throws: ``QueryParseError`` when the attribute is unknown, the operator missing, an
    ///   ordering operator follows `*`, the value does not suit the attribute's kind, or `[cd]`
    ///   modifiers stand before a number or a date (they apply to strings only).
    private mutating func parsePredicate() throws(QueryParseError) -> QueryPredicate {
        let attribute = try parseAttribute()
        skipSpaces()
        let operatorStart = position
        guard let op = parseOperator() else {
            throw error(expected: "a comparison operator (==, !=, <, >, <=, >=)")
        }
        if attribute == .anyText && op != .equal && op != .notEqual {
            throw error(at: operatorStart, expected: "`==` or `!=` after `*`", found: "`\(op.rawValue)`")
        }
        let legacyModifiers = try parseLegacyModifiers()
        skipSpaces()
        var value = try parseValue(for: attribute)
        if let (modifiersStart, modifiers) = legacyModifiers {
            guard let (pattern, existing) = value.value.stringPattern else {
                throw error(at: modifiersStart, expected: "an operator without modifiers before a number or date",
                            found: "`[`")
            }
            value.value = .string(pattern, existing.union(modifiers))
        }
        return QueryPredicate(attribute: attribute, test: .comparison(op, value.value))
    }

    /// `InRange(attribute, low, high)`, after the word `InRange`: a named attribute (not `*`)
    /// and two values of its kind.
    ///
    /// Both bounds are included (a date bound of a whole day includes all of that day). The
    /// bounds are not checked for order: a range whose low bound is above its high bound matches
    /// nothing.
    ///
    /// - Throws: ``QueryParseError`` when the attribute is `*` or unknown, a comma or the closing
    ///   parenthesis is missing, or a bound does not suit the attribute's kind.
    private mutating func parseInRange() throws(QueryParseError) -> QueryPredicate {
        position += 1  // "("
        skipSpaces()
        let attributeStart = position
        let attribute = try parseAttribute()
        if attribute == .anyText {
            throw error(at: attributeStart, expected: "a named attribute in InRange", found: "`*`")
        }
        skipSpaces()
        guard consume(",") else { throw error(expected: "`,`") }
        skipSpaces()
        let low = try parseValue(for: attribute)
        skipSpaces()
        guard consume(",") else { throw error(expected: "`,`") }
        skipSpaces()
        let high = try parseValue(for: attribute)
        skipSpaces()
        guard consume(")") else { throw error(expected: "`)`") }
        return QueryPredicate(attribute: attribute, test: .inRange(low.value, high.value))
    }

    /// `*`, or a name of ``QueryAttribute`` or a `kMDItem…` alias; an unknown name is an error
    /// that lists the names known.
    ///
    /// The name is the run of letters, digits and underscores read by ``peekWord()``, so
    /// `title==` reads `title` and stops at `=`.
    ///
    /// - Returns: The attribute, ``QueryAttribute/anyText`` for `*`.
    /// - Throws: ``QueryParseError`` when no name stands here, or when the name is not known.
    private mutating func parseAttribute() throws(QueryParseError) -> QueryAttribute {
        skipSpaces()
        if consume("*") { return .anyText }
        guard let name = peekWord(), name.first?.isLetter == true || name.first == "_" else {
            throw error(expected: "an attribute name, `*`, `(`, `!` or `InRange`")
        }
        guard let attribute = QueryAttribute(name: name) else {
            let names = QueryAttribute.allCases.filter { $0 != .anyText }.map(\.name).joined(separator: ", ")
            throw error(expected: "an attribute name (\(names) or a kMDItem… name)")
        }
        position += name.count
        return attribute
    }

    /// The comparison operator at the current position, two-character ones tried first so
    /// that `<=` is not read as `<`.
    ///
    /// - Returns: The operator, the position moved past it; `nil`, the position unchanged, when
    ///   none stands here.
    private mutating func parseOperator() -> QueryPredicate.Operator? {
        for op in [QueryPredicate.Operator.equal, .notEqual, .lessOrEqual, .greaterOrEqual, .less, .greater]
        where consume(op.rawValue) {
            return op
        }
        return nil
    }

    /// `[cd]` right after an operator: the legacy form of modifiers.
    ///
    /// - Returns: The position of the `[` (for an error if the value turns out to be no string)
    ///   and the modifiers read; `nil` when no `[` follows the operator.
    /// - Throws: ``QueryParseError`` on a letter that is not a modifier, or a missing `]`.
    private mutating func parseLegacyModifiers() throws(QueryParseError) -> (Int, QueryStringModifiers)? {
        guard peek("[") else { return nil }
        let start = position
        position += 1
        var modifiers: QueryStringModifiers = []
        while !isAtEnd, characters[position] != "]" {
            guard let modifier = QueryStringModifiers(letter: characters[position]) else {
                throw error(expected: "a modifier (c, d, w or t) or `]`")
            }
            modifiers.insert(modifier)
            position += 1
        }
        guard consume("]") else { throw error(expected: "`]`") }
        return (start, modifiers)
    }

    // MARK: - Values

    /// A value, chosen by its first character, checked against the attribute's kind; the
    /// position where it starts is returned for later errors about it.
    ///
    /// Text, text-list and identifier attributes take either kind of string; number attributes
    /// take numbers; date attributes take `$time` dates and numbers (seconds since 1970).
    ///
    /// - Parameter attribute: The attribute the value is compared with.
    /// - Returns: The scalar index where the value starts, and the value.
    /// - Throws: ``QueryParseError`` when no value stands here, or when its kind does not suit
    ///   `attribute`; the error points at the start of the value.
    private mutating func parseValue(for attribute: QueryAttribute) throws(QueryParseError) -> (column: Int, value: QueryValue) {
        let start = position
        let value: QueryValue
        guard !isAtEnd else { throw error(expected: "a value (a \"string\", a 'string', a number or a $time date)") }
        switch characters[position] {
        case "\"": value = try parseDoubleQuoted()
        case "'": value = .exactString(try parseQuoted(closingWith: "'", wildcards: false).text)
        case "$": value = .date(try parseDate())
        case "-", "+", ".", "0"..."9": value = .number(try parseNumber())
        default: throw error(expected: "a value (a \"string\", a 'string', a number or a $time date)")
        }
        switch (attribute.kind, value) {
        case (.text, .string), (.text, .exactString), (.textList, .string), (.textList, .exactString),
             (.identifier, .string), (.identifier, .exactString), (.number, .number), (.date, .date), (.date, .number):
            return (start, value)
        case (.number, _):
            throw error(at: start, expected: "a number for \(attribute)", found: "\(value)")
        case (.date, _):
            throw error(at: start, expected: "a $time date or a number of seconds since 1970 for \(attribute)",
                        found: "\(value)")
        default:
            throw error(at: start, expected: "a quoted string for \(attribute)", found: "\(value)")
        }
    }

    /// A `"pattern"` with wildcards, and the modifier letters right after it.
    ///
    /// Any letter glued to the closing quote must be a modifier: `"a"x` is an error, not the
    /// string `a` followed by a word.
    ///
    /// - Returns: ``QueryValue/string(_:_:)`` of the pattern and its modifiers.
    /// - Throws: ``QueryParseError`` for an unterminated string, a bad escape, or a letter after
    ///   the quote that is not `c`, `d`, `w` or `t`.
    private mutating func parseDoubleQuoted() throws(QueryParseError) -> QueryValue {
        let (_, pattern) = try parseQuoted(closingWith: "\"", wildcards: true)
        var modifiers: QueryStringModifiers = []
        while !isAtEnd, characters[position].isLetter {
            guard let modifier = QueryStringModifiers(letter: characters[position]) else {
                throw error(expected: "a string modifier (c, d, w or t)")
            }
            modifiers.insert(modifier)
            position += 1
        }
        return .string(pattern, modifiers)
    }

    /// A quoted string starting at the current position; `\` escapes a quote, a backslash or `*`.
    ///
    /// - Parameters:
    ///   - quote: The closing quote, the same character as the opening one.
    ///   - wildcards: Whether an unescaped `*` is a wildcard (`"…"`) or a plain star (`'…'`).
    /// - Returns: The text with escapes resolved, and the same text as a pattern split at its
    ///   wildcards (a single literal when there are none).
    /// - Throws: ``QueryParseError`` at the opening quote when the string is not closed, or at
    ///   the backslash of an escape other than `\"`, `\'`, `\\` and `\*`.
    private mutating func parseQuoted(closingWith quote: Character, wildcards: Bool) throws(QueryParseError)
        -> (text: String, pattern: QueryPattern)
    {
        let start = position
        position += 1
        var components: [QueryPattern.Component] = []
        var literal = ""
        var text = ""
        while true {
            guard !isAtEnd else {
                throw error(at: start, expected: "a closing `\(quote)` for the string that starts here",
                            found: "end of query")
            }
            let character = characters[position]
            if character == quote {
                position += 1
                break
            }
            if character == "\\" {
                position += 1
                guard !isAtEnd, ["\"", "'", "\\", "*"].contains(characters[position]) else {
                    throw error(at: position - 1, expected: "`\\\"`, `\\'`, `\\\\` or `\\*`",
                                found: isAtEnd ? "end of query" : "`\\\(characters[position])`")
                }
                literal.append(characters[position])
                text.append(characters[position])
            } else if character == "*" && wildcards {
                components.append(.literal(literal))
                components.append(.wildcard)
                literal = ""
                text.append(character)
            } else {
                literal.append(character)
                text.append(character)
            }
            position += 1
        }
        components.append(.literal(literal))
        return (text, QueryPattern(components))
    }

    /// `[+-]digits[.digits]`, at least one digit, finite, of at most 40 characters.
    ///
    /// Only ASCII digits count, so a digit of another script (`٣`) is not read as a number.
    /// There is no exponent form (`1e6`).
    ///
    /// - Returns: The number, the position moved past its last digit.
    /// - Throws: ``QueryParseError`` when there is no digit, no digit after a decimal point, or
    ///   when the number is longer than 40 characters or not finite.
    private mutating func parseNumber() throws(QueryParseError) -> Double {
        let start = position
        if peek("-") || peek("+") { position += 1 }
        var digits = 0
        while !isAtEnd, characters[position].isASCII, characters[position].isNumber {
            position += 1
            digits += 1
        }
        if peek(".") {
            position += 1
            var fraction = 0
            while !isAtEnd, characters[position].isASCII, characters[position].isNumber {
                position += 1
                fraction += 1
            }
            guard fraction > 0 else { throw error(expected: "a digit after the decimal point") }
            digits += fraction
        }
        guard digits > 0 else { throw error(expected: "a digit") }
        guard position - start <= 40, let number = Double(String(characters[start..<position])), number.isFinite else {
            throw error(at: start, expected: "a number of at most 40 characters", found: "a longer number")
        }
        return number
    }

    /// `$time.NAME`, `$time.NAME(OFFSET)` or `$time.iso(DATE)`; an offset is an integer of at
    /// most ``maximumOffset`` either way.
    ///
    /// The date is kept symbolic (``QueryDate``): `$time.today` means the day the query is run,
    /// not the day it was parsed.
    ///
    /// The offset counts in the name's unit: seconds for `now`, days for `today` and
    /// `yesterday`, weeks, months and years for the `this_…` names. White space may stand
    /// between the name and its `(`; a name without `(` has offset 0, and the position is left
    /// right after the name.
    ///
    /// - Returns: The symbolic date.
    /// - Throws: ``QueryParseError`` for an unknown name after `$time.`, an offset that is
    ///   missing, not an integer, beyond ``maximumOffset``, or not closed by `)`.
    private mutating func parseDate() throws(QueryParseError) -> QueryDate {
        guard consume("$time.") else { throw error(expected: "`$time.`") }
        let nameStart = position
        var name = ""
        while !isAtEnd, characters[position].isLetter || characters[position] == "_" {
            name.append(characters[position])
            position += 1
        }
        if name == "iso" { return try parseISODate() }
        let make: ((Int) -> QueryDate)? = switch name {
        case "now": { .now(offset: $0) }
        case "today": { .today(offset: $0) }
        case "yesterday": { .yesterday(offset: $0) }
        case "this_week": { .thisWeek(offset: $0) }
        case "this_month": { .thisMonth(offset: $0) }
        case "this_year": { .thisYear(offset: $0) }
        default: nil
        }
        guard let make else {
            position = nameStart
            throw error(expected: "now, today, yesterday, this_week, this_month, this_year or iso after `$time.`",
                        found: name.isEmpty ? describeFound() : "`\(name)`")
        }
        let afterName = position
        skipSpaces()
        guard consume("(") else {
            position = afterName
            return make(0)
        }
        skipSpaces()
        let offsetStart = position
        var negative = false
        if consume("-") { negative = true } else { _ = consume("+") }
        var magnitude = 0
        var digits = 0
        while !isAtEnd, characters[position].isASCII, let digit = characters[position].wholeNumberValue {
            digits += 1
            if digits > 10 || magnitude * 10 + digit > Self.maximumOffset {
                throw error(at: offsetStart, expected: "an offset between -\(Self.maximumOffset) and \(Self.maximumOffset)",
                            found: "a larger number")
            }
            magnitude = magnitude * 10 + digit
            position += 1
        }
        guard digits > 0 else { throw error(expected: "an integer offset such as -7") }
        skipSpaces()
        guard consume(")") else { throw error(expected: "`)`") }
        return make(negative ? -magnitude : magnitude)
    }

    /// `(2025-06-18)`, `(2025-06-18T14:00)`, `(2025-06-18T14:00:00.5+02:00)`…; UTC when no zone is given.
    ///
    /// - Returns: ``QueryDate/iso(_:)`` of the instant.
    /// - Throws: ``QueryParseError`` when the `(` or `)` is missing or the text between them is
    ///   not a date that ``isoDate(_:)`` accepts.
    private mutating func parseISODate() throws(QueryParseError) -> QueryDate {
        skipSpaces()
        guard consume("(") else { throw error(expected: "`(` after `$time.iso`") }
        skipSpaces()
        let start = position
        while !isAtEnd, characters[position] != ")", !characters[position].isWhitespace { position += 1 }
        let text = String(characters[start..<position])
        guard let date = Self.isoDate(text) else {
            throw error(at: start, expected: "an ISO 8601 date such as 2025-06-18T14:00:00Z",
                        found: text.isEmpty ? describeFound() : "`\(text)`")
        }
        skipSpaces()
        guard consume(")") else { throw error(expected: "`)`") }
        return .iso(date)
    }

    /// The instant an ISO 8601 date or date-time names (`2025-06-18`, `2025-06-18T14:00`,
    /// `2025-06-18T14:00:00.5+02:00`, `…Z`), UTC when it names no zone; `nil` when `text` is
    /// not one.
    ///
    /// The reading is strict: a four-digit year, two-digit month, day, hour and minute, optional
    /// seconds and up to nine digits of fraction, and a zone of `Z` or `±hh:mm` (`±hhmm`). An
    /// impossible day (`2025-02-30`) is `nil` rather than rolled into the next month. It uses no
    /// `DateFormatter`, so it is cheap and safe to call from any thread.
    ///
    /// ```swift
    /// QueryParser.isoDate("2025-06-18T14:00+02:00")  // 2025-06-18 12:00 UTC
    /// QueryParser.isoDate("2025-06-18 14:00")        // nil: a space is not a separator
    /// ```
    static func isoDate(_ text: String) -> Date? {
        var scanner = Array(text.utf8)[...]
        /// Reads exactly `count` ASCII digits from the front of `scanner` as a decimal number.
        ///
        /// - Parameter count: How many digits the field has (4 for a year, 2 for the others).
        /// - Returns: The number, with `scanner` moved past it; `nil` when fewer than `count` bytes
        ///   remain or one of them is not a digit, `scanner` then left where it was.
        func number(_ count: Int) -> Int? {
            guard scanner.count >= count else { return nil }
            var value = 0
            for byte in scanner.prefix(count) {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            scanner = scanner.dropFirst(count)
            return value
        }
        /// Moves `scanner` past `byte` when it comes next; whether it did.
        func consume(_ byte: UInt8) -> Bool {
            guard scanner.first == byte else { return false }
            scanner = scanner.dropFirst()
            return true
        }
        guard let year = number(4), consume(UInt8(ascii: "-")), let month = number(2),
              consume(UInt8(ascii: "-")), let day = number(2) else { return nil }
        var components = DateComponents(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
        var fraction = 0.0
        var zoneOffset = 0
        if consume(UInt8(ascii: "T")) || consume(UInt8(ascii: "t")) {
            guard let hour = number(2), consume(UInt8(ascii: ":")), let minute = number(2) else { return nil }
            components.hour = hour
            components.minute = minute
            if consume(UInt8(ascii: ":")) {
                guard let second = number(2) else { return nil }
                components.second = second
                if consume(UInt8(ascii: ".")) {
                    var digits = ""
                    while let byte = scanner.first, (48...57).contains(byte), digits.count < 9 {
                        digits.append(Character(Unicode.Scalar(byte)))
                        scanner = scanner.dropFirst()
                    }
                    guard !digits.isEmpty, let value = Double("0." + digits) else { return nil }
                    fraction = value
                }
            }
            if consume(UInt8(ascii: "Z")) || consume(UInt8(ascii: "z")) {
            } else if let sign = scanner.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                scanner = scanner.dropFirst()
                guard let hours = number(2) else { return nil }
                _ = consume(UInt8(ascii: ":"))
                guard let minutes = number(2), hours <= 23, minutes <= 59 else { return nil }
                zoneOffset = (hours * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
            }
        }
        guard scanner.isEmpty, (1...12).contains(month), (1...31).contains(day), components.hour! <= 23,
              components.minute! <= 59, components.second! <= 60 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        guard let date = calendar.date(from: components),
              calendar.component(.day, from: date) == day else { return nil }
        return date.addingTimeInterval(fraction - Double(zoneOffset))
    }

    // MARK: - Scanning

    /// Whether every scalar was read.
    ///
    /// Only the kept prefix of the query counts: past ``maximumLength`` + 1 scalars the rest was never
    /// copied, and ``parseQuery()`` has already rejected such a query.
    private var isAtEnd: Bool { position >= characters.count }

    /// Moves past white space; always `true`, so that it can open a `while` condition
    /// (`while skipSpaces(), consume("||")`).
    ///
    /// White space is what `Character.isWhitespace` says it is, so a no-break space or an ideographic
    /// space is skipped too, not only ASCII spaces, tabs and line breaks.
    @discardableResult
    private mutating func skipSpaces() -> Bool {
        while !isAtEnd, characters[position].isWhitespace { position += 1 }
        return true
    }

    /// Whether `text` comes next, without moving.
    ///
    /// Compares `text` character by character with the scalars at ``position``, so it costs at most
    /// `text.count` comparisons. It is meant for the grammar's ASCII tokens (`&&`, `==`, `$time.`…),
    /// each of whose characters is one scalar.
    ///
    /// - Parameter text: The token to look for.
    /// - Returns: `true` when every character of `text` stands at ``position`` onwards, `false`
    ///   when one differs or the query ends first.
    private func peek(_ text: String) -> Bool {
        var index = position
        for character in text {
            guard index < characters.count, characters[index] == character else { return false }
            index += 1
        }
        return true
    }

    /// Moves past `text` when it comes next; whether it did.
    ///
    /// The case matters: `consume("InRange")` does not move past `inrange`; words compared without
    /// regard to case are read with ``peekWord()`` instead.
    ///
    /// - Parameter text: An ASCII token; ``position`` moves by its length in characters.
    /// - Returns: Whether `text` was there and ``position`` moved past it.
    private mutating func consume(_ text: String) -> Bool {
        guard peek(text) else { return false }
        position += text.count
        return true
    }

    /// The run of letters, digits and underscores at the current position, if any.
    ///
    /// Letters and digits are Unicode's (`Character.isLetter`, `isNumber`), so a word may be in any
    /// script. Attribute names and `InRange` are read with it; ``position`` does not move, and the
    /// caller consumes the word once it has judged it.
    ///
    /// - Returns: The word, or `nil` when the character at ``position`` starts none (or the query
    ///   has ended).
    private func peekWord() -> String? {
        var index = position
        while index < characters.count, characters[index].isLetter || characters[index].isNumber || characters[index] == "_" {
            index += 1
        }
        return index > position ? String(characters[position..<index]) : nil
    }

    /// What stands at the current position, for an error: the end, a word (its first 30
    /// characters), an operator, a space, or one character.
    ///
    /// Used as the `found` part of a ``QueryParseError``, so the message shows what the parser
    /// stopped at in the user's own spelling, quoted with backticks.
    private func describeFound() -> String {
        guard !isAtEnd else { return "end of query" }
        if let word = peekWord() { return "`\(word.prefix(30))`" }
        let character = characters[position]
        for op in ["==", "!=", "<=", ">=", "&&", "||"] where peek(op) { return "`\(op)`" }
        if character.isWhitespace { return "a space" }
        return "`\(character)`"
    }

    /// The error at the current position, saying what was expected and what is there.
    ///
    /// What was found is described by ``describeFound()``.
    ///
    /// - Parameter expected: What the grammar allowed at ``position``, in words.
    private func error(expected: String) -> QueryParseError {
        error(at: position, expected: expected, found: describeFound())
    }

    /// The error at the current position, with what was found said by the caller.
    ///
    /// For when what is wrong is not the token at ``position`` but something the caller knows
    /// better than ``describeFound()`` would say (`deeper nesting`, when ``depth`` passes
    /// ``maximumDepth``).
    ///
    /// - Parameters:
    ///   - expected: What the grammar allowed at ``position``, in words.
    ///   - found: What stood there, in words.
    private func error(expected: String, found: String) -> QueryParseError {
        error(at: position, expected: expected, found: found)
    }

    /// The error at the scalar `index`, its column counted in characters as a terminal shows
    /// them (a Devanagari conjunct with its vowel sign is one).
    ///
    /// - Parameters:
    ///   - index: The index in ``characters`` of the scalar where the problem is.
    ///   - expected: What the grammar allowed there, in words.
    ///   - found: What stands there, in words.
    /// - Returns: The error, with a 1-based column.
    private func error(at index: Int, expected: String, found: String) -> QueryParseError {
        var before = String.UnicodeScalarView()
        before.append(contentsOf: query.unicodeScalars.prefix(index))
        return QueryParseError(query: query, column: String(before).count + 1, expected: expected, found: found)
    }
}
