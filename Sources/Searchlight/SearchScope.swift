/// What a search looks at.
public enum SearchScope: Hashable, Sendable {
    /// Names, titles, authors, keywords, folder names and text (SPEC §3).
    case all
    /// Names, titles, keywords and folder names only: the name search of earlier versions,
    /// as fast (`search --names`).
    case names
}
