/// The modifiers that follow a double-quoted string in a query: `"foo*"cdw`.
public struct QueryStringModifiers: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The modifiers' bits.
    public let rawValue: Int
    /// The modifiers whose bits are `rawValue`.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `c`: ignore case.
    public static let caseInsensitive = QueryStringModifiers(rawValue: 1)
    /// `d`: ignore diacritics (`e` matches `é`).
    public static let diacriticInsensitive = QueryStringModifiers(rawValue: 2)
    /// `w`: word-based: the value's words match whole, consecutive words of the attribute (as
    /// Spotlight defines it; `*` in a word for prefixes: `"rep*"w`). Word boundaries include
    /// lowercase→uppercase changes.
    public static let wordBased = QueryStringModifiers(rawValue: 4)
    /// `t`: tokenized: each word of the value matches the start of some word of the attribute,
    /// in any order.
    public static let tokenized = QueryStringModifiers(rawValue: 8)

    /// The modifier for a letter, or `nil` when the letter is not one.
    init?(letter: Character) {
        switch letter {
        case "c": self = .caseInsensitive
        case "d": self = .diacriticInsensitive
        case "w": self = .wordBased
        case "t": self = .tokenized
        default: return nil
        }
    }

    /// Whether matching is by words (`w` or `t`).
    var isWordMatch: Bool { !isDisjoint(with: [.wordBased, .tokenized]) }

    /// The letters, in `cdwt` order.
    public var description: String {
        var letters = ""
        if contains(.caseInsensitive) { letters += "c" }
        if contains(.diacriticInsensitive) { letters += "d" }
        if contains(.wordBased) { letters += "w" }
        if contains(.tokenized) { letters += "t" }
        return letters
    }
}
