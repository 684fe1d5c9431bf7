import Searchlight

extension ElasticsearchQuery {
    /// How `query_string` joins two clauses written side by side (its `default_operator`).
    enum DefaultOperator: String, Sendable {
        case or, and
    }

    /// Reads a Lucene query string as Elasticsearch's `query_string` does, in the part of its
    /// syntax that Samba writes: `field:value`, `field:(a b)`, `"phrases"`, `*` wildcards,
    /// backslash escapes, `[a TO b]` and `{a TO *}` ranges, `AND`, `OR`, `NOT` (also `&&`,
    /// `||`, `!`, `-`) and parentheses.
    ///
    /// `AND` binds tighter than `OR`, as Spotlight's `&&` and `||` from which Samba writes
    /// them (Lucene's own reading of `a OR b AND c` drops `a`). What the endpoint does not
    /// answer is refused rather than guessed: `?` wildcards, fuzzy and proximity (`~`), boosts
    /// (`^`), regular expressions (`/…/`), required clauses (`+`) and a `NOT` clause joined
    /// to the previous one without an operator.
    ///
    /// - Throws: ``ElasticsearchError`` (400) naming the column where the text went wrong.
    init(queryString: String, defaultOperator: DefaultOperator = .or) throws(ElasticsearchError) {
        var parser = QueryStringParser(text: queryString, defaultOperator: defaultOperator)
        self = try parser.parse()
    }
}

/// The recursive descent behind ``ElasticsearchQuery/init(queryString:defaultOperator:)``.
private struct QueryStringParser {
    let text: String
    let characters: [Character]
    let defaultOperator: ElasticsearchQuery.DefaultOperator
    var position = 0

    init(text: String, defaultOperator: ElasticsearchQuery.DefaultOperator) {
        self.text = text
        characters = Array(text)
        self.defaultOperator = defaultOperator
    }

    /// Characters that end a word unless escaped.
    static let special: Set<Character> = ["(", ")", ":", "\"", "[", "]", "{", "}", "^", "~", "/", "\\"]

    mutating func parse() throws(ElasticsearchError) -> ElasticsearchQuery {
        skipSpace()
        if isAtEnd { return .or([]) }
        let query = try parseOr(field: nil)
        skipSpace()
        if !isAtEnd { throw failure("unexpected \"\(characters[position])\"") }
        return query
    }

    private var isAtEnd: Bool { position >= characters.count }

    private func failure(_ message: String) -> ElasticsearchError {
        .query("Failed to parse query [\(text)]: \(message) at column \(min(position, characters.count) + 1)")
    }

    private mutating func skipSpace() {
        while !isAtEnd, characters[position].isWhitespace { position += 1 }
    }

    /// Whether the text at the position is `word` as a whole word (`AND`, `OR`, `NOT`) or the
    /// symbol `word` (`&&`, `||`).
    private func starts(with word: String) -> Bool {
        let word = Array(word)
        guard position + word.count <= characters.count, Array(characters[position..<position + word.count]) == word else {
            return false
        }
        guard word[0].isLetter else { return true }
        let next = position + word.count
        return next == characters.count || characters[next].isWhitespace || characters[next] == "("
            || characters[next] == "\""
    }

    private mutating func consume(_ words: String...) -> Bool {
        for word in words where starts(with: word) {
            position += word.count
            return true
        }
        return false
    }

    /// Whether a clause ends here: the end, or a closing parenthesis.
    private var isAtClauseEnd: Bool { isAtEnd || characters[position] == ")" }

    private var startsNegation: Bool {
        starts(with: "NOT") || (!isAtEnd && (characters[position] == "!" || characters[position] == "-")
                                && !starts(with: "!="))
    }

    private mutating func parseOr(field: String?) throws(ElasticsearchError) -> ElasticsearchQuery {
        var operands = [try parseAnd(field: field)]
        while true {
            skipSpace()
            if isAtClauseEnd { break }
            if consume("OR", "||") {
                operands.append(try parseAnd(field: field))
            } else if defaultOperator == .or {
                try refuseImplicitNegation()
                operands.append(try parseAnd(field: field))
            } else {
                break
            }
        }
        return operands.count == 1 ? operands[0] : .or(operands)
    }

    private mutating func parseAnd(field: String?) throws(ElasticsearchError) -> ElasticsearchQuery {
        var operands = [try parseUnary(field: field)]
        while true {
            skipSpace()
            if consume("AND", "&&") {
                operands.append(try parseUnary(field: field))
            } else if defaultOperator == .and, !isAtClauseEnd, !starts(with: "OR"), !starts(with: "||") {
                try refuseImplicitNegation()
                operands.append(try parseUnary(field: field))
            } else {
                break
            }
        }
        return operands.count == 1 ? operands[0] : .and(operands)
    }

    /// Lucene reads `a NOT b` as "a and not b" whatever the default operator: asked to write
    /// the operator, a client cannot be misunderstood.
    private func refuseImplicitNegation() throws(ElasticsearchError) {
        if startsNegation { throw failure("write AND NOT or OR NOT before a negated clause") }
    }

    private mutating func parseUnary(field: String?) throws(ElasticsearchError) -> ElasticsearchQuery {
        skipSpace()
        if consume("NOT", "!", "-") { return .not(try parseUnary(field: field)) }
        if !isAtEnd, characters[position] == "+" { throw failure("required clauses (+) are not supported") }
        return try parsePrimary(field: field)
    }

