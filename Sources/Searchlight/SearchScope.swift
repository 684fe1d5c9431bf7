/// What a search looks at.
///
/// The scope decides which indexes a search reads, and so what it costs: ``names`` is
/// answered by name search alone, from the words of names, titles, keywords and folders,
/// through the lightest connection a handle has (a read-only handle's C reader), however much
/// text the index holds; ``all`` adds the authors and the text's full-text index, and is the
/// only scope the ranking by meaning joins (``RankedSearch``). An index that holds no text
/// answers both the same way.
///
/// ```swift
/// let asYouType = try index.search(words: ["quart"], limit: 10, scope: .names)
/// let everything = try index.searchResults(words: ["quarterly", "margin"], limit: 20)   // .all
/// ```
public enum SearchScope: Hashable, Sendable {
    /// Names, titles, authors, keywords, folder names and text (Docs/Contract.md#search).
    case all
    /// Names, titles, keywords and folder names only: the name search of earlier versions,
    /// as fast (`search --names`).
    case names
}
