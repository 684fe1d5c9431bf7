/// The way a ranked search found its results, which `search --explain` tells.
///
/// Each way gives the same results in the same order (the first page of a search with a limit
/// is the start of its full ranking); they differ in what they read.
enum SearchPath: Equatable, Sendable {
    /// Name search alone: the index has no text, or names only are searched.
    case names
    /// The best rank of names fills the page, newest first (``SearchableIndex/bestMatchesByDate(_:domain:limit:in:strategy:wholeInName:)``).
    case bestNameTier
    /// One word, its tiers in rank order, each list read from its start and a long one's
    /// items met newest first (``ContentSearch/oneWordPage(limit:sampling:)``).
    case oneWord
    /// Several words: the items in their first short lists ranked, then those at the best rank
    /// the others can have met newest first
    /// (``ContentSearch/severalWordsPage(limit:sampling:candidatesAtMost:)``).
    case severalWords
    /// Items with a word whole in a rich field ranked, then the text tier with every word
    /// whole, newest or most relevant first, fill the page (``ContentSearch/firstMatches(limit:)``).
    case wholeWords
    /// The page read tier by tier, each text tier newest first
    /// (``ContentSearch/tieredMatches(limit:rankingAtMost:sortingAtMost:)``).
    case tiers
    /// Every match ranked: no limit, Han or kana words, or compounds checked on the text.
    case everyMatch

    /// One line for `search --explain`.
    var explanation: String {
        switch self {
        case .names:
            "results: name search (no text searched)"
        case .bestNameTier:
            "results: the first page from the best rank of names, newest first; no other item ranked"
        case .oneWord:
            "results: the first page of one word tier by tier (whole before prefix; name, title, keywords and authors, folders, text), each tier's lists read from their start, a long one's items met newest first on the date index"
        case .severalWords:
            "results: the first page of several words: the items in each word's first short lists ranked, then the items at the best rank any other can have (every word in its first long list) met newest first on the date index"
        case .wholeWords:
            "results: the first page from whole words: items with a word whole in a name, title, keywords, author or folder ranked, then the texts with every word whole"
        case .tiers:
            "results: the first page tier by tier: items with a word in a name, title, keywords, author or folder ranked, then the texts' tiers (whole words before prefixes), each newest first; only the page's text matches looked up"
        case .everyMatch:
            "results: every match ranked"
        }
    }
}