    private mutating func parsePrimary(field: String?) throws(ElasticsearchError) -> ElasticsearchQuery {
        skipSpace()
        guard !isAtEnd else { throw failure("a clause is missing") }
        switch characters[position] {
        case "(":
            position += 1
            skipSpace()
            let inner = isAtClauseEnd ? ElasticsearchQuery.or([]) : try parseOr(field: field)
            skipSpace()
            guard !isAtEnd, characters[position] == ")" else { throw failure("a closing parenthesis is missing") }
            position += 1
            return try refuseModifiers(inner)
        case "\"":
            return try refuseModifiers(.phrase(field: field, try readPhrase()))
        case "[", "{":
            return try refuseModifiers(try readRange(field: field))
        case ")":
            throw failure("unexpected \")\"")
        case "/":
            throw failure("regular expressions are not supported")
        default:
            let word = try readWord()
            guard !isAtEnd, characters[position] == ":" else { return try refuseModifiers(.term(field: field, word.pattern)) }
            position += 1
            guard field == nil else { throw failure("a field inside the field \(field!) ") }
            if word.raw == "*", !isAtEnd, characters[position] == "*" {
                position += 1
                let next = position < characters.count ? characters[position] : " "
                if next.isWhitespace || next == ")" { return .all }
                position -= 1
            }
            if word.pattern.hasWildcard { throw failure("wildcards in field names are not supported") }
            guard !isAtEnd, !characters[position].isWhitespace else { throw failure("the field \(word.raw) has no value") }
            return try parsePrimary(field: word.raw)
        }
    }

    /// Boosts and fuzziness change the ranking or widen the match: not answered.
    private func refuseModifiers(_ query: ElasticsearchQuery) throws(ElasticsearchError) -> ElasticsearchQuery {
        if !isAtEnd, characters[position] == "^" { throw failure("boosts (^) are not supported") }
        if !isAtEnd, characters[position] == "~" { throw failure("fuzzy and proximity searches (~) are not supported") }
        return query
    }

    /// A word: its pattern (escapes resolved, unescaped `*` a wildcard) and its text with
    /// escapes resolved (a field name, a number, a date).
    private mutating func readWord() throws(ElasticsearchError) -> (pattern: QueryPattern, raw: String) {
        var components: [QueryPattern.Component] = []
        var raw = ""
        let start = position
        while !isAtEnd {
            let character = characters[position]
            if character.isWhitespace || (Self.special.contains(character) && character != "\\") { break }
            if position > start, starts(with: "&&") || starts(with: "||") { break }
            if position == start, character == "+" || character == "!" { break }
            switch character {
            case "\\":
                position += 1
                guard !isAtEnd else { throw failure("a backslash ends the query") }
                components.append(.literal(String(characters[position])))
                raw.append(characters[position])
            case "*":
                components.append(.wildcard)
                raw.append("*")
            case "?":
                throw failure("? wildcards are not supported (escape it as \\?)")
            default:
                components.append(.literal(String(character)))
                raw.append(character)
            }
            position += 1
        }
        if position == start { throw failure("unexpected \"\(characters[position])\"") }
        return (QueryPattern(components), raw)
    }

    /// `"…"`, with `\"` and `\\` escapes.
    private mutating func readPhrase() throws(ElasticsearchError) -> String {
        position += 1
        var phrase = ""
        while !isAtEnd, characters[position] != "\"" {
            if characters[position] == "\\" {
                position += 1
                guard !isAtEnd else { break }
            }
            phrase.append(characters[position])
            position += 1
        }
        guard !isAtEnd else { throw failure("a phrase has no closing quote") }
        position += 1
        return phrase
    }

    /// `[low TO high]`, `{low TO high}`, or a mix; `*` leaves an end open.
    private mutating func readRange(field: String?) throws(ElasticsearchError) -> ElasticsearchQuery {
        let lowerInclusive = characters[position] == "["
        position += 1
        let lower = try readRangeBound()
        skipSpace()
        guard consume("TO") else { throw failure("a range needs TO between its bounds") }
        let upper = try readRangeBound()
        skipSpace()
        guard !isAtEnd, characters[position] == "]" || characters[position] == "}" else {
            throw failure("a range is not closed with ] or }")
        }
        let upperInclusive = characters[position] == "]"
        position += 1
        return .range(field: field, lower: lower.map { .init(text: $0, isInclusive: lowerInclusive) },
                      upper: upper.map { .init(text: $0, isInclusive: upperInclusive) })
    }

    /// One bound, escapes resolved; `nil` for `*`.
    private mutating func readRangeBound() throws(ElasticsearchError) -> String? {
        skipSpace()
        guard !isAtEnd else { throw failure("a range is not closed") }
        if characters[position] == "\"" { return try readPhrase() }
        var bound = ""
        var escaped = false
        while !isAtEnd, !characters[position].isWhitespace, characters[position] != "]", characters[position] != "}" {
            if characters[position] == "\\" {
                position += 1
                guard !isAtEnd else { break }
                escaped = true
            }
            bound.append(characters[position])
            position += 1
        }
        if bound.isEmpty { throw failure("a range bound is missing") }
        return bound == "*" && !escaped ? nil : bound
    }
}
