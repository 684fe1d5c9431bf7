/// What a search looks at.
public enum SearchScope: Hashable, Sendable {
    /// Names, titles, authors, keywords, folder names and text (Docs/Contract.md#search).
    case all
    /// Names, titles, keywords and folder names only: the name search of earlier versions,
    /// as fast (`search --names`).
    case names
}
