/// The value a predicate compares an attribute with.
public enum QueryValue: Hashable, Sendable, CustomStringConvertible {
    /// A double-quoted string: a pattern with `*` wildcards, and its modifiers (`"foo*"cd`).
    case string(QueryPattern, QueryStringModifiers)
    /// A single-quoted string: compared exactly with the whole value (`'image/png'`).
    case exactString(String)
    /// A number, integer or decimal.
    case number(Double)
    /// A `$time…` date.
    case date(QueryDate)

    /// The value as written in a query.
    public var description: String {
        switch self {
        case .string(let pattern, let modifiers): return pattern.description + modifiers.description
        case .exactString(let text):
            var result = "'"
            for character in text {
                if character == "'" || character == "\\" { result.append("\\") }
                result.append(character)
            }
            return result + "'"
        case .number(let number):
            if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
            return String(number)
        case .date(let date): return date.description
        }
    }

    /// A string value as a pattern and modifiers; a single-quoted string is a literal pattern without modifiers.
    var stringPattern: (pattern: QueryPattern, modifiers: QueryStringModifiers)? {
        switch self {
        case .string(let pattern, let modifiers): (pattern, modifiers)
        case .exactString(let text): (QueryPattern(literal: text), [])
        case .number, .date: nil
        }
    }
}
